//! Pruning runs: their rows, their run folders, and the stored files nothing references
//! any more.

use std::collections::HashSet;
use std::path::{Component, Path};

use serde::Serialize;

use crate::{Error, Result, Store};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PruneBy {
    /// Keep the N most recent runs.
    Keep(usize),
    /// Delete runs started before this Unix time in milliseconds.
    Before(i64),
}

impl PruneBy {
    /// Runs started before `date`: a day (`2026-01-31`, from midnight UTC) or an RFC 3339
    /// time (`2026-01-31T12:00:00`, with `Z` or an offset such as `+05:00`; UTC without
    /// either). `None` when it is neither.
    pub fn before(date: &str) -> Option<PruneBy> {
        unix_ms(date).map(PruneBy::Before)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PruneReport {
    pub runs: usize,
    pub files: usize,
    /// Run folders (`<runs>/<run_id>/`) deleted with their runs.
    pub folders: usize,
}

/// Folders of a runs folder that are the store's own, never a run's.
const NOT_RUN_FOLDERS: &[&str] = &["screens", "locks"];

impl Store {
    /// Deletes finished runs (never running ones), each one's run folder in the store's
    /// own folder (the runs folder, unless the database was put elsewhere: see
    /// [`Store::prune_in`]), then every screenshot or artifact file that no remaining row
    /// references.
    pub fn prune(&self, by: PruneBy) -> Result<PruneReport> {
        let runs_dir = self.root.clone();
        self.prune_runs(by, runs_dir.as_deref())
    }

    /// [`Store::prune`] for a store whose run folders are in `runs_dir`.
    pub fn prune_in(&self, by: PruneBy, runs_dir: &Path) -> Result<PruneReport> {
        self.prune_runs(by, Some(runs_dir))
    }

    fn prune_runs(&self, by: PruneBy, runs_dir: Option<&Path>) -> Result<PruneReport> {
        // Live runs are never pruned: one waiting for a person still needs its row and review.
        let active = "('running', 'pending', 'needs_human_review')";
        let tx = self.immediate()?;
        let ids: Vec<String> = {
            let (sql, bound) = match by {
                PruneBy::Keep(n) => (
                    format!(
                        "DELETE FROM runs WHERE status NOT IN {active} AND id NOT IN
                           (SELECT id FROM runs ORDER BY started_ms DESC, id DESC LIMIT ?1) RETURNING id"
                    ),
                    n as i64,
                ),
                PruneBy::Before(ms) => {
                    (format!("DELETE FROM runs WHERE status NOT IN {active} AND started_ms < ?1 RETURNING id"), ms)
                }
            };
            let mut stmt = tx.prepare(&sql).map_err(|e| self.err(e))?;
            stmt.query_map([bound], |r| r.get(0))
                .map_err(|e| self.err(e))?
                .collect::<rusqlite::Result<_>>()
                .map_err(|e| self.err(e))?
        };
        tx.execute("DELETE FROM workflows WHERE hash NOT IN (SELECT workflow_hash FROM runs)", [])
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        // A run folder's step images are hard links to the store's files: until the folder
        // goes too, deleting those files frees no space.
        let mut folders = 0;
        let mut failed = None;
        for id in runs_dir.map_or(&[][..], |_| &ids[..]) {
            match remove_run_folder(runs_dir.expect("checked above"), id) {
                Ok(true) => folders += 1,
                Ok(false) => {}
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        let files = self.collect_garbage()?;
        match failed {
            Some(e) => Err(e),
            None => Ok(PruneReport { runs: ids.len(), files, folders }),
        }
    }

    /// Deletes files under `screens/` that no row references. Holds the write lock while it
    /// looks, so no recorder is between writing a file and referencing it.
    pub fn collect_garbage(&self) -> Result<usize> {
        let tx = self.immediate()?;
        let mut referenced = HashSet::new();
        for sql in [
            "SELECT DISTINCT screenshot FROM steps WHERE screenshot IS NOT NULL",
            "SELECT DISTINCT artifact_path FROM actions WHERE artifact_path IS NOT NULL",
        ] {
            let mut stmt = tx.prepare(sql).map_err(|e| self.err(e))?;
            for rel in stmt.query_map([], |r| r.get::<_, String>(0)).map_err(|e| self.err(e))? {
                referenced.insert(rel.map_err(|e| self.err(e))?);
            }
        }
        let deleted = match &self.root {
            Some(root) => remove_unreferenced(root, &referenced)?,
            None => {
                let mut blobs = self.blobs.lock().unwrap_or_else(|e| e.into_inner());
                let before = blobs.len();
                blobs.retain(|rel, _| referenced.contains(rel));
                before - blobs.len()
            }
        };
        tx.commit().map_err(|e| self.err(e))?;
        Ok(deleted)
    }
}

/// Deletes `runs_dir/<id>/` when it is a folder of its own there: an id that is not one
/// plain name, or names one of the store's folders, is left alone, and so is a symlink
/// (removing it would follow it out of the runs folder or leave its target behind anyway).
/// Whether a folder was deleted.
fn remove_run_folder(runs_dir: &Path, id: &str) -> Result<bool> {
    let plain = matches!(Path::new(id).components().collect::<Vec<_>>()[..], [Component::Normal(name)] if name == id);
    if !plain || id.starts_with('.') || NOT_RUN_FOLDERS.contains(&id) {
        return Ok(false);
    }
    let folder = runs_dir.join(id);
    match std::fs::symlink_metadata(&folder) {
        Ok(meta) if meta.is_dir() => {
            // Does not follow symlinks inside the folder either: it removes the links.
            std::fs::remove_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

fn remove_unreferenced(root: &Path, referenced: &HashSet<String>) -> Result<usize> {
    let screens = root.join("screens");
    let Ok(dirs) = std::fs::read_dir(&screens) else { return Ok(0) };
    let mut deleted = 0;
    for dir in dirs.flatten() {
        let dir_path = dir.path();
        if !dir_path.is_dir() {
            continue;
        }
        let dir_name = dir.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(&dir_path).map_err(|e| Error::io(&dir_path, e))?.flatten() {
            let rel = format!("screens/{dir_name}/{}", file.file_name().to_string_lossy());
            if !referenced.contains(&rel) {
                let path = file.path();
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
                deleted += 1;
            }
        }
        let _ = std::fs::remove_dir(&dir_path); // only when empty
    }
    Ok(deleted)
}

/// `text` as Unix milliseconds, the store's time base (see [`PruneBy::before`]).
fn unix_ms(text: &str) -> Option<i64> {
    // RFC 3339 lets `T` and `Z` be lower case.
    let text = text.trim().to_ascii_uppercase();
    if text.len() == "2026-01-31".len() {
        return unix_ms(&format!("{text}T00:00:00Z"));
    }
    // An offset says how far the written time is ahead of UTC: `10:00+05:00` is 05:00Z.
    // (The date's own dashes sit before the time, out of reach of this suffix.)
    let (time, ahead_ms) = match text.len().checked_sub("+05:00".len()).map(|at| text.split_at(at)) {
        Some((time, offset)) if time.len() > "2026-01-31T".len() && offset.starts_with(['+', '-']) => {
            let (hours, minutes) = offset[1..].split_once(':')?;
            let valid = |s: &str, max: i64| {
                s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit()) && s.parse::<i64>().is_ok_and(|n| n <= max)
            };
            // `Z` and an offset both say the zone: only one may.
            if time.ends_with('Z') || !(valid(hours, 23) && valid(minutes, 59)) {
                return None;
            }
            let ms = (hours.parse::<i64>().ok()? * 60 + minutes.parse::<i64>().ok()?) * 60_000;
            (time, if offset.starts_with('-') { -ms } else { ms })
        }
        _ => (text.as_str(), 0),
    };
    let written = humantime::parse_rfc3339_weak(time).ok()?;
    let ms = written.duration_since(std::time::UNIX_EPOCH).ok()?.as_millis() as i64;
    Some(ms - ahead_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEN_UTC: i64 = 1_795_860_000_000; // 2026-11-28T10:00:00Z

    #[test]
    fn a_date_or_an_rfc3339_time_with_or_without_an_offset_is_utc_milliseconds() {
        for (text, ms) in [
            ("2026-11-28", TEN_UTC - 10 * 3_600_000),
            ("2026-11-28T10:00:00", TEN_UTC),
            ("2026-11-28 10:00:00", TEN_UTC),
            ("2026-11-28T10:00:00Z", TEN_UTC),
            ("2026-11-28t10:00:00z", TEN_UTC),
            ("2026-11-28T10:00:00.250Z", TEN_UTC + 250),
            ("2026-11-28T10:00:00+00:00", TEN_UTC),
            ("2026-11-28T10:00:00+05:00", TEN_UTC - 5 * 3_600_000),
            ("2026-11-28T10:00:00-03:30", TEN_UTC + 210 * 60_000),
            ("2026-11-28T10:00:00.5+01:00", TEN_UTC + 500 - 3_600_000),
            (" 2026-11-28T10:00:00Z ", TEN_UTC),
        ] {
            assert_eq!(PruneBy::before(text), Some(PruneBy::Before(ms)), "{text}");
        }
        for text in [
            "",
            "yesterday",
            "2026-11-28T10:00",
            "2026-11-28T10:00:00+5:00",
            "2026-11-28T10:00:00+05:60",
            "2026-11-28T10:00:00+24:00",
            "2026-11-28T10:00:00Z+05:00",
            "2026-13-01",
        ] {
            assert_eq!(PruneBy::before(text), None, "{text}");
        }
    }
}
