//! What a go takes of an earlier go's rows: the runs that succeeded, each given to the row of
//! this go with its values. Of the earlier rows a go holds only what resume asks of them (how
//! each ended, a key of its values, where its line is); the lines of the rows taken stay in
//! the earlier JSON table and are read from there as the tables are written.
//!
//! A row is in the record from the moment its run starts (`running`, with its run id), so a
//! batch killed outright (SIGKILL, a power cut) leaves the ids of the runs it had under way:
//! the next go asks the store how each ended, and takes a run that succeeded after all
//! instead of running its row a second time.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

use indexmap::IndexMap;
use statewright_store::Store;
use statewright_workflow::params::MASK;

use super::RowResult;
use super::held::Held;
use super::table::{self, Columns, Rows, TableFile};
use crate::error::RunError;

/// Row `i`'s values as the table shows them, and whether one is secret: made when asked, not
/// held for every row.
pub(crate) type Shown<'a> = dyn Fn(usize) -> (IndexMap<String, String>, bool) + 'a;

/// The rows of an earlier go, as the JSON table at `path` and the journal beside it leave
/// them (none when there was none), for a go of `count` rows, each `shown`.
pub(crate) fn earlier_go(path: &Path, count: usize, shown: &Shown) -> Result<Earlier, RunError> {
    let mut go = Earlier { done: vec![None; count], ..Earlier::default() };
    if let Some(reader) = table::open_written(path, "results table")? {
        let mut rows = Rows::new(reader);
        // A row that succeeded with the values its number's row of this go has is done at
        // once, kept as no more than where it is in the table (a second go over the same
        // data holds nothing else of it), as long as the numbers rise: a number given again
        // is over the row before it.
        let mut last = 0;
        while let Some((at, row)) = rows.next_row().map_err(|e| table::not_a_table(path, &e))? {
            let number = row.row;
            let rising = number > last;
            last = last.max(number);
            let place = number.checked_sub(1).filter(|i| *i < count);
            if let Some(i) = place.filter(|_| !rising) {
                go.done[i] = None;
            }
            let row = go.kept(row, Some(at));
            let own = |i: usize| row.key == Key::of(&shown(i).0);
            match place {
                Some(i) if rising && row.standing == Standing::Succeeded && !row.masked && own(i) => {
                    go.done[i] = Some(Kept::Table(at));
                }
                _ if row.standing != Standing::Other || row.masked => go.rows.push(row),
                _ => {}
            }
        }
        go.table = Some(rows.into_table(path));
    }
    let mut later = Vec::new();
    super::journal::read_over(path, |row| {
        // Over the table's row of its number, done at once or not.
        if let Some(done) = row.row.checked_sub(1).and_then(|i| go.done.get_mut(i)) {
            *done = None;
        }
        later.push(go.kept(row, None))
    })?;
    // The last line of a row's number is the one that counts: the journal's over the table's.
    go.rows.extend(later);
    if !go.rows.is_sorted_by_key(|r| r.row) {
        go.rows.sort_by_key(|r| r.row);
    }
    go.rows.dedup_by(|later, earlier| {
        let same = later.row == earlier.row;
        if same {
            std::mem::swap(later, earlier);
        }
        same
    });
    go.rows.retain(|r| r.standing != Standing::Other || r.masked);
    Ok(go)
}

/// An earlier go's rows, by number, and where their lines are.
#[derive(Default)]
pub(crate) struct Earlier {
    /// The rows of this go done by the row of their own number, found as the table was read.
    done: Vec<Option<Kept>>,
    /// The other rows, but for those that neither succeeded nor have a masked value.
    rows: Vec<EarlierRow>,
    /// The lines of the rows the journal held, or under way (the store may settle them).
    held: Vec<Held>,
    /// The earlier JSON table, which the other rows are read from again.
    table: Option<TableFile>,
    /// The columns of the rows that succeeded: most likely the columns of this go's first
    /// tables.
    pub(crate) columns: Columns,
}

/// A row of an earlier go, with what resume asks of it.
#[derive(Debug, Clone, PartialEq)]
struct EarlierRow {
    row: usize,
    standing: Standing,
    /// Whether a value is masked (a secret).
    masked: bool,
    key: Key,
    line: Line,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Standing {
    Succeeded,
    /// Its run under way when the table was last written (the go was killed).
    Running,
    Other,
}

/// Where an earlier row's line is: in the earlier JSON table, from the byte given, or held.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Line {
    Table(u64),
    Held(usize),
    /// Nowhere: a row that did not succeed is run again, and never written from its line.
    None,
}

