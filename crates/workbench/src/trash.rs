//! The trash: deleting a workflow or skill moves its file, never removes it, into `.trash/`
//! inside its own folder (`workflows/.trash/`, `skills/.trash/`), so the move is a rename
//! within one file system, and the folder's listing and watcher pass the hidden folder over.
//!
//! A file's name in the trash records where it came from and when it left:
//! `<milliseconds since the epoch>-<its file name>` (`1718000000000-demo-shop.json`), so no
//! index can disagree with the files. Its trash id is that name, behind `skills/` for a
//! skill's. Restoring writes the file back under the name it had, or under a new one (the
//! workflow's `name` then follows, as in a rename), and never overwrites a file: a name that
//! is taken is [`Error::Exists`], and the file stays in the trash.
//!
//! The trash is only ever a folder of its own: a `.trash` that is a file, a named pipe or a
//! symbolic link (even to a folder: it could lead out of the workflows folder, and a
//! workflow moved there would leave it) is [`Error::TrashNotAFolder`] for deleting, listing
//! and restoring alike, and is left as it is. A workflow file that is a symbolic link goes to
//! the trash as the link (its file stays where it is kept) and comes back as the link (under
//! a new name, as a file of its own with the workflow's content); a link whose file is gone
//! is [`statewright_workflow::Unwritable::DanglingLink`] and stays in the trash.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use statewright_workflow::{
    MAX_INPUT_BYTES, Workflow, read_input_bytes, read_workflow_text, to_native_json_preserving, what_is_at,
};

use crate::ipc::{TrashEntry, WorkflowEntry};
use crate::library::{SKILLS, file_name_for, plain_file_name};
use crate::{Error, Library, Result};

/// The trash folder's name inside the workflows and skills folders.
const TRASH: &str = ".trash";

/// A trash file's name taken apart: `1718000000000-demo-shop.json` → when, and the name it
/// had. `None` for anything else (including every name that could lead out of the trash).
fn parse_trash_name(name: &str) -> Option<(i64, &str)> {
    let (ms, original) = name.split_once('-')?;
    let digits = !ms.is_empty() && ms.chars().all(|c| c.is_ascii_digit());
    if !digits || !plain_file_name(original) {
        return None;
    }
    Some((ms.parse().ok()?, original))
}

