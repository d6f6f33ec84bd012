//! The workflows folder, and the skills folder beside it: the files the editor lists,
//! opens and writes.
//!
//! Ids are file names inside the workflows folder (`demo-shop.json`), or inside the skills
//! folder behind the one prefix `skills/` (`skills/demo-sign-in.json`), and never paths, so
//! no command can reach outside them. Saving writes the native format with stable field order
//! through `write_workflow_text` (a temporary file and a rename, beside the file a symbolic
//! link leads to, so a workflow kept in its own repository gets the edit and stays linked),
//! and refuses to overwrite a file that changed on disk since it was opened unless asked to.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde_json::Value;
use sha2::{Digest, Sha256};
use statewright_workflow::{
    Diagnostic, Outcome, Severity, State, Terminal, Workflow, load_str, read_workflow_text, to_native_json,
    to_native_json_preserving, without_bom, write_workflow_text,
};

use crate::ipc::{OpenedWorkflow, SaveResult, WorkflowEntry};
use crate::{Error, Result};

pub struct Library {
    dir: PathBuf,
    /// `skills/` beside the workflows folder: where `use_skill` finds skills.
    skills: PathBuf,
}

/// The id prefix of files in the skills folder.
pub(crate) const SKILLS: &str = "skills/";

/// The hex SHA-256 of a file's bytes.
pub fn content_hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The longest file name a name may make, in bytes: with the trash's time prefix and a
/// save's temporary-file affixes it stays under the 255 bytes file systems allow.
pub(crate) const MAX_FILE_NAME_BYTES: usize = 200;

/// `Login flow` → `login-flow.json`.
pub(crate) fn file_name_for(name: &str) -> Result<String> {
    let trimmed = name.trim();
    let ok = !trimmed.is_empty() && trimmed.chars().all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    if !ok {
        return Err(Error::BadName(name.to_owned()));
    }
    let slug: String = trimmed.chars().map(|c| if c == ' ' { '-' } else { c.to_ascii_lowercase() }).collect();
    // `CON` is named so and kept in `con_.json`: `con.json` is the console on Windows.
    let file = format!("{}.json", statewright_workflow::portable_stem(&slug));
    if file.len() > MAX_FILE_NAME_BYTES {
        return Err(Error::LongName(file.len()));
    }
    Ok(file)
}

