//! `statewright skills`: the skills folder listed, seed 003 skill folders imported into it,
//! skills exported back to seed 003's format, and skills mined from successful runs.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use statewright_author::skill003;
use statewright_workflow::{load_file, to_native_json, writable_file, write_workflow_text};

use crate::exit;
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct SkillsArgs {
    #[command(subcommand)]
    command: SkillsCommand,
}

#[derive(Subcommand)]
enum SkillsCommand {
    /// The skills in the skills folder: name, parameters, pre- and postconditions.
    List {
        #[command(flatten)]
        folder: Folder,
        /// Print the skills as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Read seed 003 skill folders (SKILL.md + actions.json) under SOURCE into the skills folder.
    Import {
        source: PathBuf,
        #[command(flatten)]
        folder: Folder,
        /// Replace skills of the same name already in the folder.
        #[arg(long)]
        force: bool,
        /// Print what was imported as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Propose skills from successful runs (two or more agreeing); write the accepted ones.
    Mine {
        /// Runs (ids or unique prefixes), at least two.
        #[arg(required = true, num_args = 2..)]
        runs: Vec<String>,
        /// How many of the runs must do the same thing for it to be proposed.
        #[arg(long, default_value_t = 2)]
        min_runs: usize,
        /// Write this proposal into the skills folder (repeatable).
        #[arg(long, value_name = "NAME")]
        accept: Vec<String>,
        /// Write every proposal.
        #[arg(long, conflicts_with = "accept")]
        accept_all: bool,
        /// Replace skills of the same name already in the folder.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        folder: Folder,
        #[command(flatten)]
        store: StoreArgs,
        /// Print the proposals, and what was written, as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Write skills as seed 003 skill folders (NNN-name/SKILL.md + actions.json) under --to.
    Export {
        /// The skills to export (their names).
        #[arg(required = true)]
        names: Vec<String>,
        /// The folder to write the skill folders under.
        #[arg(long, value_name = "DIR")]
        to: PathBuf,
        #[command(flatten)]
        folder: Folder,
        /// Print what was written as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
struct Folder {
    /// The skills folder.
    #[arg(long = "skills", env = "STATEWRIGHT_SKILLS", value_name = "DIR", default_value = "skills")]
    dir: PathBuf,
}

pub fn skills(args: SkillsArgs) -> u8 {
    let (result, json) = match args.command {
        SkillsCommand::List { folder, json } => (list(&folder.dir), json),
        SkillsCommand::Import { source, folder, force, json } => (import(&source, &folder.dir, force), json),
        SkillsCommand::Export { names, to, folder, json } => (export(&names, &folder.dir, &to), json),
        SkillsCommand::Mine { runs, min_runs, accept, accept_all, force, folder, store, json } => {
            let db = store.db_path();
            let choice = Accept { names: accept, all: accept_all, force };
            (mine(&runs, min_runs, &db, &choice, &folder.dir), json)
        }
    };
    match result {
        Ok((report, text)) => {
            if json {
                outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
            } else {
                err!("{text}");
            }
            exit::SUCCEEDED
        }
        Err(message) => {
            errln!("statewright: {message}");
            exit::INVALID
        }
    }
}

type Outcome = Result<(Value, String), String>;

fn list(dir: &Path) -> Outcome {
    if !dir.is_dir() {
        return Err(format!("{}: no skills folder here (make one, or pass --skills DIR)", dir.display()));
    }
    let (mut report, mut text) = (Vec::new(), String::new());
    for file in skill003::skill_files(dir) {
        match load_file(&file) {
            Ok(loaded) if loaded.workflow.skill.is_some() => {
                let skill = loaded.workflow;
                let spec = skill.skill.clone().unwrap_or_default();
                let params: Vec<&str> = skill.parameters.keys().map(String::as_str).collect();
                text.push_str(&format!(
                    "{}({}) · {} pre · {} post · {}\n",
                    skill.name,
                    params.join(", "),
                    spec.pre.len(),
                    spec.post.len(),
                    skill.description
                ));
                report.push(json!({
                    "name": skill.name, "file": file, "description": skill.description,
                    "parameters": skill.parameters, "outputs": skill.variables(),
                    "pre": spec.pre, "post": spec.post, "source": spec.source,
                }));
            }
            Ok(_) => text.push_str(&format!("{}: a workflow, not a skill (no \"skill\" section)\n", file.display())),
            Err(d) => {
                text.push_str(&format!("{}: invalid\n{d}\n", file.display()));
                report.push(json!({"file": file, "invalid": d}));
            }
        }
    }
    if report.is_empty() {
        text.push_str(&format!("no skills in {}\n", dir.display()));
    }
    Ok((json!(report), text))
}

fn import(source: &Path, dir: &Path, force: bool) -> Outcome {
    let imported = skill003::import(source).map_err(|e| e.to_string())?;
    // Every clash, and every file in the way, is found before anything is written: an
    // import is all or nothing.
    let target = |name: &str| statewright_workflow::skills::skill_file(dir, name);
    if !force && let Some(taken) = imported.iter().map(|i| target(&i.skill.name)).find(|f| occupied(f)) {
        return Err(format!("{} exists already; pass --force to replace it", taken.display()));
    }
    for one in &imported {
        writable_file(&target(&one.skill.name)).map_err(|e| e.to_string())?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (mut report, mut text) = (Vec::new(), String::new());
    for one in &imported {
        let file = target(&one.skill.name);
        let native = to_native_json(&one.skill);
        write_workflow_text(&file, &native).map_err(|e| e.to_string())?;
        let actions: usize = one.skill.states.iter().map(|s| s.actions.len()).sum();
        text.push_str(&format!("imported {} → {} ({actions} actions)\n", one.folder.display(), file.display()));
        report.push(json!({"folder": one.folder, "file": file, "name": one.skill.name, "actions": actions}));
    }
    Ok((json!(report), text))
}

fn export(names: &[String], dir: &Path, to: &Path) -> Outcome {
    let (mut report, mut text) = (Vec::new(), String::new());
    for (i, name) in names.iter().enumerate() {
        let file: PathBuf = statewright_workflow::skills::skill_file(dir, name);
        if !statewright_workflow::is_skill_name(name) || !file.is_file() {
            return Err(format!("no skill `{name}` in {}", dir.display()));
        }
        let skill = load_file(&file).map_err(|d| d.to_string())?.workflow;
        let folder = skill003::export(&skill, i + 1, to).map_err(|e| format!("skill {e}"))?;
        text.push_str(&format!("exported {} → {}\n", file.display(), folder.display()));
        report.push(json!({"name": name, "folder": folder}));
    }
    Ok((json!(report), text))
}

/// Whether a skill's file is there to be replaced: a link whose file is gone, or a pipe,
/// counts, so that without `--force` it is named rather than written through.
fn occupied(file: &Path) -> bool {
    file.symlink_metadata().is_ok()
}

/// Which proposals to write.
struct Accept {
    names: Vec<String>,
    all: bool,
    force: bool,
}

fn mine(runs: &[String], min_runs: usize, db: &Path, accept: &Accept, dir: &Path) -> Outcome {
    // Mining reads runs: a store that is not there (a mistyped --runs-dir) is not created.
    if !db.exists() {
        return Err(format!("no run store at {}: there are no runs to mine there (see --runs-dir)", db.display()));
    }
    let store = statewright_store::Store::open(db).map_err(|e| format!("{}: {e}", db.display()))?;
    let mut trajectories = Vec::new();
    for prefix in runs {
        let id = store.resolve_run(prefix).map_err(|e| e.to_string())?;
        trajectories.push(statewright_author::from_run(&store, &id).map_err(|e| format!("run {id}: {e}"))?);
    }
    let options = statewright_author::MineOptions { min_runs, ..Default::default() };
    let report = statewright_author::mine(&trajectories, &options);
    let names: Vec<&str> = report.proposals.iter().map(|p| p.skill.name.as_str()).collect();
    if let Some(unknown) = accept.names.iter().find(|n| !names.contains(&n.as_str())) {
        return Err(format!("no proposal named `{unknown}` (proposed: {})", names.join(", ")));
    }
    let chosen: Vec<&statewright_author::Proposal> =
        report.proposals.iter().filter(|p| accept.all || accept.names.contains(&p.skill.name)).collect();
    let target = |name: &str| statewright_workflow::skills::skill_file(dir, name);
    if !accept.force
        && let Some(taken) = chosen.iter().map(|p| target(&p.skill.name)).find(|f| occupied(f))
    {
        return Err(format!("{} exists already; pass --force to replace it", taken.display()));
    }
    let mut text = String::new();
    for note in &report.skipped {
        text.push_str(&format!("skipped {note}\n"));
    }
    for proposal in &report.proposals {
        let skill = &proposal.skill;
        let params: Vec<&str> = skill.parameters.keys().map(String::as_str).collect();
        text.push_str(&format!("{}({}) · from {}\n", skill.name, params.join(", "), proposal.runs.join(", ")));
        for action in skill.states.iter().flat_map(|s| &s.actions) {
            text.push_str(&format!("    {action}\n"));
        }
    }
    if report.proposals.is_empty() {
        text.push_str(&format!("no skill: no segment of {min_runs} or more of these runs agrees\n"));
    }
    for proposal in &chosen {
        writable_file(&target(&proposal.skill.name)).map_err(|e| e.to_string())?;
    }
    let mut written = Vec::new();
    if !chosen.is_empty() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    for proposal in chosen {
        let file = target(&proposal.skill.name);
        write_workflow_text(&file, &to_native_json(&proposal.skill)).map_err(|e| e.to_string())?;
        text.push_str(&format!("wrote {}\n", file.display()));
        written.push(file);
    }
    if written.is_empty() && !report.proposals.is_empty() {
        text.push_str("nothing written: accept proposals with --accept NAME or --accept-all\n");
    }
    Ok((json!({"proposals": report.proposals, "skipped": report.skipped, "written": written}), text))
}
