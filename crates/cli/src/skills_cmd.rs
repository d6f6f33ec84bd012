//! `statewright skills`: the skills folder listed, seed 003 skill folders imported into it,
//! and skills exported back to seed 003's format.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use statewright_author::skill003;
use statewright_workflow::{load_file, to_native_json};

use crate::exit;

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
        #[arg(long)]
        json: bool,
    },
    /// Write skills as seed 003 skill folders (NNN-name/SKILL.md + actions.json) under --to.
    Export {
        #[arg(required = true)]
        names: Vec<String>,
        #[arg(long, value_name = "DIR")]
        to: PathBuf,
        #[command(flatten)]
        folder: Folder,
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
    };
    match result {
        Ok((report, text)) => {
            if json {
                outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
            } else {
                eprint!("{text}");
            }
            exit::SUCCEEDED
        }
        Err(message) => {
            eprintln!("statewright: {message}");
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
    // Every clash is found before anything is written: an import is all or nothing.
    let target = |name: &str| statewright_workflow::skills::skill_file(dir, name);
    if !force && let Some(taken) = imported.iter().map(|i| target(&i.skill.name)).find(|f| f.exists()) {
        return Err(format!("{} exists already; pass --force to replace it", taken.display()));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (mut report, mut text) = (Vec::new(), String::new());
    for one in &imported {
        let file = target(&one.skill.name);
        let native = to_native_json(&one.skill);
        std::fs::write(&file, native).map_err(|e| format!("{}: {e}", file.display()))?;
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
