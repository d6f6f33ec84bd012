//! The journal beside the results table (`orders.results.journal`): a JSON line per row as
//! its run starts (`running`, with its run id) and as it ends, appended. Rewriting both
//! tables at every start and end, as a batch did before, wrote a table that grows with every
//! row twice per row: bytes in the square of the rows (a 10,000-row batch, tens of GB).
//!
//! The tables are rewritten from the rows in memory at the go's start and end, and in
//! between when the journal has grown as large as they are, or, at most once a second, to a
//! sixteenth of their size ([`LAG`]): a rewrite costs no more than a few times the journal
//! written since the one before, so a go writes bytes in proportion to its rows. After each
//! rewrite the journal starts empty; at the go's end it goes.
//!
//! A go killed outright (SIGKILL, a power cut) leaves the tables as last rewritten and the
//! journal with every row started or ended since: the next go, and `judge`, read the one and
//! then the other over it ([`read_over`]). The line being appended when the go was killed is
//! ignored: that row is as its line before said (its run under way, which the store
//! settles). The journal is written as the tables are, without waiting for the disk (what a
//! killed process wrote is the kernel's to keep).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::RowResult;
use super::table::{self, Columns, Table};
use crate::error::RunError;

/// While the rows changed since the last rewrite are fewer bytes than the tables, the tables
/// are rewritten no more than once a second, and only once the journal has reached this
/// fraction of them (1/LAG): each rewrite costs at most LAG times the journal it folds in.
const LAG: u64 = 16;

/// The journal beside the table at `table` (the CSV or the JSON one).
pub(crate) fn path(table: &Path) -> PathBuf {
    table.with_extension("journal")
}

