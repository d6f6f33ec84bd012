//! The results table, as CSV and JSON, read back by the next go with the journal beside it
//! ([`super::journal`]: the rows started and ended since the table was last rewritten).
//!
//! A row is in the record from the moment its run starts (`running`, with its run id), so a
//! batch killed outright (SIGKILL, a power cut) leaves the ids of the runs it had under way:
//! the next go asks the store how each ended, and takes a run that succeeded after all
//! instead of running its row a second time.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use statewright_store::Store;
use statewright_workflow::params::MASK;

pub(crate) use self::write::{Table, write_table};
use super::RowResult;
use super::held::Held;
use crate::error::RunError;

mod write;

/// The results of an earlier go, by row, the JSON table at `path` and the journal beside
/// it, as much of each row as `keep` keeps; none when there was none.
pub(crate) fn earlier_results(path: &Path, keep: Keep) -> Result<Earlier, RunError> {
    let mut rows = table_rows(path, keep)?;
    super::journal::read_over(path, &mut rows, keep)?;
    Ok(rows)
}

/// An earlier go's rows by number, each held as its line: a batch moves a million of them
/// into its own results without making them whole.
pub(crate) type Earlier = HashMap<usize, EarlierRow>;

/// A row of an earlier go, with how it ended at hand: resume asks that of every row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EarlierRow {
    pub(crate) standing: Standing,
    pub(crate) held: Held,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Standing {
    Succeeded,
    /// Its run under way when the table was last written (the go was killed).
    Running,
    Other,
}

impl EarlierRow {
    pub(super) fn of(row: &RowResult) -> EarlierRow {
        let standing = match row.status.as_str() {
            "succeeded" => Standing::Succeeded,
            "running" => Standing::Running,
            _ => Standing::Other,
        };
        EarlierRow { standing, held: Held::of(row) }
    }
}

/// How much of an earlier go's rows a reader keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Every row, whole: the judge grades them all.
    All,
    /// What a batch's next go asks of them: the rows that succeeded or were under way,
    /// whole; of the others only the values of those with one masked, which
    /// [`done_before`] counts (no other row can be told from a secret row by them). A
    /// million rows that failed or were cancelled are then not held again as the next go
    /// starts.
    ToResume,
}

impl Keep {
    /// `row` laid over what `rows` held for its number.
    pub(super) fn lay(self, rows: &mut Earlier, row: RowResult) {
        let number = row.row;
        let kept = match self {
            Keep::ToResume if !matches!(row.status.as_str(), "succeeded" | "running") => {
                let secret = row.values.values().any(|v| v == statewright_workflow::params::MASK);
                secret.then(|| RowResult::new(number, row.values, &row.status, String::new()))
            }
            _ => Some(row),
        };
        match kept {
            Some(row) => rows.insert(number, EarlierRow::of(&row)),
            None => rows.remove(&number),
        };
    }
}

/// The rows of the JSON table at `path` as last rewritten, read as they are parsed (the
/// table of a million rows is hundreds of MB).
fn table_rows(path: &Path, keep: Keep) -> Result<Earlier, RunError> {
    let Some(file) = open_written(path, "results table")? else { return Ok(HashMap::new()) };
    let mut json = serde_json::Deserializer::from_reader(file);
    serde::de::DeserializeSeed::deserialize(Kept(keep), &mut json).and_then(|rows| json.end().map(|()| rows)).map_err(
        |e| {
            RunError::invalid(
                "results",
                format!(
                    "{}: not a results table of statewright batch ({e}); move it away to start afresh",
                    path.display()
                ),
            )
        },
    )
}

/// The file at `path` this program wrote, to read (none when there is none), opened as every
/// input file is: a pipe or a folder at the path is the person's to move (exit 2), not
/// something to wait on or fail the batch's environment over.
pub(super) fn open_written(path: &Path, what: &str) -> Result<Option<impl std::io::BufRead>, RunError> {
    let max = statewright_workflow::MAX_WRITTEN_BYTES;
    match statewright_workflow::open_input(path, what, max) {
        Ok(file) => Ok(Some(std::io::BufReader::with_capacity(1 << 16, std::io::Read::take(file, max)))),
        Err(e) if e.missing => Ok(None),
        Err(e) => Err(RunError::invalid("results", format!("{}: {}", path.display(), e.message))),
    }
}

