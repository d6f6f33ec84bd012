//! The graph's commands: `validate`'s static checks (with evidence from the run store) and
//! `paths`, the test paths that take every edge. `goto` is a run (see `run.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;
use statewright_graph::{Coverage, Graph, Trajectory, analyze, cover};
use statewright_runner::graph::evidence;
use statewright_store::Store;
use statewright_workflow::span::{JsonPath, SpanIndex};
use statewright_workflow::{
    Diagnostic, Loaded, Outcome, Severity, State, Terminal, Workflow, load_file, load_str, to_native_json,
    write_workflow_text,
};

use crate::exit;
use crate::store_args::StoreArgs;

/// The stored runs of `workflow`, if a store is at hand.
pub fn runs_of(store: Option<&Store>, workflow: &Workflow) -> Vec<Trajectory> {
    store.map(|s| evidence(s, &workflow.name)).unwrap_or_default()
}

/// The graph findings of one loaded file as positioned diagnostics: each at the first
/// state it names (or the file's start) in the text it was loaded from, errors with `strict`.
pub fn graph_diagnostics(file: &Path, loaded: &Loaded, runs: &[Trajectory], strict: bool) -> Vec<Diagnostic> {
    let (src, workflow) = (&loaded.source, &loaded.workflow);
    // The findings only: the edge list a front end draws is not needed here.
    let findings = analyze(workflow, runs);
    if findings.is_empty() {
        return Vec::new();
    }
    let index = SpanIndex::new(src);
    // Each finding's state looked up, not searched for (quadratic with thousands of
    // findings); the first state of a name, as a search finds it.
    let at_of: HashMap<&str, usize> =
        workflow.states.iter().enumerate().rev().map(|(i, s)| (s.name.as_str(), i)).collect();
    // A CliGent file may be a bare array of states.
    let states = if src.trim_start().starts_with('[') { JsonPath::root() } else { JsonPath::root().key("states") };
    findings
        .into_iter()
        .map(|finding| {
            let at = finding.states.first().and_then(|n| at_of.get(n.as_str()).copied());
            let path = at.map(|i| states.index(i)).unwrap_or_else(JsonPath::root);
            let pos = index.value_pos(&path);
            Diagnostic {
                severity: if strict { Severity::Error } else { Severity::Warning },
                file: file.display().to_string(),
                line: pos.line,
                column: pos.column,
                path: if at.is_some() { path.to_string() } else { String::new() },
                message: format!("{} [{}]", finding.message, finding.kind.as_str()),
                help: Some(finding.help),
            }
        })
        .collect()
}

#[derive(Args)]
pub struct PathsArgs {
    /// The workflow file.
    file: PathBuf,
    /// Write each path as a workflow of its own into this folder (created if missing).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the paths as JSON on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    store: StoreArgs,
}

#[derive(Serialize)]
struct PathsReport<'a> {
    workflow: &'a str,
    #[serde(flatten)]
    coverage: &'a Coverage,
    /// The files written with --out, one per path.
    files: Vec<String>,
    /// Path files of an earlier go that this one has no path for, removed.
    removed: Vec<String>,
}