/// A file name that stays in the folder it is joined to: a `.json` file, not hidden
/// (temporary files and the trash start with a dot), with no separator or control character
/// (so `..` can only be part of a name). Every name that comes from the window goes through
/// this.
pub(crate) fn plain_file_name(name: &str) -> bool {
    name.ends_with(".json")
        && !name.starts_with('.')
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

/// A diagnostic's message with where in the file it is (a whole file's problem is at 1:1,
/// where the place says nothing).
fn placed(d: &Diagnostic) -> String {
    match (d.line, d.column) {
        (1, 1) => d.message.clone(),
        (line, column) => format!("line {line}, column {column}: {}", d.message),
    }
}

/// The smallest workflow that validates: a start state that opens a page, and a terminal one.
fn starter(name: &str) -> Workflow {
    let mut wf: Workflow = serde_json::from_value(serde_json::json!({
        "version": 1,
        "name": name,
        "states": [
            {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
             "actions": [{"type": "navigate_to", "url": "https://example.com/"}], "next": ["Done"]},
            {"name": "Done", "checks": [{"type": "url", "match": "prefix", "value": "https://example.com"}]}
        ]
    }))
    .expect("the starter workflow is well-formed");
    wf.states[1] = State {
        terminal: Some(Terminal { outcome: Outcome::Success, message: String::new() }),
        ..wf.states[1].clone()
    };
    wf
}

impl Library {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        // Absolute, so paths reported by the watcher compare equal to ours.
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        let skills = dir.parent().map_or_else(|| dir.join("skills"), |p| p.join("skills"));
        Self { skills: std::fs::canonicalize(&skills).unwrap_or(skills), dir }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The skills folder (it may not exist yet).
    pub fn skills_dir(&self) -> &Path {
        &self.skills
    }

    /// The id of a path inside either folder, if it is a workflow or skill file there.
    pub fn id_of(&self, path: &Path) -> Option<String> {
        let name = path.file_name()?.to_str()?;
        let file = name.ends_with(".json") && !name.starts_with('.');
        let parent = path.parent()?;
        match () {
            _ if file && parent == self.dir => Some(name.to_owned()),
            _ if file && parent == self.skills => Some(format!("{SKILLS}{name}")),
            _ => None,
        }
    }

    /// The folder an id's file is in, and its name there (not checked).
    pub(crate) fn folder_of<'a>(&self, id: &'a str) -> (&Path, &'a str) {
        match id.strip_prefix(SKILLS) {
            Some(name) => (&self.skills, name),
            None => (&self.dir, id),
        }
    }

    fn path(&self, id: &str) -> Result<PathBuf> {
        let (dir, name) = self.folder_of(id);
        if !plain_file_name(name) {
            return Err(Error::NotFound(id.to_owned()));
        }
        Ok(dir.join(name))
    }

    /// `new_name` in the same folder as `id`.
    pub(crate) fn sibling(id: &str, new_name: String) -> String {
        if id.starts_with(SKILLS) { format!("{SKILLS}{new_name}") } else { new_name }
    }

    /// The path of an existing workflow file, for running it.
    pub fn file(&self, id: &str) -> Result<PathBuf> {
        self.existing(id)
    }

    pub(crate) fn existing(&self, id: &str) -> Result<PathBuf> {
        let path = self.path(id)?;
        if !path.is_file() {
            return Err(Error::NotFound(id.to_owned()));
        }
        Ok(path)
    }

    /// The workflows, then the skills (a missing skills folder has none).
    pub fn list(&self) -> Result<Vec<WorkflowEntry>> {
        let mut entries = Vec::new();
        let skills = std::fs::read_dir(&self.skills).into_iter().flatten();
        for item in std::fs::read_dir(&self.dir)?.chain(skills) {
            let path = item?.path();
            let Some(id) = self.id_of(&path) else { continue };
            match self.entry(&id) {
                Ok(entry) => entries.push(entry),
                // A folder, a named pipe or a broken link named `*.json` is no workflow file
                // (nor one removed since the folder was read): one never hides the others.
                Err(Error::NotFound(_)) => {}
                Err(e) => return Err(e),
            }
        }
        entries.sort_by(|a, b| {
            (a.skill, a.name.to_lowercase()).cmp(&(b.skill, b.name.to_lowercase())).then(a.id.cmp(&b.id))
        });
        Ok(entries)
    }

    pub(crate) fn entry(&self, id: &str) -> Result<WorkflowEntry> {
        let path = self.existing(id)?;
        let modified_ms = std::fs::metadata(&path)?
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_millis() as i64);
        let opened = self.open(id)?;
        let stem = id.trim_start_matches(SKILLS).trim_end_matches(".json").to_owned();
        let skill = id.starts_with(SKILLS);
        Ok(match opened.workflow {
            Some(wf) => WorkflowEntry {
                id: id.to_owned(),
                name: wf.name,
                states: wf.states.len() as u32,
                modified_ms,
                error: None,
                skill,
            },
            None => {
                let error = opened.diagnostics.first().map(placed);
                WorkflowEntry { id: id.to_owned(), name: stem, states: 0, modified_ms, error, skill }
            }
        })
    }

    /// Reads a file for the editor. A file that is a workflow but does not validate still
    /// opens (with its diagnostics), so it can be fixed here; one that cannot be read as a
    /// workflow (too large, not UTF-8, unreadable) opens as no workflow, with why.
    pub fn open(&self, id: &str) -> Result<OpenedWorkflow> {
        let path = self.existing(id)?;
        let text = match read_workflow_text(&path) {
            Ok(text) => text,
            Err(unreadable) => {
                let why = Diagnostic {
                    severity: Severity::Error,
                    file: id.to_owned(),
                    line: 1,
                    column: 1,
                    path: String::new(),
                    message: unreadable.message,
                    help: Some(unreadable.help),
                };
                return Ok(OpenedWorkflow {
                    id: id.to_owned(),
                    workflow: None,
                    hash: String::new(),
                    diagnostics: vec![why],
                });
            }
        };
        let hash = content_hash(text.as_bytes());
        let stem = id.trim_start_matches(SKILLS).trim_end_matches(".json");
        let checked = load_str(&text, id, stem);
        let (workflow, mut diagnostics) = match checked {
            Ok(loaded) => (Some(loaded.workflow), loaded.warnings.0),
            // Structurally a workflow but semantically wrong: open it to be fixed.
            Err(diagnostics) => (serde_json::from_str::<Workflow>(without_bom(&text)).ok(), diagnostics.0),
        };
        if let Some(workflow) = &workflow {
            diagnostics.extend(self.skill_problems(workflow, &path));
        }
        Ok(OpenedWorkflow { id: id.to_owned(), workflow, hash, diagnostics })
    }

    /// Every finding of the validator for a workflow as the editor holds it.
    pub fn validate(&self, workflow: &Value) -> Vec<Diagnostic> {
        let text = serde_json::to_string_pretty(workflow).unwrap_or_default();
        let name = workflow.get("name").and_then(Value::as_str).unwrap_or("workflow");
        match load_str(&text, name, name) {
            Ok(loaded) => {
                let mut found = loaded.warnings.0;
                found.extend(self.skill_problems(&loaded.workflow, Path::new(name)));
                found
            }
            Err(diagnostics) => diagnostics.0,
        }
    }

    /// What is wrong with the workflow's `use_skill` actions, against the skills folder.
    fn skill_problems(&self, workflow: &Workflow, file: &Path) -> Vec<Diagnostic> {
        if workflow.skills_used().is_empty() {
            return Vec::new();
        }
        match statewright_workflow::skills::load_skills(workflow, file, Some(&self.skills)) {
            Ok(_) => Vec::new(),
            Err(problems) => problems.0,
        }
    }

    /// Writes a workflow in the native format, into the file's own layout where it has one
    /// (only what changed changes). With `expected_hash`, refuses when the file on disk is no
    /// longer the one the editor opened.
    pub fn save(&self, id: &str, workflow: &Value, expected_hash: Option<&str>) -> Result<SaveResult> {
        let path = self.path(id)?;
        let typed: Workflow = serde_json::from_value(workflow.clone()).map_err(|e| Error::Invalid(e.to_string()))?;
        // A folder or a named pipe under a workflow's name is not written over (nor read); a
        // link to nothing goes on, for the write to refuse it saying so.
        let dangling = path.symlink_metadata().is_ok_and(|m| m.is_symlink()) && !path.exists();
        if path.symlink_metadata().is_ok() && !path.is_file() && !dangling {
            return Err(Error::NotFound(id.to_owned()));
        }
        let current = match read_workflow_text(&path) {
            Ok(text) => Some(text),
            Err(e) if e.missing => None,
            Err(e) => return Err(Error::Invalid(format!("{id}: {}", e.message))),
        };
        if let (Some(expected), Some(current)) = (expected_hash, &current)
            && content_hash(current.as_bytes()) != expected
        {
            return Err(Error::Conflict(id.to_owned()));
        }
        let text = match &current {
            Some(before) => to_native_json_preserving(before, &typed),
            None => to_native_json(&typed),
        };
        write_workflow_text(&path, &text)?;
        let diagnostics = match load_str(&text, id, id.trim_end_matches(".json")) {
            Ok(loaded) => {
                let mut found = loaded.warnings.0;
                found.extend(self.skill_problems(&loaded.workflow, &path));
                found
            }
            Err(diagnostics) => diagnostics.0,
        };
        Ok(SaveResult { hash: content_hash(text.as_bytes()), diagnostics })
    }

    fn create_file(&self, id: &str, workflow: &Workflow) -> Result<WorkflowEntry> {
        self.create_new(id, to_native_json(workflow).as_bytes())
    }

    /// A new file with these bytes; never overwrites one.
    pub(crate) fn create_new(&self, id: &str, bytes: &[u8]) -> Result<WorkflowEntry> {
        let path = self.path(id)?;
        // `create_new` makes the existence check and the creation one step.
        let mut file =
            std::fs::OpenOptions::new().write(true).create_new(true).open(&path).map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => Error::Exists(id.to_owned()),
                _ => Error::Io(e),
            })?;
        std::io::Write::write_all(&mut file, bytes)?;
        self.entry(id)
    }

    /// The file a workflow named `name` goes to (it may exist: a recording merges into it).
    pub fn file_for_name(&self, name: &str) -> Result<(String, PathBuf)> {
        let id = file_name_for(name)?;
        let path = self.dir().join(&id);
        Ok((id, path))
    }

    /// A new workflow file named after `name`, with a start and a terminal state.
    pub fn create(&self, name: &str) -> Result<WorkflowEntry> {
        let id = file_name_for(name)?;
        self.create_file(&id, &starter(name.trim()))
    }

    /// A copy of a workflow under a new name.
    pub fn duplicate(&self, id: &str, name: &str) -> Result<WorkflowEntry> {
        let mut wf = self.open(id)?.workflow.ok_or_else(|| Error::Invalid(format!("`{id}` is not a workflow")))?;
        wf.name = name.trim().to_owned();
        self.create_file(&Self::sibling(id, file_name_for(name)?), &wf)
    }

    /// Renames a workflow: its `name` and its file. A workflow file that is a symbolic link
    /// stays one: the link is renamed and the file it leads to gets the new `name`.
    pub fn rename(&self, id: &str, name: &str) -> Result<WorkflowEntry> {
        let new_id = Self::sibling(id, file_name_for(name)?);
        let old_path = self.existing(id)?;
        let mut wf = self.open(id)?.workflow.ok_or_else(|| Error::Invalid(format!("`{id}` is not a workflow")))?;
        wf.name = name.trim().to_owned();
        let before = read_workflow_text(&old_path).map_err(|e| Error::Invalid(format!("{id}: {}", e.message)))?;
        let text = to_native_json_preserving(&before, &wf);
        if new_id == id {
            write_workflow_text(&old_path, &text)?;
            return self.entry(id);
        }
        if !std::fs::symlink_metadata(&old_path)?.is_symlink() {
            let entry = self.create_file(&new_id, &wf)?;
            std::fs::remove_file(old_path)?;
            return Ok(entry);
        }
        let new_path = self.link_like(&old_path, &new_id)?;
        if let Err(e) = write_workflow_text(&new_path, &text) {
            let _ = std::fs::remove_file(&new_path);
            return Err(e.into());
        }
        std::fs::remove_file(old_path)?;
        self.entry(&new_id)
    }

    /// A symbolic link for `id` that says what `link` says (a relative one still leads to the
    /// same file from the same folder); never overwrites: a taken name is [`Error::Exists`].
    pub(crate) fn link_like(&self, link: &Path, id: &str) -> Result<PathBuf> {
        let path = self.path(id)?;
        let to = std::fs::read_link(link)?;
        #[cfg(unix)]
        let made = std::os::unix::fs::symlink(&to, &path);
        #[cfg(windows)]
        let made = std::os::windows::fs::symlink_file(&to, &path);
        made.map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => Error::Exists(id.to_owned()),
            _ => Error::Io(e),
        })?;
        Ok(path)
    }
}