/// The table's rows, each kept as [`Keep`] says as it is read (not all read first).
struct Kept(Keep);

impl<'de> serde::de::DeserializeSeed<'de> for Kept {
    type Value = Earlier;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Kept {
    type Value = Earlier;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut rows = HashMap::new();
        while let Some(row) = seq.next_element::<RowResult>()? {
            self.0.lay(&mut rows, row);
        }
        Ok(rows)
    }
}

/// The rows of this go done before: each row, by its `values`, takes a run of an earlier go
/// that succeeded with the same values, the one of its own number first, else the first
/// such run no row has taken, renumbered as the row. By values, not by number alone: a row
/// added, removed or moved in the data since would otherwise have every row after it run
/// again (each its order, its purchase, a second time). A row with a `secret` value (masked
/// in the table, so two rows may differ in nothing else) moves so only when no other row of
/// either go has its values: else which one succeeded cannot be told. `shown(i)` is row
/// `i`'s values as the table shows them, and whether one is secret: made when asked, not
/// held for every row.
pub(super) fn done_before(
    rows: usize,
    shown: impl Fn(usize) -> (IndexMap<String, String>, bool),
    mut earlier: Earlier,
) -> Vec<Option<Held>> {
    let mut done: Vec<Option<Held>> = vec![None; rows];
    if earlier.values().all(|r| r.standing != Standing::Succeeded) {
        return done;
    }
    let key = |values: &IndexMap<String, String>| {
        let mut pairs: Vec<(String, String)> = values.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        pairs.sort();
        pairs
    };
    // How many rows of each go have the values: more than one, and a secret row is ambiguous.
    // Counted only for the values of an earlier row with one masked: only a secret row asks.
    let mut alike: HashMap<Vec<(String, String)>, (usize, usize)> = HashMap::new();
    for values in earlier.values().filter(|r| r.held.may_mask()).map(|r| r.held.values()) {
        if values.values().any(|v| v == MASK) {
            alike.entry(key(&values)).or_default().1 += 1;
        }
    }
    if !alike.is_empty() {
        for i in 0..rows {
            if let Some(count) = alike.get_mut(&key(&shown(i).0)) {
                count.0 += 1;
            }
        }
    }
    earlier.retain(|_, r| r.standing == Standing::Succeeded);
    for (i, done) in done.iter_mut().enumerate() {
        if earlier.get(&(i + 1)).is_some_and(|r| r.held.values() == shown(i).0) {
            *done = earlier.remove(&(i + 1)).map(|r| r.held);
        }
    }
    // The others by their values, in their rows' order, each run taken once (a row given
    // twice ran twice).
    let mut left: Vec<(usize, Held)> = earlier.into_iter().map(|(row, r)| (row, r.held)).collect();
    left.sort_by_key(|(row, _)| *row);
    let mut by_values: HashMap<Vec<(String, String)>, VecDeque<Held>> = HashMap::new();
    for (_, r) in left {
        by_values.entry(key(&r.values())).or_default().push_back(r);
    }
    for (i, done) in done.iter_mut().enumerate() {
        if done.is_some() {
            continue;
        }
        let (values, secret) = shown(i);
        let key = key(&values);
        if secret && alike.get(&key) != Some(&(1, 1)) {
            continue;
        }
        // A line that does not read back is a run not taken: the row runs again.
        *done = by_values.get_mut(&key).and_then(VecDeque::pop_front).and_then(|r| r.renumbered(i + 1).ok());
    }
    done
}