/// The trash folder of `folder`: `None` when there is none yet (made, with `create`), and
/// [`Error::TrashNotAFolder`] when `.trash` is anything but a folder.
fn trash_of(folder: &Path, create: bool) -> Result<Option<PathBuf>> {
    let trash = folder.join(TRASH);
    match std::fs::symlink_metadata(&trash) {
        Ok(metadata) if metadata.is_dir() => Ok(Some(trash)),
        Ok(_) => Err(Error::TrashNotAFolder { what: what_is_at(&trash), path: trash }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && create => match std::fs::create_dir(&trash) {
            Ok(()) => Ok(Some(trash)),
            // Made (or something put there) since it was looked at: look again.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => trash_of(folder, false),
            Err(e) => Err(e.into()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The file whose content a trash entry holds: the entry itself, or for a symbolic link the
/// file it leads to from the folder it was deleted from (a relative link was written there).
fn content_of(entry: &Path) -> PathBuf {
    match (std::fs::read_link(entry), entry.parent().and_then(Path::parent)) {
        (Ok(to), Some(folder)) => folder.join(to),
        _ => entry.to_owned(),
    }
}

impl Library {
    /// Moves a workflow or skill file into its folder's trash; `now` is the time of deletion
    /// its trash name records.
    pub fn delete(&self, id: &str, now: SystemTime) -> Result<TrashEntry> {
        let path = self.existing(id)?;
        let (folder, file) = self.folder_of(id);
        let trash = trash_of(folder, true)?.ok_or_else(|| Error::NotFound(id.to_owned()))?;
        let mut ms = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
        // The same file deleted twice in one millisecond (deleted, recreated, deleted): both
        // copies are kept, the second a millisecond later.
        while trash.join(format!("{ms}-{file}")).exists() {
            ms += 1;
        }
        let name = format!("{ms}-{file}");
        std::fs::rename(&path, trash.join(&name))?;
        self.trash_entry(&Self::sibling(id, name))
    }

    /// What the trashes of both folders hold, the latest deleted first.
    pub fn list_trash(&self) -> Result<Vec<TrashEntry>> {
        let mut entries = Vec::new();
        for (folder, prefix) in [(self.dir(), ""), (self.skills_dir(), SKILLS)] {
            // None: nothing was ever deleted there.
            let Some(trash) = trash_of(folder, false)? else { continue };
            for item in std::fs::read_dir(trash)? {
                let item = item?;
                let name = item.file_name();
                let Some(name) = name.to_str() else { continue };
                let kind = item.file_type()?;
                if (kind.is_file() || kind.is_symlink()) && parse_trash_name(name).is_some() {
                    entries.push(self.trash_entry(&format!("{prefix}{name}"))?);
                }
            }
        }
        entries.sort_by(|a, b| b.deleted_ms.cmp(&a.deleted_ms).then_with(|| a.id.cmp(&b.id)));
        Ok(entries)
    }

    /// Puts a file of the trash back under the id it had or, given `name`, under the file
    /// that name makes in the same folder, with the workflow's `name` set to it. Never
    /// overwrites: a taken name is [`Error::Exists`] and the file stays in the trash.
    pub fn restore(&self, trash_id: &str, name: Option<&str>) -> Result<WorkflowEntry> {
        let (path, _, original) = self.in_trash(trash_id)?;
        let link = std::fs::symlink_metadata(&path)?.is_symlink();
        // A link whose file is gone would come back leading nowhere: it waits in the trash
        // until its file is put back.
        if link && !content_of(&path).exists() {
            let target = std::fs::read_link(&path)?;
            return Err(statewright_workflow::Unwritable::DanglingLink { link: path, target }.into());
        }
        if name.is_none() && link {
            self.link_like(&path, &original)?;
            std::fs::remove_file(&path)?;
            return self.entry(&original);
        }
        // Read bounded: a named pipe put in the trash is refused, not waited on for ever.
        let bytes = read_input_bytes(&content_of(&path), "workflow file", MAX_INPUT_BYTES)
            .map_err(|e| Error::Invalid(format!("{trash_id}: {}", e.message)))?;
        let (id, bytes) = match name {
            None => (original, bytes),
            Some(name) => {
                let id = Self::sibling(&original, file_name_for(name)?);
                let before = String::from_utf8_lossy(&bytes).into_owned();
                let mut workflow: Workflow = serde_json::from_str(&before).map_err(|e| {
                    Error::Invalid(format!("`{original}` cannot take a new name (restore it as it was): {e}"))
                })?;
                workflow.name = name.trim().to_owned();
                (id, to_native_json_preserving(&before, &workflow).into_bytes())
            }
        };
        let entry = self.create_new(&id, &bytes)?;
        std::fs::remove_file(&path)?;
        Ok(entry)
    }

    /// The file a trash id names, when it was deleted and the id it had.
    fn in_trash(&self, trash_id: &str) -> Result<(PathBuf, i64, String)> {
        let (folder, name) = self.folder_of(trash_id);
        let missing = || Error::NotInTrash(trash_id.to_owned());
        let (ms, original) = parse_trash_name(name).ok_or_else(missing)?;
        let path = trash_of(folder, false)?.ok_or_else(missing)?.join(name);
        let kind = std::fs::symlink_metadata(&path).map_err(|_| missing())?.file_type();
        if !(kind.is_file() || kind.is_symlink()) {
            return Err(missing());
        }
        Ok((path, ms, Self::sibling(trash_id, original.to_owned())))
    }

    fn trash_entry(&self, trash_id: &str) -> Result<TrashEntry> {
        let (path, deleted_ms, original) = self.in_trash(trash_id)?;
        // The workflow's own name when the file has one (a CliGent array or a broken file
        // has none: its file's stem stands in).
        let named = read_workflow_text(&content_of(&path)).ok().and_then(|text| {
            let value: serde_json::Value = serde_json::from_str(&text).ok()?;
            value.get("name")?.as_str().map(str::to_owned)
        });
        let stem = original.trim_start_matches(SKILLS).trim_end_matches(".json").to_owned();
        Ok(TrashEntry {
            id: trash_id.to_owned(),
            skill: original.starts_with(SKILLS),
            name: named.unwrap_or(stem),
            original,
            deleted_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::parse_trash_name;

    #[test]
    fn only_a_time_and_a_plain_file_name_make_a_trash_name() {
        assert_eq!(parse_trash_name("1718000000000-demo-shop.json"), Some((1718000000000, "demo-shop.json")));
        for bad in
            ["demo-shop.json", "-x.json", "12-", "12-.x.json", "12-a/b.json", "12-..\\x.json", "1a-x.json", "12-x.txt"]
        {
            assert_eq!(parse_trash_name(bad), None, "{bad}");
        }
    }
}
