//! Reading a trajectory: from a run in the store (any run: deterministic, reviewed, recorded
//! or agent-driven), from a run folder (`timeline.json` and `step-NNN.json`, as `statewright
//! runs export` writes them), or from a seed 003 session folder (`action_timeline.json`).
//! What is missing or cut short is said in the trajectory's notes; what is there is kept.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use statewright_store::Store;
use statewright_workflow::params::MASK;
use statewright_workflow::{Action, Target, Workflow};

use crate::trajectory::{Act, Element, Ending, Page, Trajectory};

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Store(#[from] statewright_store::Error),
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    #[error("{path}:{line}:{column}: {message}")]
    Json { path: PathBuf, line: usize, column: usize, message: String },
    #[error("{0}: no trajectory here (neither timeline.json nor action_timeline.json)")]
    NotATrajectory(PathBuf),
    #[error("{0}: the trajectory has no page observations (step-NNN.json), so its states cannot be told apart")]
    NoPages(PathBuf),
}

/// The workflow name `statewright record` stores its runs under.
pub const RECORDING: &str = "recording";

/// A stored run as a trajectory.
pub fn from_run(store: &Store, id: &str) -> Result<Trajectory, ReadError> {
    let detail = store.run_detail(id, true)?;
    let workflow: Option<Workflow> =
        store.workflow_json(&detail.run.workflow_hash)?.and_then(|j| serde_json::from_str(&j).ok());
    let mut steps = BTreeMap::new();
    for s in &detail.steps {
        let (url, title, text, elements) = match &s.page {
            // Observations are taken beside the run, not on its path: one that saw the page
            // after it moved on (another URL) says nothing of the state's own page.
            Some(p) if p.url == s.url => (p.url.clone(), p.title.clone(), p.text.clone(), Element::list(&p.elements)),
            _ => (s.url.clone(), String::new(), String::new(), Vec::new()),
        };
        steps.insert(
            s.step,
            Page { url, title, text, elements, step: s.step, label: Some(s.state.clone()), ..Page::default() },
        );
    }
    let mut notes = Vec::new();
    for a in &detail.actions {
        if a.kind == "preempted" || a.error.is_some() {
            continue;
        }
        let Some(page) = steps.get_mut(&a.step) else { continue };
        match action_of(&a.kind, a.args.as_ref()) {
            Some(action) => {
                let alternatives = a.alternatives.as_ref().map(targets).unwrap_or_default();
                page.acts.push(act(action, alternatives))
            }
            None => notes.push(format!("step {}: action `{}` could not be read back; left out", a.step, a.kind)),
        }
    }
    let mut pages: Vec<Page> = steps.into_values().collect();
    // A recording's steps are numbered pages, not states anyone named.
    if detail.run.workflow == RECORDING {
        pages.iter_mut().for_each(|p| p.label = None);
    }
    if let Some(w) = &workflow {
        let interrupts: HashSet<&str> = w.states.iter().filter(|s| s.interrupt).map(|s| s.name.as_str()).collect();
        for p in &mut pages {
            p.overlay = p.label.as_deref().is_some_and(|l| interrupts.contains(l));
        }
    }
    let r = &detail.run;
    let ending = match r.status.as_str() {
        "succeeded" => Ending::Succeeded,
        "failed" | "interrupted" | "cancelled" => {
            Ending::Failed { reason: r.message.clone().unwrap_or_else(|| r.status.clone()) }
        }
        _ => Ending::Unknown,
    };
    Ok(Trajectory {
        source: format!("run {}", r.id),
        task: workflow.map(|w| w.description).filter(|d| !d.is_empty()),
        pages,
        ending,
        parameters: string_pairs(&r.parameters),
        notes,
    })
}