/// Rows an earlier go left `running` take their run's end from the store: `succeeded` if
/// the run did (then the row is not run again), else they stay to be run again.
pub(super) fn settle_running(earlier: &mut Earlier, db: &Path) {
    // Few: the rows under way when a go was killed.
    let mut running = earlier
        .values_mut()
        .filter(|r| r.standing == Standing::Running)
        .filter_map(|r| r.held.result().ok().filter(|row| row.run_id.is_some()).map(|row| (r, row)))
        .peekable();
    if running.peek().is_none() || !db.exists() {
        return;
    }
    // Opening the store marks the runs of the killed go as interrupted (their locks are free).
    let store = match Store::open(db) {
        Ok(store) => store,
        Err(e) => {
            tracing::warn!("cannot ask the store how the runs under way ended ({e}): their rows run again");
            return;
        }
    };
    for (earlier, mut row) in running {
        let Some(run) = row.run_id.as_deref().and_then(|id| store.run(id).ok()) else { continue };
        if run.status == "succeeded" {
            row.status = run.status;
            row.end_state = run.end_state;
            row.duration_ms = run.duration_ms.unwrap_or_default().max(0) as u64;
            row.message = run.message.unwrap_or_default();
            row.outputs = run.outputs.as_object().map(|o| o.clone().into_iter().collect()).unwrap_or_default();
            row.llm_calls = run.llm_calls.max(0) as u32;
            row.llm_tokens = run.llm_tokens.max(0) as u64;
            row.llm_cost = run.llm_cost;
            *earlier = EarlierRow::of(&row);
        }
    }
}