/// The rows the journal beside `table` holds, in the order appended, each to `lay` over the
/// row of its number before it.
pub(super) fn read_over(table: &Path, mut lay: impl FnMut(RowResult)) -> Result<(), RunError> {
    let path = path(table);
    // A line at a time: a go killed just before a rewrite leaves a journal as large as the
    // tables.
    let Some(mut journal) = table::open_written(&path, "results journal")? else { return Ok(()) };
    let cannot = |e: std::io::Error| RunError::invalid("results", format!("{}: cannot read it: {e}", path.display()));
    let mut line = Vec::new();
    for i in 0.. {
        line.clear();
        if journal.read_until(b'\n', &mut line).map_err(cannot)? == 0 {
            break;
        }
        match serde_json::from_slice::<RowResult>(&line) {
            Ok(row) => lay(row),
            // The line being written when the go was killed.
            Err(_) if journal.fill_buf().map_err(cannot)?.is_empty() => {}
            Err(e) => {
                return Err(RunError::invalid(
                    "results",
                    format!(
                        "{}:{}: not a results journal of statewright batch ({e}); move it away to start afresh",
                        path.display(),
                        i + 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The record a go (a batch's or the judge's) keeps of its rows: both tables and the
/// journal beside them.
pub(crate) struct Record {
    csv: PathBuf,
    json: PathBuf,
    journal: File,
    journal_path: PathBuf,
    /// Bytes in the journal since the tables were rewritten, and in both tables then.
    journaled: u64,
    tables: u64,
    rewritten: Instant,
    /// Every byte this go has written to the tables and the journal.
    written: u64,
    /// The CSV table's columns when last written, with those of the rows noted since: most
    /// likely the next rewrite's, which reads each row once when they are.
    columns: Columns,
}

impl Record {
    /// Both tables with the rows of `results` there are (most likely with the CSV columns
    /// `guess`), and an empty journal.
    pub(crate) fn start<T: Table + ?Sized>(
        csv: &Path,
        json: &Path,
        results: &mut T,
        guess: &Columns,
    ) -> Result<Record, RunError> {
        let tables = table::write_table(csv, json, results, guess)?;
        let journal_path = path(csv);
        // Emptied only now that the tables hold what it held.
        let journal = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&journal_path)
            .and_then(|file| file.set_len(0).map(|()| file))
            .map_err(|e| cannot_write(&journal_path, e))?;
        Ok(Record {
            csv: csv.to_owned(),
            json: json.to_owned(),
            journal,
            journal_path,
            journaled: 0,
            tables: tables.bytes,
            rewritten: Instant::now(),
            written: tables.bytes,
            columns: tables.columns,
        })
    }

    /// The row `results[index]` has started or ended: in the journal at once, in the tables
    /// when their rewrite is due.
    pub(crate) fn note<T: Table + ?Sized>(&mut self, results: &mut T, index: usize) -> Result<(), RunError> {
        let line = {
            let Some(row) = results.row(index)? else { return Ok(()) };
            self.columns.add(&row.result);
            let mut line = row.line.into_owned();
            line.push(b'\n');
            line
        };
        // One write: a kill leaves the line whole or its start at the end, never half of it
        // between two others.
        self.journal.write_all(&line).map_err(|e| cannot_write(&self.journal_path, e))?;
        self.journaled += line.len() as u64;
        self.written += line.len() as u64;
        if self.journaled >= self.tables {
            self.rewrite(results)?;
        }
        Ok(())
    }

    /// Asked every second: the tables are brought up to date if they lag by a [`LAG`]th of
    /// their size, so a person watching a large batch sees them change.
    pub(crate) fn catch_up<T: Table + ?Sized>(&mut self, results: &mut T) -> Result<(), RunError> {
        let due = self.journaled > 0 && self.journaled * LAG >= self.tables;
        if due && self.rewritten.elapsed() >= Duration::from_secs(1) {
            self.rewrite(results)?;
        }
        Ok(())
    }

    /// The go is over: the tables hold every row (rewritten unless they did already), and
    /// the journal goes.
    pub(crate) fn finish<T: Table + ?Sized>(mut self, results: &mut T) -> Result<(), RunError> {
        if self.journaled > 0 || results.unnoted() {
            self.rewrite(results)?;
        }
        tracing::debug!("the results of this go took {} bytes written", self.written);
        remove(&self.csv)
    }

    fn rewrite<T: Table + ?Sized>(&mut self, results: &mut T) -> Result<(), RunError> {
        let tables = table::write_table(&self.csv, &self.json, results, &self.columns)?;
        (self.tables, self.columns) = (tables.bytes, tables.columns);
        self.written += self.tables;
        // Emptied only once the tables hold every row it did: a kill in between leaves
        // lines the tables hold already, read over them to the same rows.
        self.journal.set_len(0).map_err(|e| cannot_write(&self.journal_path, e))?;
        self.journaled = 0;
        self.rewritten = Instant::now();
        Ok(())
    }
}

/// The journal beside the tables of `table` goes, once they hold every row it held.
pub(super) fn remove(table: &Path) -> Result<(), RunError> {
    let path = path(table);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(RunError::environment("results", format!("cannot remove {}: {e}", path.display())))
        }
        _ => Ok(()),
    }
}

fn cannot_write(path: &Path, e: std::io::Error) -> RunError {
    RunError::environment("results", format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use indexmap::IndexMap;

    use super::*;

    fn row(row: usize, status: &str) -> RowResult {
        let values = IndexMap::from([("seed".to_owned(), row.to_string())]);
        RowResult { run_id: Some(format!("run-{row}")), ..RowResult::new(row, values, status, String::new()) }
    }

    fn line(row: &RowResult) -> String {
        serde_json::to_string(row).unwrap() + "\n"
    }

    #[test]
    fn the_bytes_a_batch_writes_for_its_results_grow_with_its_rows_not_their_square() {
        let dir = tempfile::tempdir().unwrap();
        let (csv, json) = (dir.path().join("orders.results.csv"), dir.path().join("orders.results.json"));
        let rows = 2000;
        let mut results: Vec<Option<RowResult>> = vec![None; rows];
        let mut record = Record::start(&csv, &json, &mut results, &Columns::default()).unwrap();
        let mut journaled = 0;
        for i in 0..rows {
            for status in ["running", "succeeded"] {
                results[i] = Some(row(i + 1, status));
                journaled += line(results[i].as_ref().unwrap()).len() as u64;
                record.note(&mut results, i).unwrap();
            }
        }
        let written = record.written;
        record.finish(&mut results).unwrap();
        // Each rewrite of the tables costs at most LAG times the journal since the one before
        // (and a table's row is a few times its journal line: pretty JSON, and CSV); the
        // whole table rewritten at every start and end wrote some 850 MB here.
        assert!(written < 32 * journaled, "{written} bytes written for {journaled} bytes of rows");
        let table: Vec<RowResult> = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        assert_eq!(table.len(), rows);
        assert!(table.iter().all(|r| r.status == "succeeded"));
        assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), rows + 1);
        assert!(!path(&csv).exists(), "the journal goes with the go's end");
    }

    #[test]
    fn the_journal_is_read_over_the_table_its_torn_last_line_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("orders.results.json");
        let mut rows = HashMap::from([(1, row(1, "succeeded"))]);
        let lay = |rows: &mut HashMap<usize, RowResult>| {
            read_over(&json, |row| {
                rows.insert(row.row, row);
            })
        };
        let started = line(&row(2, "running"));
        let ended = line(&row(2, "failed"));
        // Killed as it appended the end of row 2: the row is as its start said.
        std::fs::write(path(&json), format!("{started}{}", &ended[..ended.len() / 2])).unwrap();
        lay(&mut rows).unwrap();
        assert_eq!((rows[&1].status.as_str(), rows[&2].status.as_str()), ("succeeded", "running"));
        assert_eq!(rows[&2].run_id.as_deref(), Some("run-2"));
        // Whole, the later line wins.
        std::fs::write(path(&json), format!("{started}{ended}")).unwrap();
        lay(&mut rows).unwrap();
        assert_eq!(rows[&2].status, "failed");

        // A line that is no row, with more after it, is no journal this program wrote.
        std::fs::write(path(&json), format!("{started}not a row\n{ended}")).unwrap();
        let refused = lay(&mut rows).unwrap_err();
        assert_eq!(refused.kind, crate::error::RunErrorKind::Invalid);
        let said = format!("{}:2: not a results journal of statewright batch", path(&json).display());
        assert!(refused.message.starts_with(&said), "{}", refused.message);
        assert!(refused.message.ends_with("move it away to start afresh"), "{}", refused.message);
    }

    /// A go's rows that count how often one is read.
    struct Counted {
        rows: Vec<Option<RowResult>>,
        reads: usize,
    }

    impl Table for Counted {
        fn places(&self) -> usize {
            self.rows.len()
        }

        fn row(&mut self, place: usize) -> Result<Option<table::Entry<'_>>, RunError> {
            self.reads += 1;
            self.rows.row(place)
        }
    }

    #[test]
    fn a_rewrite_reads_each_row_once_and_none_when_nothing_changed_since() {
        let dir = tempfile::tempdir().unwrap();
        let (csv, json) = (dir.path().join("orders.results.csv"), dir.path().join("orders.results.json"));
        let tables = || (std::fs::read_to_string(&csv).unwrap(), std::fs::read_to_string(&json).unwrap());
        let mut results = Counted { rows: (1..=100).map(|n| Some(row(n, "succeeded"))).collect(), reads: 0 };
        results.rows.push(None);
        let guess = Columns::of(results.rows.iter().flatten());
        let mut record = Record::start(&csv, &json, &mut results, &guess).unwrap();
        assert_eq!(results.reads, 101, "each place once");
        // The row last in the data ends, having read what no row read before: a column of
        // the CSV table that its header must name.
        let read = IndexMap::from([("order_number".to_owned(), serde_json::json!("NW-1"))]);
        results.rows[100] = Some(RowResult { outputs: read, ..row(101, "succeeded") });
        record.note(&mut results, 100).unwrap();
        results.reads = 0;
        record.finish(&mut results).unwrap();
        assert_eq!(results.reads, 101, "each place once, the new column foreseen");
        let (csv_text, json_text) = tables();
        assert!(csv_text.starts_with("row,status,end_state,duration_ms,run_id,message,seed,order_number\n"));
        assert!(csv_text.ends_with("\n101,succeeded,,0,run-101,,101,NW-1\n"), "{csv_text}");
        let all: Vec<RowResult> = results.rows.iter().flatten().cloned().collect();
        assert_eq!(json_text, serde_json::to_string_pretty(&all).unwrap());

        // Columns not foreseen: the CSV table is written again, the same as when they are.
        results.reads = 0;
        let written = table::write_table(&csv, &json, &mut results, &Columns::default()).unwrap();
        assert_eq!((results.reads, written.columns), (2 * 101, Columns::of(&all)));
        assert_eq!(tables(), (csv_text, json_text));
        // Nothing noted since the last rewrite: the go's end leaves the tables as they are.
        let record = Record::start(&csv, &json, &mut results, &Columns::of(&all)).unwrap();
        results.reads = 0;
        record.finish(&mut results).unwrap();
        assert_eq!(results.reads, 0);
    }

    #[test]
    fn a_journal_that_is_a_folder_or_a_pipe_is_refused_as_the_persons_to_move() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("orders.results.json");
        std::fs::create_dir(path(&json)).unwrap();
        let refused = read_over(&json, drop).unwrap_err();
        assert_eq!(refused.kind, crate::error::RunErrorKind::Invalid);
        let said = format!("{}: the results journal is a folder, not a regular file", path(&json).display());
        assert!(refused.message.contains(&said), "{}", refused.message);
        std::fs::remove_dir(path(&json)).unwrap();
        assert!(std::process::Command::new("mkfifo").arg(path(&json)).status().unwrap().success());
        let refused = read_over(&json, drop).unwrap_err();
        assert!(refused.message.contains("the results journal is a named pipe (FIFO)"), "{}", refused.message);
    }
}