/// Where a row of this go's tables is: in the JSON table last written, from the byte given
/// (until the first, the earlier go's), or held as its line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kept {
    Table(u64),
    /// Boxed: a go's place is then 16 bytes, not 24, most of them in the table.
    Held(Box<Held>),
}

/// The values of a row, in any order, as a key to match rows by: 128 bits of hash, so a
/// million rows' keys take 16 MB where their values took ten times that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key(u64, u64);

impl Key {
    fn of(values: &IndexMap<String, String>) -> Key {
        let mut pairs: Vec<(&String, &String)> = values.iter().collect();
        pairs.sort();
        let half = |salt: u8| {
            let mut hasher = DefaultHasher::new();
            salt.hash(&mut hasher);
            pairs.hash(&mut hasher);
            hasher.finish()
        };
        Key(half(1), half(2))
    }
}

impl Earlier {
    /// What is kept of `row`, its line in the table at `at`, else in the journal.
    fn kept(&mut self, row: RowResult, at: Option<u64>) -> EarlierRow {
        let standing = match row.status.as_str() {
            "succeeded" => Standing::Succeeded,
            "running" => Standing::Running,
            _ => Standing::Other,
        };
        let line = match (standing, at) {
            (Standing::Other, _) => Line::None,
            (Standing::Succeeded, Some(at)) => Line::Table(at),
            _ => {
                self.held.push(Held::of(&row));
                Line::Held(self.held.len() - 1)
            }
        };
        if standing != Standing::Other {
            self.columns.add(&row);
        }
        let masked = row.values.values().any(|v| v == MASK);
        EarlierRow { row: row.row, standing, masked, key: Key::of(&row.values), line }
    }

    fn take(&mut self, line: Line) -> Option<Kept> {
        match line {
            Line::Table(at) => Some(Kept::Table(at)),
            Line::Held(i) => Some(Kept::Held(Box::new(std::mem::take(&mut self.held[i])))),
            Line::None => None,
        }
    }
}

/// The rows of this go done before, and the earlier JSON table the ones taken from it are
/// read from: each row, by its `values`, takes a run of an earlier go that succeeded with
/// the same values, the one of its own number first, else the first such run no row has
/// taken, renumbered as the row (as it is written). By values, not by number alone: a row
/// added, removed or moved in the data since would otherwise have every row after it run
/// again (each its order, its purchase, a second time). A row with a `secret` value (masked
/// in the table, so two rows may differ in nothing else) moves so only when no other row of
/// either go has its values: else which one succeeded cannot be told.
pub(super) fn done_before(shown: &Shown, mut earlier: Earlier) -> (Vec<Option<Kept>>, Option<TableFile>) {
    let mut done = std::mem::take(&mut earlier.done);
    let rows = done.len();
    if earlier.rows.iter().all(|r| r.standing != Standing::Succeeded) {
        return (done, earlier.table);
    }
    // How many rows of each go have the values: more than one, and a secret row is ambiguous.
    // Counted only for the values of an earlier row with one masked: only a secret row asks.
    let mut alike: std::collections::HashMap<Key, (usize, usize)> = std::collections::HashMap::new();
    for r in earlier.rows.iter().filter(|r| r.masked) {
        alike.entry(r.key).or_default().1 += 1;
    }
    if !alike.is_empty() {
        for i in 0..rows {
            if let Some(count) = alike.get_mut(&Key::of(&shown(i).0)) {
                count.0 += 1;
            }
        }
    }
    for (i, done) in done.iter_mut().enumerate().filter(|(_, done)| done.is_none()) {
        let Ok(own) = earlier.rows.binary_search_by_key(&(i + 1), |r| r.row) else { continue };
        let r = &mut earlier.rows[own];
        if r.standing == Standing::Succeeded && r.key == Key::of(&shown(i).0) {
            r.standing = Standing::Other;
            let line = r.line;
            *done = earlier.take(line);
        }
    }
    // The others by their values, in their rows' order, each run taken once (a row given
    // twice ran twice): sorted by key, then row, and how many of each key's rows are taken.
    let mut left: Vec<(Key, usize)> = earlier
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.standing == Standing::Succeeded)
        .map(|(i, r)| (r.key, i))
        .collect();
    if left.is_empty() {
        return (done, earlier.table);
    }
    left.sort_unstable();
    let mut taken = vec![0u32; left.len()];
    for (i, done) in done.iter_mut().enumerate() {
        if done.is_some() {
            continue;
        }
        let (values, secret) = shown(i);
        let key = Key::of(&values);
        if secret && alike.get(&key) != Some(&(1, 1)) {
            continue;
        }
        let first = left.partition_point(|(k, _)| *k < key);
        let next = first + taken.get(first).map_or(0, |n| *n as usize);
        if let Some(&(_, r)) = left.get(next).filter(|(k, _)| *k == key) {
            taken[first] += 1;
            let line = earlier.rows[r].line;
            *done = earlier.take(line);
        }
    }
    (done, earlier.table)
}