/// The files a batch writes for the results `csv`, each with what it is: the CSV table, the
/// JSON table beside it, the file each is written to before its rename, the journal, the lock.
pub(super) fn written(csv: &Path) -> [(&'static str, PathBuf); 5] {
    [
        ("CSV results table", csv.to_owned()),
        ("JSON results table", csv.with_extension("json")),
        ("table being written", csv.with_extension("tmp~")),
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
pub(super) mod tests {
    use serde_json::json;
    use statewright_engine::{Event, RunStatus};
    use statewright_store::NewRun;

    use super::*;

    /// The rows of `earlier`, whole.
    pub(in crate::batch) fn whole(earlier: &Earlier) -> HashMap<usize, RowResult> {
        earlier.iter().map(|(n, r)| (*n, r.held.result().unwrap())).collect()
    }

    fn row(row: usize, status: &str, run_id: &str) -> RowResult {
        let values = IndexMap::from([("seed".to_owned(), row.to_string())]);
        RowResult { run_id: Some(run_id.into()), ..RowResult::new(row, values, status, String::new()) }
    }

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

    #[test]
    fn a_large_earlier_table_of_every_status_gives_its_succeeded_runs_to_the_rows_with_their_values() {
        let dir = tempfile::tempdir().unwrap();
        let (csv, json) = (dir.path().join("orders.results.csv"), dir.path().join("orders.results.json"));
        // Row n (seed n) succeeded if n % 4 is 0, else failed, was under way or cancelled;
        // the journal says rows 1 to 20 ran again since, and every fifth of them succeeded.
        let status = |n: usize| ["succeeded", "failed", "running", "cancelled"][n % 4];
        let table: Vec<RowResult> = (1..=5000).map(|n| row(n, status(n), &format!("r{n}"))).collect();
        write_table(&csv, &json, &table[..]).unwrap();
        let again: String = (1..=20)
            .map(|n| row(n, if n.is_multiple_of(5) { "succeeded" } else { "failed" }, &format!("again{n}")))
            .map(|r| serde_json::to_string(&r).unwrap() + "\n")
            .collect();
        std::fs::write(super::super::journal::path(&csv), again).unwrap();
        // This go: a new row first, every tenth seed gone, and seeds 1 to 9 twice over.
        let seeds: Vec<usize> =
            [0].into_iter().chain((1..=5000).filter(|n: &usize| !n.is_multiple_of(10))).chain(1..=9).collect();
        let shown = |i: usize| (IndexMap::from([("seed".to_owned(), seeds[i].to_string())]), false);

        let done = done_before(seeds.len(), shown, earlier_results(&json, Keep::ToResume).unwrap());
        let ran_before = |n: usize| match n {
            0 => None,
            1..=20 if n.is_multiple_of(5) => Some(format!("again{n}")),
            1..=20 => None,
            _ => n.is_multiple_of(4).then(|| format!("r{n}")),
        };
        for (i, done) in done.iter().enumerate() {
            let done = done.as_ref().map(|held| held.result().unwrap());
            // Each run taken once: the second row of seed 5 runs again.
            let expected = ran_before(seeds[i]).filter(|_| i < 5000 - 500 + 1);
            assert_eq!(done.as_ref().and_then(|r| r.run_id.clone()), expected, "row {} (seed {})", i + 1, seeds[i]);
            if let Some(done) = done {
                assert_eq!((done.row, done.status.as_str()), (i + 1, "succeeded"), "renumbered as its row");
            }
        }
    }

    #[test]
    fn a_row_told_from_another_only_by_a_secret_keeps_to_its_own_number() {
        let masked =
            |user: &str| IndexMap::from([("user".to_owned(), user.to_owned()), ("pw".to_owned(), MASK.into())]);
        let result = |row: usize, user: &str, status: &str| {
            EarlierRow::of(&RowResult::new(row, masked(user), status, String::new()))
        };
        // Two rows of one user, their passwords masked alike: the first failed, the second
        // succeeded. With the second taken out of the data, the first is not the one that
        // succeeded: it runs again.
        let earlier = HashMap::from([(1, result(1, "a", "failed")), (2, result(2, "a", "succeeded"))]);
        let shown = |values: Vec<IndexMap<String, String>>| move |i: usize| (values[i].clone(), true);
        assert_eq!(done_before(1, shown(vec![masked("a")]), earlier.clone()), [None]);
        // One row of its user in each go: moved, it is the same row, done.
        let earlier = HashMap::from([(1, result(1, "b", "succeeded")), (2, result(2, "a", "failed"))]);
        let done = done_before(3, shown(vec![masked("a"), masked("c"), masked("b")]), earlier);
        let rows: Vec<Option<usize>> = done.iter().map(|d| d.as_ref().map(|r| r.result().unwrap().row)).collect();
        assert_eq!(rows, [None, None, Some(3)]);
    }

    #[test]
    fn the_next_go_holds_of_an_earlier_gos_rows_only_what_it_asks_of_them() {
        let dir = tempfile::tempdir().unwrap();
        let (csv, json) = (dir.path().join("orders.results.csv"), dir.path().join("orders.results.json"));
        let secret = |row: usize, status: &str| {
            let values = IndexMap::from([("user".to_owned(), "a".to_owned()), ("pw".to_owned(), MASK.to_owned())]);
            RowResult { run_id: Some(format!("run-{row}")), ..RowResult::new(row, values, status, "why".into()) }
        };
        let table = [
            secret(1, "failed"),
            secret(2, "succeeded"),
            row(3, "failed", "r3"),
            row(4, "cancelled", "r4"),
            row(5, "running", "r5"),
        ];
        write_table(&csv, &json, &table[..]).unwrap();
        // Row 4 ran again after the table was written, and succeeded.
        let again = serde_json::to_string(&row(4, "succeeded", "r4b")).unwrap();
        std::fs::write(super::super::journal::path(&csv), again + "\n").unwrap();

        let earlier = earlier_results(&json, Keep::ToResume).unwrap();
        let rows = whole(&earlier);
        let mut kept: Vec<(usize, &str)> = rows.values().map(|r| (r.row, r.status.as_str())).collect();
        kept.sort();
        assert_eq!(kept, [(1, "failed"), (2, "succeeded"), (4, "succeeded"), (5, "running")]);
        assert_eq!((rows[&1].run_id.as_ref(), rows[&1].message.as_str()), (None, ""), "its values only");
        assert_eq!(rows[&2], table[1]);
        // Kept so, a row told from another only by a secret keeps to its own number still.
        let shown = |_| (table[0].values.clone(), true);
        assert_eq!(done_before(1, shown, earlier), [None]);
        assert_eq!(earlier_results(&json, Keep::All).unwrap().len(), 5, "the judge's are whole");
    }

    /// The store of a batch killed outright: `r-done` had succeeded (the table not yet
    /// written), `r-cut` was under way, `r-failed` could not start.
    fn runs_of_a_killed_batch(db: &Path) {
        let store = Store::open(db).unwrap();
        let start = |id: &str| {
            let new = NewRun {
                id,
                workflow_name: "w",
                workflow_json: "{}",
                parameters: &json!({}),
                browser: "headless Chromium",
                workflow_path: None,
            };
            store.start_run(&new).unwrap()
        };
        // Finished before the kill, but the table had not been written yet.
        let mut done = start("r-done");
        let finished = Event::RunFinished {
            status: RunStatus::Succeeded,
            end_state: Some("Order confirmed".into()),
            outcome: None,
            message: "The order was placed and confirmed.".into(),
            failure: None,
            duration_ms: 4200,
            steps: 9,
            actions: 9,
            outputs: IndexMap::from([("order_number".to_owned(), json!("NW-000042"))]),
        };
        store.record_all(&mut done, &[finished]).unwrap();
        drop(done);
        // Under way when the batch was killed: its lock is gone with it.
        drop(start("r-cut"));
        store.abort_run(start("r-failed"), "no browser").unwrap();
    }

    #[test]
    fn rows_a_killed_batch_left_running_take_their_runs_end_from_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("statewright.db");
        runs_of_a_killed_batch(&db);

        let mut earlier: Earlier = [
            row(1, "running", "r-done"),
            row(2, "running", "r-cut"),
            row(3, "running", "r-failed"),
            row(4, "running", "r-unknown"),
        ]
        .into_iter()
        .map(|r| (r.row, EarlierRow::of(&r)))
        .collect();
        settle_running(&mut earlier, &db);
        let rows = whole(&earlier);
        let settled = &rows[&1];
        assert_eq!(settled.status, "succeeded");
        assert_eq!(settled.end_state.as_deref(), Some("Order confirmed"));
        assert_eq!(settled.message, "The order was placed and confirmed.");
        assert_eq!(settled.outputs["order_number"], "NW-000042", "with what it read");
        for r in 2..=4 {
            assert_eq!(rows[&r].status, "running", "row {r} runs again");
        }
        let store = Store::open(&db).unwrap();
        assert_eq!(store.run("r-cut").unwrap().status, "interrupted");
    }

    #[test]
    fn a_row_killed_between_its_start_and_end_is_settled_from_the_journal_and_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("statewright.db");
        runs_of_a_killed_batch(&db);
        let (csv, json) = (dir.path().join("orders.results.csv"), dir.path().join("orders.results.json"));
        // The table as an earlier go left it; the killed go ran row 1 again and started row
        // 2, and was killed as it appended row 2's end: the table was not rewritten since.
        write_table(&csv, &json, &[row(1, "failed", "r-failed")][..]).unwrap();
        let started: String = [row(1, "running", "r-done"), row(2, "running", "r-cut")]
            .iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect();
        let torn = r#"{"row":2,"values":{"seed":"2"},"status":"succ"#;
        std::fs::write(super::super::journal::path(&csv), started + torn).unwrap();

        let mut earlier = earlier_results(&json, Keep::ToResume).unwrap();
        settle_running(&mut earlier, &db);
        assert_eq!(earlier[&1].standing, Standing::Succeeded);
        let rows = whole(&earlier);
        assert_eq!(rows[&1].status, "succeeded", "not run a second time");
        assert_eq!(rows[&1].run_id.as_deref(), Some("r-done"));
        assert_eq!(rows[&1].outputs["order_number"], "NW-000042", "with what it read");
        assert_eq!((rows[&2].status.as_str(), rows[&2].run_id.as_deref()), ("running", Some("r-cut")));
        assert_eq!(Store::open(&db).unwrap().run("r-cut").unwrap().status, "interrupted");
    }
}