pub fn paths(args: PathsArgs) -> u8 {
    let loaded = match load_file(&args.file) {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            errln!("{diagnostics}");
            return exit::INVALID;
        }
    };
    let workflow = &loaded.workflow;
    let runs = runs_of(args.store.existing().as_ref(), workflow);
    let coverage = cover(&Graph::new(workflow, &runs));
    let (mut files, mut removed) = (Vec::new(), Vec::new());
    if let Some(dir) = &args.out {
        match write_paths(&args.file, dir, workflow, &coverage) {
            Ok(done) => (files, removed) = done,
            Err((code, e)) => {
                errln!("statewright: {e}");
                return code;
            }
        }
    }
    if args.json {
        let report = PathsReport { workflow: &workflow.name, coverage: &coverage, files, removed };
        outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        for (i, path) in coverage.paths.iter().enumerate() {
            outln!("path {}: {}", i + 1, path.join(" → "));
        }
        for file in &files {
            errln!("wrote {file}");
        }
        for file in &removed {
            errln!("removed {file}: a path of an earlier go that this workflow no longer has");
        }
        errln!(
            "{} path{} take {} of {} edges",
            coverage.paths.len(),
            if coverage.paths.len() == 1 { "" } else { "s" },
            coverage.covered,
            coverage.total
        );
        if coverage.total == 0 {
            let other = if coverage.loops.is_empty() { "" } else { " to other states" };
            errln!(
                "the workflow declares no `next` edges{other} and no stored run took any: there is nothing to cover"
            );
        }
        for state in &coverage.loops {
            errln!("`{state}` → `{state}` is left out: a state that stays itself is not a route a path takes");
        }
        for (from, to) in &coverage.unreachable {
            errln!("warning: no path from a start state can take `{from}` → `{to}`");
        }
        for (from, to) in &coverage.unended {
            errln!(
                "warning: no test path can end after `{from}` → `{to}`: it leads back to where the path was, with no terminal after, and a run of the path would end there the first time"
            );
        }
    }
    exit::SUCCEEDED
}

/// Writes path `n` as `<stem>.path-<n>.json`: the states on it (and the interrupts, which
/// may show up anywhere), each state's `next` cut down to where the path goes from it, and
/// the last state a success terminal (reaching it is the test). A run of it fails as soon as
/// the page leaves the path.
/// Unwritten, the exit code says whose it is to fix: a path that is not a folder, or a file
/// there that is a link to nothing or a folder, is the person's (2); a failed write is 1.
/// Returns the files written and the stale ones removed.
fn write_paths(
    file: &Path,
    dir: &Path,
    workflow: &Workflow,
    coverage: &Coverage,
) -> Result<(Vec<String>, Vec<String>), (u8, String)> {
    if std::fs::symlink_metadata(dir).is_ok() && !dir.is_dir() {
        let what = if dir.exists() { "is not a folder" } else { "is a symbolic link to nothing" };
        return Err((exit::INVALID, format!("--out {} {what}: nothing was written", dir.display())));
    }
    std::fs::create_dir_all(dir).map_err(|e| (exit::FAILED, format!("cannot create {}: {e}", dir.display())))?;
    let stem: String = file
        .file_stem()
        .map(|s| {
            s.to_string_lossy()
                .chars()
                .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
                .collect()
        })
        .unwrap_or_else(|| "workflow".to_owned());
    let mut written = Vec::new();
    // Each path's file is made from the states it takes, looked up, and cloned without their
    // `next` (which it cuts): cloning the whole workflow for each path made a workflow of
    // 5,000 states fanning out from one, and as many paths, take 85 s.
    let mut bare = workflow.clone();
    for state in &mut bare.states {
        state.next.clear();
    }
    let at: HashMap<&str, usize> =
        workflow.states.iter().enumerate().rev().map(|(i, s)| (s.name.as_str(), i)).collect();
    let interrupts: Vec<usize> = (0..workflow.states.len()).filter(|&i| workflow.states[i].interrupt).collect();
    for (i, path) in coverage.paths.iter().enumerate() {
        let n = i + 1;
        // In the workflow's order, which is its priority.
        let mut taken: Vec<usize> = path.iter().filter_map(|name| at.get(name.as_str()).copied()).collect();
        taken.extend(&interrupts);
        taken.sort_unstable();
        taken.dedup();
        let states = taken.iter().map(|&i| bare.states[i].clone()).collect();
        let one = path_workflow(workflow, states, path, n);
        let text = to_native_json(&one);
        let target = dir.join(format!("{stem}.path-{n}.json"));
        // What is written must load: check it the way `run` will.
        if let Err(diagnostics) = load_str(&text, &target.display().to_string(), &stem) {
            return Err((exit::FAILED, format!("path {n} does not make a valid workflow: {diagnostics}")));
        }
        write_workflow_text(&target, &text).map_err(|e| (exit::unwritten(&e), e.to_string()))?;
        written.push(target.display().to_string());
    }
    let removed = remove_stale_paths(dir, &stem, coverage.paths.len());
    Ok((written, removed))
}

