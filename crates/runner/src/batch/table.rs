//! The results table, as CSV and JSON, read back by the next go with the journal beside it
//! ([`super::journal`]: the rows started and ended since the table was last rewritten).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Take};
use std::path::{Path, PathBuf};

pub(crate) use self::read::{Rows, TableFile};
pub(crate) use self::write::{Columns, Entry, Table, being_written, write_table};
use super::RowResult;
use crate::error::RunError;

mod read;
mod write;

/// Every row of the JSON table at `path` with the journal beside it read over them, whole, in
/// their rows' order: the judge grades them all.
pub(crate) fn whole_rows(path: &Path) -> Result<Vec<RowResult>, RunError> {
    let mut rows = BTreeMap::new();
    if let Some(reader) = open_written(path, "results table")? {
        let mut table = Rows::new(reader);
        while let Some((_, row)) = table.next_row().map_err(|e| not_a_table(path, &e))? {
            rows.insert(row.row, row);
        }
    }
    super::journal::read_over(path, |row| {
        rows.insert(row.row, row);
    })?;
    Ok(rows.into_values().collect())
}

/// The table at `path` is not one this program wrote, for `why`.
pub(super) fn not_a_table(path: &Path, why: &str) -> RunError {
    RunError::invalid(
        "results",
        format!("{}: not a results table of statewright batch ({why}); move it away to start afresh", path.display()),
    )
}

/// The file at `path` this program wrote, to read (none when there is none), opened as every
/// input file is: a pipe or a folder at the path is the person's to move (exit 2), not
/// something to wait on or fail the batch's environment over.
pub(super) fn open_written(path: &Path, what: &str) -> Result<Option<BufReader<Take<File>>>, RunError> {
    let max = statewright_workflow::MAX_WRITTEN_BYTES;
    match statewright_workflow::open_input(path, what, max) {
        Ok(file) => Ok(Some(BufReader::with_capacity(1 << 16, std::io::Read::take(file, max)))),
        Err(e) if e.missing => Ok(None),
        Err(e) => Err(RunError::invalid("results", format!("{}: {}", path.display(), e.message))),
    }
}

/// The files a batch writes for the results `csv`, each with what it is: the CSV table, the
/// JSON table beside it, the file each is written to before its rename, the journal, the lock.
pub(super) fn written(csv: &Path) -> [(&'static str, PathBuf); 6] {
    [
        ("CSV results table", csv.to_owned()),
        ("JSON results table", csv.with_extension("json")),
        ("table being written", being_written(csv)),
        ("JSON table being written", being_written(&csv.with_extension("json"))),
        ("results journal", super::journal::path(csv)),
        ("lock", csv.with_extension("lock")),
    ]
}

/// The results must not overwrite the data (`--data orders.csv --out orders.csv`), the
/// CSV and the JSON table must be two files (`--out orders.json` would make them one, the
/// JSON written over the CSV), and each must be a file: a table is written by a rename,
/// which would replace a pipe or a device (`--out /dev/null`: /dev/null itself, for a batch
/// run as root) and fails on a folder only once the rows have run. Refused before anything
/// is written.
pub(super) fn check_places(csv: &Path, data: Option<&Path>) -> Result<(), RunError> {
    // Said of the folder: the first file to fail there would be the lock, a file the
    // person never named.
    if let Some(folder) = csv.parent().filter(|f| !f.as_os_str().is_empty() && !f.is_dir()) {
        let what = match statewright_workflow::what_is_at(folder) {
            nothing if nothing == "nothing" => "does not exist: make it, or".to_owned(),
            other => format!("is {other}, not a folder:"),
        };
        return Err(RunError::invalid(
            "results",
            format!("the folder {} of the results {what} give the results another place (--out)", folder.display()),
        ));
    }
    let files = written(csv);
    for (i, (what, path)) in files.iter().enumerate() {
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(RunError::invalid(
                "results",
                format!(
                    "the {what} {} is {}, not a regular file: give the results a file of their own (--out)",
                    path.display(),
                    statewright_workflow::what_is_at(path)
                ),
            ));
        }
        if let Some(data) = data.filter(|data| same_file(path, data)) {
            return Err(RunError::invalid(
                "results",
                format!(
                    "the {what} {} would overwrite the data {}: give the results another file (--out)",
                    path.display(),
                    data.display()
                ),
            ));
        }
        if let Some((other, _)) = files[..i].iter().find(|(_, earlier)| same_file(path, earlier)) {
            return Err(RunError::invalid(
                "results",
                format!(
                    "the results {} would make the {other} and the {what} one file, {}: give the results a \
                     path ending in .csv (the JSON table goes beside it)",
                    csv.display(),
                    path.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Whether two paths are one file: the same file on disk (through a link, another spelling,
/// a case-insensitive file system), or the same place once made absolute when one of them
/// is not there yet.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => absolute(a) == absolute(b),
    }
}

/// A path made absolute with its links resolved, as far as it exists.
fn absolute(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(folder), Some(name)) if !folder.as_os_str().is_empty() => absolute(folder).join(name),
        (Some(_), Some(name)) => absolute(Path::new(".")).join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_that_would_overwrite_the_data_or_be_one_file_with_the_json_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("orders.csv");
        std::fs::write(&data, "seed\n1\n").unwrap();
        let refused = |csv: &Path, data: &Path| check_places(csv, Some(data)).unwrap_err().message;
        // The data itself, however spelt.
        let spelt = dir.path().join(".").join("orders.csv");
        assert!(refused(&spelt, &data).contains("the CSV results table"), "{}", refused(&spelt, &data));
        assert!(refused(&spelt, &data).ends_with("give the results another file (--out)"));
        std::os::unix::fs::symlink(&data, dir.path().join("link.csv")).unwrap();
        assert!(check_places(&dir.path().join("link.csv"), Some(&data)).is_err(), "through a link");
        // JSON data and CSV results: the JSON table would be written over the data.
        let json_data = dir.path().join("orders.json");
        std::fs::write(&json_data, "[]").unwrap();
        let message = refused(&data, &json_data);
        assert!(message.starts_with("the JSON results table"), "{message}");
        // `--out orders.results.json`: both tables one file, data or not.
        let one = dir.path().join("orders.results.json");
        let message = check_places(&one, None).unwrap_err().message;
        assert!(message.contains("would make the CSV results table and the JSON results table one file"), "{message}");
        assert!(check_places(&dir.path().join("orders.results.lock"), None).is_err());
        // The journal is one of the files too: neither the data nor one with a table.
        let journal_data = dir.path().join("orders.results.journal");
        std::fs::write(&journal_data, "seed\n1\n").unwrap();
        let message = refused(&dir.path().join("orders.results.csv"), &journal_data);
        assert!(message.starts_with("the results journal"), "{message}");
        let message = check_places(&journal_data, None).unwrap_err().message;
        assert!(message.contains("the CSV results table and the results journal one file"), "{message}");
        // The usual places are fine, and so is a path without an extension; a folder that
        // is not there is named.
        check_places(&dir.path().join("orders.results.csv"), Some(&data)).unwrap();
        check_places(&dir.path().join("results"), Some(&data)).unwrap();
        let message = check_places(&dir.path().join("nowhere/yet/results"), Some(&data)).unwrap_err().message;
        assert!(message.contains("nowhere/yet of the results does not exist"), "{message}");
    }
}