/// Rows an earlier go left `running` take their run's end from the store: `succeeded` if
/// the run did (then the row is not run again), else they stay to be run again.
pub(super) fn settle_running(earlier: &mut Earlier, db: &Path) {
    // Few: the rows under way when a go was killed.
    let running: Vec<(usize, usize, RowResult)> = earlier
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.standing == Standing::Running)
        .filter_map(|(i, r)| match r.line {
            Line::Held(h) => earlier.held[h].result().ok().filter(|row| row.run_id.is_some()).map(|row| (i, h, row)),
            _ => None,
        })
        .collect();
    if running.is_empty() || !db.exists() {
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
    for (i, h, mut row) in running {
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
            earlier.columns.add(&row);
            earlier.held[h] = Held::of(&row);
            earlier.rows[i].standing = Standing::Succeeded;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use statewright_engine::{Event, RunStatus};
    use statewright_store::NewRun;

    use super::*;
    use crate::batch::journal;
    use crate::batch::table::write_table;

    fn row(row: usize, status: &str, run_id: &str) -> RowResult {
        let values = IndexMap::from([("seed".to_owned(), row.to_string())]);
        RowResult { run_id: Some(run_id.into()), ..RowResult::new(row, values, status, String::new()) }
    }

    /// Row `i` of this go, of seed `i + 1`.
    fn by_number(i: usize) -> (IndexMap<String, String>, bool) {
        (IndexMap::from([("seed".to_owned(), (i + 1).to_string())]), false)
    }

    /// The earlier go of the table `rows` (with the lines `since` over it), in `dir`, for a
    /// go of `count` rows, each `shown`.
    fn earlier_of(dir: &Path, mut rows: Vec<RowResult>, since: &[RowResult], count: usize, shown: &Shown) -> Earlier {
        let (csv, json) = (dir.join("orders.results.csv"), dir.join("orders.results.json"));
        write_table(&csv, &json, &mut rows, &Columns::default()).unwrap();
        let lines: String = since.iter().map(|r| serde_json::to_string(r).unwrap() + "\n").collect();
        std::fs::write(journal::path(&csv), lines).unwrap();
        earlier_go(&json, count, shown).unwrap()
    }

    /// The rows taken, whole, as their lines have them (not yet renumbered).
    fn taken(done: (Vec<Option<Kept>>, Option<TableFile>)) -> Vec<Option<RowResult>> {
        let (slots, mut table) = done;
        let mut read = |slot: Kept| match slot {
            Kept::Table(at) => table.as_mut().unwrap().row_at(at).unwrap(),
            Kept::Held(held) => held.result().unwrap(),
        };
        slots.into_iter().map(|slot| slot.map(&mut read)).collect()
    }

    #[test]
    fn a_large_earlier_table_of_every_status_gives_its_succeeded_runs_to_the_rows_with_their_values() {
        let dir = tempfile::tempdir().unwrap();
        // Row n (seed n) succeeded if n % 4 is 0, else failed, was under way or cancelled;
        // the journal says rows 1 to 20 ran again since, and every fifth of them succeeded.
        let status = |n: usize| ["succeeded", "failed", "running", "cancelled"][n % 4];
        let table: Vec<RowResult> = (1..=5000).map(|n| row(n, status(n), &format!("r{n}"))).collect();
        let again: Vec<RowResult> = (1..=20)
            .map(|n| row(n, if n.is_multiple_of(5) { "succeeded" } else { "failed" }, &format!("again{n}")))
            .collect();
        // This go: a new row first, every tenth seed gone, and seeds 1 to 9 twice over.
        let seeds: Vec<usize> =
            [0].into_iter().chain((1..=5000).filter(|n: &usize| !n.is_multiple_of(10))).chain(1..=9).collect();
        let shown = |i: usize| (IndexMap::from([("seed".to_owned(), seeds[i].to_string())]), false);
        let earlier = earlier_of(dir.path(), table, &again, seeds.len(), &shown);
        // Of the succeeded rows, only the journal's are held: the table's are read again.
        assert_eq!(earlier.held.len(), 1250 + 4, "those under way, and the journal's that succeeded");

        let done = taken(done_before(&shown, earlier));
        let ran_before = |n: usize| match n {
            0 => None,
            1..=20 if n.is_multiple_of(5) => Some(format!("again{n}")),
            1..=20 => None,
            _ => n.is_multiple_of(4).then(|| format!("r{n}")),
        };
        for (i, done) in done.iter().enumerate() {
            // Each run taken once: the second row of seed 5 runs again.
            let expected = ran_before(seeds[i]).filter(|_| i < 5000 - 500 + 1);
            assert_eq!(done.as_ref().and_then(|r| r.run_id.clone()), expected, "row {} (seed {})", i + 1, seeds[i]);
            if let Some(done) = done {
                assert_eq!((done.row, done.status.as_str()), (seeds[i], "succeeded"), "the run of its seed");
            }
        }
    }

    #[test]
    fn a_second_go_over_the_same_data_holds_nothing_of_the_rows_done_but_where_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let table: Vec<RowResult> = (1..=1000).map(|n| row(n, "succeeded", &format!("r{n}"))).collect();
        let earlier = earlier_of(dir.path(), table.clone(), &[], 1000, &by_number);
        assert_eq!((earlier.rows.len(), earlier.held.len()), (0, 0), "nothing held of each row");
        let done = taken(done_before(&by_number, earlier));
        assert_eq!(done, table.iter().cloned().map(Some).collect::<Vec<_>>());
        // Row 500's values changed since, row 10 ran again and failed, and row 20 is in the
        // table twice, the second time failed: each runs again, and no other row.
        let mut twice = table.clone();
        twice.insert(20, row(20, "failed", "r20b"));
        let shown = |i: usize| {
            if i == 499 { (IndexMap::from([("seed".to_owned(), "x".to_owned())]), false) } else { by_number(i) }
        };
        let earlier = earlier_of(dir.path(), twice, &[row(10, "failed", "r10b")], 1000, &shown);
        let done = taken(done_before(&shown, earlier));
        let again: Vec<usize> = (0..1000).filter(|i| done[*i].is_none()).map(|i| i + 1).collect();
        assert_eq!(again, [10, 20, 500]);
    }

    #[test]
    fn a_row_told_from_another_only_by_a_secret_keeps_to_its_own_number() {
        let dir = tempfile::tempdir().unwrap();
        let masked =
            |user: &str| IndexMap::from([("user".to_owned(), user.to_owned()), ("pw".to_owned(), MASK.into())]);
        let result = |row: usize, user: &str, status: &str| RowResult::new(row, masked(user), status, String::new());
        // Two rows of one user, their passwords masked alike: the first failed, the second
        // succeeded. With the second taken out of the data, the first is not the one that
        // succeeded: it runs again.
        let shown = |values: Vec<IndexMap<String, String>>| move |i: usize| (values[i].clone(), true);
        let once = shown(vec![masked("a")]);
        let table = vec![result(1, "a", "failed"), result(2, "a", "succeeded")];
        let earlier = earlier_of(dir.path(), table, &[], 1, &once);
        assert_eq!(done_before(&once, earlier).0, [None]);
        // One row of its user in each go: moved, it is the same row, done.
        let moved = shown(vec![masked("a"), masked("c"), masked("b")]);
        let table = vec![result(1, "b", "succeeded"), result(2, "a", "failed")];
        let done = taken(done_before(&moved, earlier_of(dir.path(), table, &[], 3, &moved)));
        let rows: Vec<Option<usize>> = done.iter().map(|d| d.as_ref().map(|r| r.row)).collect();
        assert_eq!(rows, [None, None, Some(1)]);
    }

    #[test]
    fn the_next_go_holds_of_an_earlier_gos_rows_only_what_it_asks_of_them() {
        let dir = tempfile::tempdir().unwrap();
        let secret = |row: usize, status: &str| {
            let values = IndexMap::from([("user".to_owned(), "a".to_owned()), ("pw".to_owned(), MASK.to_owned())]);
            RowResult { run_id: Some(format!("run-{row}")), ..RowResult::new(row, values, status, "why".into()) }
        };
        let table = vec![
            secret(1, "failed"),
            secret(2, "succeeded"),
            row(3, "failed", "r3"),
            row(4, "cancelled", "r4"),
            row(5, "running", "r5"),
            row(6, "succeeded", "r6"),
        ];
        // Row 4 ran again after the table was written, and succeeded; row 6 again, and failed.
        let shown = |_| (table[0].values.clone(), true);
        let since = [row(4, "succeeded", "r4b"), row(6, "failed", "r6b")];
        let earlier = earlier_of(dir.path(), table.clone(), &since, 1, &shown);
        let kept: Vec<(usize, Standing, bool)> = earlier.rows.iter().map(|r| (r.row, r.standing, r.masked)).collect();
        use Standing::*;
        assert_eq!(kept, [(1, Other, true), (2, Succeeded, true), (4, Succeeded, false), (5, Running, false)]);
        // The lines of the rows under way and of the journal's are held; the table's
        // succeeded rows are not, and neither is anything of a row that did not succeed.
        assert!(matches!(earlier.rows[1].line, Line::Table(_)));
        let held: Vec<RowResult> = earlier.held.iter().map(|h| h.result().unwrap()).collect();
        let held: Vec<(usize, &str)> = held.iter().map(|r| (r.row, r.status.as_str())).collect();
        assert_eq!(held, [(5, "running"), (4, "succeeded")]);
        // Kept so, a row told from another only by a secret keeps to its own number still.
        assert_eq!(done_before(&shown, earlier).0, [None]);
        let json = dir.path().join("orders.results.json");
        assert_eq!(table::whole_rows(&json).unwrap().len(), 6, "the judge's are whole");
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
        let running = ["r-done", "r-cut", "r-failed", "r-unknown"].iter().enumerate();
        let table = running.map(|(i, id)| row(i + 1, "running", id)).collect();
        // A row that succeeded: none would be taken were none of the running ones settled.
        let mut earlier = earlier_of(dir.path(), table, &[row(5, "succeeded", "r5")], 5, &by_number);
        settle_running(&mut earlier, &db);
        let kept: Vec<Standing> = earlier.rows.iter().map(|r| r.standing).collect();
        use Standing::*;
        assert_eq!(kept, [Succeeded, Running, Running, Running, Succeeded], "rows 2 to 4 run again");
        let done = taken(done_before(&by_number, earlier));
        let settled = done[0].as_ref().unwrap();
        assert_eq!(settled.status, "succeeded");
        assert_eq!(settled.end_state.as_deref(), Some("Order confirmed"));
        assert_eq!(settled.message, "The order was placed and confirmed.");
        assert_eq!(settled.outputs["order_number"], "NW-000042", "with what it read");
        assert!(done[1..4].iter().all(Option::is_none));
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
        write_table(&csv, &json, &mut vec![row(1, "failed", "r-failed")], &Columns::default()).unwrap();
        let started: String = [row(1, "running", "r-done"), row(2, "running", "r-cut")]
            .iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect();
        let torn = r#"{"row":2,"values":{"seed":"2"},"status":"succ"#;
        std::fs::write(journal::path(&csv), started + torn).unwrap();

        let mut earlier = earlier_go(&json, 2, &by_number).unwrap();
        settle_running(&mut earlier, &db);
        let kept: Vec<(usize, Standing)> = earlier.rows.iter().map(|r| (r.row, r.standing)).collect();
        assert_eq!(kept, [(1, Standing::Succeeded), (2, Standing::Running)]);
        let done = taken(done_before(&by_number, earlier));
        let first = done[0].as_ref().unwrap();
        assert_eq!(first.status, "succeeded", "not run a second time");
        assert_eq!(first.run_id.as_deref(), Some("r-done"));
        assert_eq!(first.outputs["order_number"], "NW-000042", "with what it read");
        assert_eq!(done[1], None, "row 2 runs again");
        assert_eq!(Store::open(&db).unwrap().run("r-cut").unwrap().status, "interrupted");
    }
}