/// The path files of an earlier go beyond this go's last (`STEM.path-N.json`, N larger):
/// left there, a test runner taking the folder's `*.path-*.json` would run paths the
/// workflow no longer has. Only plain files named so go; what cannot be removed stays.
fn remove_stale_paths(dir: &Path, stem: &str, count: usize) -> Vec<String> {
    let prefix = format!("{stem}.path-");
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut removed: Vec<String> = entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .filter(|entry| {
            let name = entry.file_name();
            let n = name.to_str().and_then(|n| n.strip_prefix(&prefix)).and_then(|n| n.strip_suffix(".json"));
            n.is_some_and(|n| !n.starts_with('0') && n.parse::<usize>().is_ok_and(|n| n > count))
        })
        .filter(|entry| std::fs::remove_file(entry.path()).is_ok())
        .map(|entry| entry.path().display().to_string())
        .collect();
    removed.sort();
    removed
}

fn path_workflow(workflow: &Workflow, states: Vec<State>, path: &[String], n: usize) -> Workflow {
    let mut one = Workflow {
        version: workflow.version,
        name: String::new(),
        description: String::new(),
        parameters: workflow.parameters.clone(),
        config: workflow.config.clone(),
        skill: workflow.skill.clone(),
        states,
    };
    one.name = format!("{} (path {n})", workflow.name);
    one.description = format!("Test path {n} of `{}`: {}", workflow.name, path.join(" → "));
    let last = path.last().cloned().unwrap_or_default();
    // The path's steps: an interrupt is a detour, after which the page goes on from the
    // state it interrupted.
    // Looked up, not searched for: a path may be thousands of states long.
    let interrupts: std::collections::HashSet<&str> =
        one.states.iter().filter(|s| s.interrupt).map(|s| s.name.as_str()).collect();
    let mut next_of: HashMap<&str, Vec<String>> = HashMap::new();
    let mut page: Option<&str> = None;
    for state in path {
        if let Some(from) = page {
            let next = next_of.entry(from).or_default();
            if !next.contains(state) {
                next.push(state.clone());
            }
        }
        if !interrupts.contains(state.as_str()) {
            page = Some(state);
        }
    }
    drop(interrupts);
    for state in one.states.iter_mut().filter(|s| !s.interrupt) {
        state.next = next_of.remove(state.name.as_str()).unwrap_or_default();
        // Getting to the end of the path is what the test checks, even where the path ends
        // in one of the workflow's failure states.
        if state.name == last {
            let was = match &state.terminal {
                Some(Terminal { outcome: Outcome::Failure, message }) => format!(" (a failure state: {message})"),
                _ => String::new(),
            };
            let message = format!("the end of test path {n}{was}");
            state.terminal = Some(Terminal { outcome: Outcome::Success, message });
        }
    }
    one
}

#[cfg(test)]
mod tests {
    use super::graph_diagnostics;

    /// The findings point into the text the workflow was loaded from: the file is not read a
    /// second time (unbounded, and perhaps another file by then), here not there at all.
    #[test]
    fn findings_are_placed_in_the_text_loaded_not_in_the_file_read_again() {
        let text = r#"{
  "version": 1, "name": "w",
  "states": [
    {"name": "Done", "checks": [{"type": "text", "value": "Done"}], "terminal": {"outcome": "success"}},
    {"name": "Orphan", "checks": [{"type": "url", "value": "http://x/orphan"}], "next": ["Done"]},
    {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
     "actions": [{"type": "navigate_to", "url": "http://x/"}], "next": ["Done"]}
  ]
}"#;
        let loaded = statewright_workflow::load_str(text, "w.json", "w").unwrap();
        let gone = std::path::Path::new("/nonexistent/w.json");
        let found = graph_diagnostics(gone, &loaded, &[], false);
        let orphan = found.iter().find(|d| d.path == "states[1]").expect("the orphan state is found");
        assert_eq!((orphan.file.as_str(), orphan.line, orphan.column), ("/nonexistent/w.json", 5, 5), "{orphan}");
    }
}