/// A run folder or a seed 003 session folder as a trajectory.
pub fn from_folder(dir: &Path) -> Result<Trajectory, ReadError> {
    let timeline = dir.join("timeline.json");
    let action_timeline = dir.join("action_timeline.json");
    let mut notes = Vec::new();
    let (header, entries) = if timeline.is_file() {
        let doc = read_json(&timeline, &mut notes)?;
        let entries = doc.get("timeline").and_then(Value::as_array).cloned().unwrap_or_default();
        (doc, entries)
    } else if action_timeline.is_file() {
        let doc = read_json(&action_timeline, &mut notes)?;
        // Seed 003 writes either the list itself or `{task_description, timeline}`.
        let entries = match &doc {
            Value::Array(list) => list.clone(),
            other => other.get("timeline").and_then(Value::as_array).cloned().unwrap_or_default(),
        };
        (if doc.is_object() { doc } else { json!({}) }, entries)
    } else {
        return Err(ReadError::NotATrajectory(dir.to_owned()));
    };

    let mut pages = read_pages(dir, &header, &mut notes)?;
    if pages.is_empty() {
        return Err(ReadError::NoPages(dir.to_owned()));
    }
    let interrupts: HashSet<String> = header
        .pointer("/workflow_definition/states")
        .and_then(Value::as_array)
        .map(|states| {
            states
                .iter()
                .filter(|s| s.get("interrupt").and_then(Value::as_bool) == Some(true))
                .filter_map(|s| s.get("name").and_then(Value::as_str).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    for p in pages.values_mut() {
        p.overlay = p.label.as_ref().is_some_and(|l| interrupts.contains(l));
    }

    for (i, e) in entries.iter().enumerate() {
        match e.get("action_type").and_then(Value::as_str) {
            Some("preempted") => continue,
            Some("subtask_replay") => {
                let name = e.get("subtask_name").and_then(Value::as_str).unwrap_or("?");
                notes.push(format!(
                    "entry {}: skill replay `{name}` left out (its actions are not in the timeline)",
                    i + 1
                ));
                continue;
            }
            _ => {}
        }
        if e.get("error").is_some_and(|v| !v.is_null()) {
            continue;
        }
        let step =
            e.get("step").or_else(|| e.get("action_step")).and_then(Value::as_u64).map(|s| s as u32).unwrap_or(0);
        // The page the act was done on: its own step's, else the last one seen before it.
        let Some(page) = pages.range_mut(..=step).next_back().map(|(_, p)| p) else {
            notes.push(format!("entry {}: no page was observed before it; left out", i + 1));
            continue;
        };
        let kind = e.get("action").and_then(Value::as_str).unwrap_or("");
        let args = e.get("args");
        let label = e.get("element_label").and_then(Value::as_str);
        let read = match args {
            Some(Value::Array(list)) => seed_action(kind, list, label, page),
            other => action_of(kind, other),
        };
        match read {
            Some(action) => {
                let alternatives = e.get("alternatives").map(targets).unwrap_or_default();
                page.acts.push(act(action, alternatives));
            }
            None => notes.push(format!("entry {}: action `{kind}` could not be read; left out", i + 1)),
        }
    }
    let ending = match header.get("status").and_then(Value::as_str) {
        Some("succeeded") => Ending::Succeeded,
        Some("failed" | "interrupted" | "cancelled") => Ending::Failed {
            reason: header.get("message").and_then(Value::as_str).unwrap_or("the run failed").to_owned(),
        },
        _ => Ending::Unknown,
    };
    Ok(Trajectory {
        source: format!("folder {}", dir.display()),
        task: header.get("task_description").and_then(Value::as_str).map(str::to_owned),
        pages: pages.into_values().collect(),
        ending,
        parameters: header.get("parameters").map(string_pairs).unwrap_or_default(),
        notes,
    })
}

/// The folder's pages by step: `step-NNN.json`, labelled with the state `timeline.json` names.
fn read_pages(dir: &Path, header: &Value, notes: &mut Vec<String>) -> Result<BTreeMap<u32, Page>, ReadError> {
    let mut pages = BTreeMap::new();
    let entries = std::fs::read_dir(dir).map_err(|e| file_error(dir, e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(n) = name.strip_prefix("step-").and_then(|r| r.strip_suffix(".json")).and_then(|n| n.parse().ok())
        else {
            continue;
        };
        let path = entry.path();
        let doc = match read_json(&path, notes) {
            Ok(doc) => doc,
            Err(e) => {
                notes.push(format!("{e}; step {n} left out"));
                continue;
            }
        };
        let text = |k: &str| doc.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let elements = doc.get("elements").map(Element::list).unwrap_or_default();
        pages.insert(
            n,
            Page { url: text("url"), title: text("title"), text: text("text"), elements, step: n, ..Page::default() },
        );
    }
    for s in header.get("steps").and_then(Value::as_array).into_iter().flatten() {
        let Some(n) = s.get("step").and_then(Value::as_u64).map(|n| n as u32) else { continue };
        let label = s.get("state").and_then(Value::as_str).map(str::to_owned);
        if let Some(shot) = s.get("screenshot").and_then(Value::as_str)
            && !dir.join(shot).is_file()
        {
            notes.push(format!("step {n}: screenshot {shot} is missing (not needed to compile)"));
        }
        match pages.get_mut(&n) {
            Some(p) => p.label = label,
            None => {
                notes.push(format!("step {n}: step-{n:03}.json is missing; the step is known by its URL only"));
                let url = s.get("url").and_then(Value::as_str).unwrap_or("").to_owned();
                pages.insert(n, Page { url, step: n, label, ..Page::default() });
            }
        }
    }
    Ok(pages)
}

/// A JSON file; a truncated list is salvaged up to its last complete entry, and said so.
fn read_json(path: &Path, notes: &mut Vec<String>) -> Result<Value, ReadError> {
    // Read as every input file is: a pipe in the folder is refused, not waited on.
    let text = statewright_workflow::read_input_text(path, "session file")
        .map_err(|e| ReadError::File { path: path.to_owned(), message: e.message })?;
    match serde_json::from_str(&text) {
        Ok(v) => Ok(v),
        Err(e) if e.is_eof() => {
            let salvaged = salvage_entries(&text);
            if salvaged.is_empty() {
                return Err(json_error(path, &text, &e));
            }
            notes.push(format!(
                "{} is cut short ({}:{}: {e}); the {} complete entries before the cut are used",
                path.display(),
                e.line(),
                e.column(),
                salvaged.len()
            ));
            Ok(Value::Array(salvaged))
        }
        Err(e) => Err(json_error(path, &text, &e)),
    }
}

/// The complete objects of a JSON list that was cut short (`[{…}, {…}, {…`).
fn salvage_entries(text: &str) -> Vec<Value> {
    let body = text.trim_start();
    let Some(body) = body.strip_prefix('[') else { return Vec::new() };
    let (mut depth, mut in_string, mut escaped, mut start) = (0usize, false, false, None);
    let mut out = Vec::new();
    for (i, c) in body.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            '}' | ']' if depth > 0 => {
                depth -= 1;
                if depth == 0
                    && let Some(s) = start.take()
                    && let Ok(v) = serde_json::from_str::<Value>(&body[s..=i])
                {
                    out.push(v);
                }
            }
            _ => {}
        }
    }
    out
}

fn file_error(path: &Path, e: std::io::Error) -> ReadError {
    ReadError::File { path: path.to_owned(), message: e.to_string() }
}

fn json_error(path: &Path, text: &str, e: &serde_json::Error) -> ReadError {
    let message = statewright_workflow::json_problem(text, e);
    ReadError::Json { path: path.to_owned(), line: e.line(), column: e.column(), message }
}

fn act(action: Action, alternatives: Vec<Target>) -> Act {
    let secret = matches!(&action, Action::Type { text, .. } if text.contains(MASK));
    Act { action, alternatives, dialog: None, secret }
}

/// An action as the store and the run folder keep it: its kind and its other fields.
fn action_of(kind: &str, args: Option<&Value>) -> Option<Action> {
    let mut map = args.and_then(Value::as_object).cloned().unwrap_or_default();
    map.insert("type".into(), Value::String(kind.to_owned()));
    serde_json::from_value(Value::Object(map)).ok()
}

/// A seed 003 act: element references (`e998`) resolved in the page's snapshot, else the
/// element's label taken as its accessible name.
pub(crate) fn seed_action(kind: &str, args: &[Value], label: Option<&str>, page: &Page) -> Option<Action> {
    let strings: Vec<&str> = args.iter().filter_map(Value::as_str).collect();
    let target = || -> Option<Target> {
        let by_ref = strings.first().and_then(|r| page.elements.iter().find(|e| e.id == *r));
        match (by_ref, label) {
            (Some(e), _) if !e.role.is_empty() && !e.name.is_empty() => {
                Some(Target { role: Some(e.role.clone()), name: Some(e.name.clone()), ..Target::default() })
            }
            (Some(e), _) if !e.selector.is_empty() => {
                Some(Target { css: Some(e.selector.clone()), ..Target::default() })
            }
            (_, Some(l)) if !l.is_empty() => {
                Some(Target { css: Some(format!("[aria-label=\"{}\"]", l.replace('"', "\\\""))), ..Target::default() })
            }
            _ => None,
        }
    };
    let last = strings.last().map(|s| s.to_string());
    Some(match kind {
        "click" => Action::Click { target: target()?, button: Default::default(), count: 1, position: None },
        "type" | "fill" | "input" => {
            Action::Type { target: target()?, text: last.filter(|_| strings.len() > 1)?, clear: true }
        }
        "press" | "press_key" | "key" => Action::PressKey { key: last? },
        "enter" => Action::PressKey { key: "Enter".into() },
        "select" | "select_option" => {
            // The value after the element: one, or a list of them for a `<select multiple>`.
            let value = match args {
                [_, .., Value::Array(list)] => list
                    .iter()
                    .map(|v| v.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
                    .map(statewright_workflow::Choices::Many),
                _ => last.filter(|_| strings.len() > 1).map(statewright_workflow::Choices::One),
            };
            Action::SelectOption { target: target()?, value, label: None }
        }
        "navigate" | "goto" | "navigate_to" | "open" => Action::NavigateTo { url: last? },
        "back" | "go_back" | "goback" => Action::GoBack {},
        "hover" => Action::Hover { target: target()? },
        "check" => Action::Check { target: target()?, checked: true },
        "uncheck" => Action::Check { target: target()?, checked: false },
        "scroll" => Action::Scroll { direction: statewright_workflow::Direction::Down, amount: 500, target: None },
        _ => return None,
    })
}

fn targets(v: &Value) -> Vec<Target> {
    v.as_array()
        .map(|list| list.iter().filter_map(|t| serde_json::from_value(t.clone()).ok()).collect())
        .unwrap_or_default()
}

fn string_pairs(v: &Value) -> Vec<(String, String)> {
    v.as_object()
        .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned()))).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_list_keeps_its_complete_entries() {
        let cut = r#"[{"a": "x}"}, {"b": [1, {"c": 2}]}, {"d": "#;
        assert_eq!(salvage_entries(cut), vec![json!({"a": "x}"}), json!({"b": [1, {"c": 2}]})]);
        assert!(salvage_entries("{\"a\": 1").is_empty());
    }

    #[test]
    fn seed_acts_resolve_element_references() {
        let page = Page {
            elements: vec![Element {
                id: "e7".into(),
                role: "combobox".into(),
                name: "Where from?".into(),
                ..Element::default()
            }],
            ..Page::default()
        };
        let a = seed_action("type", &[json!("e7"), json!("Chicago")], Some("Where from?"), &page).unwrap();
        assert_eq!(
            a,
            Action::Type {
                target: Target { role: Some("combobox".into()), name: Some("Where from?".into()), ..Target::default() },
                text: "Chicago".into(),
                clear: true
            }
        );
        let b = seed_action("click", &[json!("e999")], Some("Search"), &page).unwrap();
        assert_eq!(b.target().unwrap().css.as_deref(), Some("[aria-label=\"Search\"]"));
        let c = seed_action("uncheck", &[json!("e999")], Some("Newsletter"), &page).unwrap();
        assert!(matches!(c, Action::Check { checked: false, .. }), "{c:?}");
        assert!(seed_action("teleport", &[], None, &page).is_none());
    }
}
