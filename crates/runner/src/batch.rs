//! Batch runs: a workflow run once per row of data, the row's columns as parameters
//! (`statewright batch`), or the model driven towards each row's goal (`statewright agent
//! --tasks`, a benchmark's task file). At most `concurrency` runs at a time, each a run like
//! any other (stored, reviewable: one that waits for a person waits in the queue while the
//! others go on). The runs launch their own browsers, or attach to a pool of running ones
//! ([`crate::pool`]).
//!
//! The results table (row, status, end state, duration, run id, message), as CSV and as
//! JSON, with a journal beside it that each row's start and end is appended to at once (the
//! table is rewritten from time to time, in bytes that grow with the rows: [`journal`]), so
//! an interrupted batch loses nothing; run again, a batch skips the rows that already
//! succeeded with the same values. Secret columns are masked in the table.

mod held;
pub(crate) mod journal;
pub(crate) mod lock;
mod resume;
mod row;
pub(crate) mod table;

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statewright_chrome::SharedBrowser;
use statewright_engine::Cancel;
use statewright_workflow::Workflow;
use statewright_workflow::diagnostic::shorten;
use statewright_workflow::params::MASK;
use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore, mpsc};

use self::held::Held;
use self::resume::Kept;
use self::table::{Entry, TableFile};
use crate::agent::AgentRequest;
use crate::error::RunError;
use crate::pool::{BrowserPool, Endpoint, EndpointReport, Slots};
use crate::request::RunRequest;
use crate::rows::Row;

pub struct BatchRequest {
    /// What runs once per row.
    pub each: Each,
    pub rows: Vec<Row>,
    /// Runs at a time (at least 1; with a pool, no more than its endpoints take together).
    pub concurrency: usize,
    /// The results table: this CSV file, and the same with `.json`.
    pub results: PathBuf,
    /// Where the runs' browsers come from.
    pub pool: BrowserPool,
    /// The longest a row's run may take (from its start, not counting the wait for a
    /// browser); one that takes longer is stopped and its row ends `timed_out`.
    pub run_timeout: Option<Duration>,
    /// Whether the report lists every row's result (the tables do anyway): a million of them
    /// held for a report no one reads would be a gigabyte.
    pub report_rows: bool,
}

/// Rows ended whose ends are not yet noted (journaled, held among the go's results), beyond
/// the runs at a time: rows that end at once (no browser, or refused before they run) would
/// otherwise pile up as whole results in the channel while the tables are rewritten, a
/// million of them hundreds of MB.
const ENDS_AHEAD: usize = 1024;

/// A row's time limit from a number of seconds: positive and finite (none at all would stop
/// every run at once). The CLI's `--run-timeout` and the window's *Time limit* both ask here.
pub fn time_limit(seconds: f64) -> Result<Duration, String> {
    match Duration::try_from_secs_f64(seconds) {
        Ok(limit) if !limit.is_zero() => Ok(limit),
        _ => Err(format!("a run's time limit is a positive number of seconds, not {seconds}")),
    }
}

/// One row's outcome, as the results table holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RowResult {
    /// 1-based, in the data file's order.
    pub row: usize,
    /// The row's values, secret ones masked.
    pub values: IndexMap<String, String>,
    /// `succeeded`, `failed`, `timed_out` (stopped at the batch's run time limit),
    /// `cancelled`, `error` (the run could not start), or `running` while it runs (a table
    /// left with `running` rows was written by a batch that was killed).
    pub status: String,
    pub end_state: Option<String>,
    pub duration_ms: u64,
    pub run_id: Option<String>,
    pub message: String,
    /// The pool endpoint the run attached to (credentials masked); none when it launched
    /// its own browser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// What the run read into its variables (secret ones masked); for a goal, the model's
    /// `answer`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub outputs: IndexMap<String, serde_json::Value>,
    /// The run's calls to a model, their tokens and their cost (US dollars, from the
    /// configured prices); none for a run that asked no model.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub llm_calls: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub llm_tokens: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub llm_cost: f64,
    /// What `statewright judge` said of a task's answer; none until it is judged (a row run
    /// again loses its verdict with its old run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged: Option<Box<crate::judge::Judgement>>,
}

impl RowResult {
    /// Row `row` with its `values`, its `status` and why: no run, outputs or verdict yet.
    pub(crate) fn new(row: usize, values: IndexMap<String, String>, status: &str, message: String) -> Self {
        RowResult {
            row,
            values,
            status: status.into(),
            end_state: None,
            duration_ms: 0,
            run_id: None,
            message,
            endpoint: None,
            outputs: IndexMap::new(),
            llm_calls: 0,
            llm_tokens: 0,
            llm_cost: 0.0,
            judged: None,
        }
    }
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BatchReport {
    pub total: usize,
    pub succeeded: usize,
    pub failed: usize,
    /// Rows that had succeeded in an earlier go, not run again.
    pub skipped: usize,
    pub results_csv: PathBuf,
    pub results_json: PathBuf,
    /// Every row's result; none unless asked for (`batch --json`, the window): the tables
    /// hold them.
    pub rows: Vec<RowResult>,
    /// The pool's endpoints: rows run on each, and why one was given up on (none without a pool).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<EndpointReport>,
}

/// What the shell hears: a row started (with its run id), a row done, a pool endpoint given
/// up on.
pub trait BatchObserver: Send {
    fn started(&mut self, row: usize, run_id: &str);
    fn finished(&mut self, result: &RowResult, done: usize, total: usize);
    /// The batch was stopped before `rows` of its `total` started: they are `cancelled` in the
    /// table, said at once rather than a line each (a stopped batch of a million rows would
    /// print them for minutes).
    fn not_started(&mut self, rows: usize, total: usize) {
        let _ = (rows, total);
    }
    /// `url` (credentials masked) could not be attached to, for `reason`: its rows go to
    /// the other endpoints.
    fn endpoint_dead(&mut self, url: &str, reason: &str) {
        let _ = (url, reason);
    }
}

enum Progress {
    /// The row's run is recorded and under way (`status: running`).
    Started(RowResult),
    /// With the row's place among the ends not yet noted ([`ENDS_AHEAD`]).
    Finished(RowResult, OwnedSemaphorePermit),
    EndpointDead {
        url: String,
        reason: String,
    },
}

/// A run request for one row, with the parameter defaults every row starts from; the row's
/// values are laid over them here.
pub type RequestFor = dyn Fn() -> Result<RunRequest, String> + Send + Sync;
/// An agent request for one task, with the values every task starts from; the task's goal,
/// first page and values are laid over it here.
pub type GoalFor = dyn Fn() -> Result<AgentRequest, String> + Send + Sync;

/// What a batch runs once per row.
#[derive(Clone)]
pub enum Each {
    /// The workflow, the row's columns as its parameters.
    Workflow { workflow: Box<Workflow>, request_for: Arc<RequestFor> },
    /// The model, towards the row's goal from its first page (rows read by
    /// [`crate::tasks::read_tasks`]).
    Goal(Arc<GoalFor>),
}

impl Each {
    /// The model towards each row's goal, every run's request made like `template` (see
    /// [`AgentRequest::like`]).
    pub fn goals(template: AgentRequest) -> Each {
        // A request may carry a listener, which is not `Sync`: the closure must be.
        let template = std::sync::Mutex::new(template);
        Each::Goal(Arc::new(move || {
            template.lock().map(|t| t.like()).map_err(|_| "a task's request could not be made".to_owned())
        }))
    }

    /// The row's values as the results table shows them: secret ones masked.
    fn shown(&self, row: &Row) -> IndexMap<String, String> {
        row.values().map(|(k, v)| (k.to_owned(), if self.is_secret(k) { MASK } else { v }.to_owned())).collect()
    }

    fn is_secret(&self, column: &str) -> bool {
        match self {
            Each::Workflow { workflow, .. } => workflow.parameters.get(column).is_some_and(|p| p.secret),
            Each::Goal(_) => statewright_workflow::params::names_a_secret(column),
        }
    }

    fn needs_browser(&self) -> bool {
        match self {
            Each::Workflow { workflow, .. } => statewright_world::needs(workflow).browser,
            Each::Goal(_) => true,
        }
    }

    /// The run store the rows' runs go to.
    fn db(&self) -> Option<PathBuf> {
        match self {
            Each::Workflow { request_for, .. } => request_for().ok().map(|r| r.db_path()),
            Each::Goal(goal_for) => goal_for().ok().map(|r| r.db_path()),
        }
    }
}

/// Runs every row not already done.
pub async fn run_batch(
    request: BatchRequest,
    cancel: Cancel,
    observer: &mut dyn BatchObserver,
) -> Result<BatchReport, RunError> {
    if let Each::Workflow { workflow, .. } = &request.each {
        check_columns(workflow, &request.rows)?;
    }
    let data = request.rows.first().map(|row| &*row.file).filter(|file| !file.as_os_str().is_empty());
    table::check_places(&request.results, data)?;
    // Held to the end: no other batch runs these rows (again) meanwhile.
    let _lock = lock::ResultsLock::take(&request.results, lock::Writer::Batch)?;
    let json_path = request.results.with_extension("json");
    let rows = Arc::new(request.rows);
    let each = &request.each;
    let shown = |i: usize| (each.shown(&rows[i]), rows[i].columns().iter().any(|k| each.is_secret(k)));
    let mut earlier = resume::earlier_go(&json_path, rows.len(), &shown)?;
    if let Some(db) = request.each.db() {
        earlier = tokio::task::spawn_blocking(move || {
            resume::settle_running(&mut earlier, &db);
            earlier
        })
        .await
        .map_err(|e| RunError::environment("store", e.to_string()))?;
    }
    let guess = std::mem::take(&mut earlier.columns);
    let (kept, earlier_table) = resume::done_before(&shown, earlier);
    let mut results = Results { rows: &rows, each, kept, table: earlier_table, stopped: false };
    let pending: Vec<usize> = (0..rows.len()).filter(|i| results.kept[*i].is_none()).collect();
    let skipped = rows.len() - pending.len();
    let total = rows.len();

    let needs_browser = request.each.needs_browser() && !pending.is_empty();
    let (slots, shared_browsers) = slots(&request.pool, needs_browser).await?;
    let at_a_time = request.pool.bound(request.concurrency);
    let concurrency = Arc::new(Semaphore::new(at_a_time));
    let unnoted = Arc::new(Semaphore::new(at_a_time + ENDS_AHEAD));
    let (tx, mut rx) = mpsc::unbounded_channel();
    let shared = Arc::new(row::Shared {
        each: request.each.clone(),
        rows: rows.clone(),
        slots: slots.clone(),
        run_timeout: request.run_timeout,
        tx,
    });
    // Rows start in the data's order: each takes a slot before the next is looked at (a
    // batch stopped half-way has then done the first half, not a random half). Once stopped,
    // the rows not started are left as they are: the tables write them as cancelled.
    let scheduler_cancel = cancel.clone();
    tokio::spawn(async move {
        let cancel = scheduler_cancel;
        for i in pending {
            let permits = tokio::select! {
                permits = async {
                    let end = unnoted.clone().acquire_owned().await?;
                    Ok::<_, AcquireError>((end, concurrency.clone().acquire_owned().await?))
                } => permits,
                () = cancel.cancelled() => break,
            };
            // Neither is ever closed: permits are always had.
            let Ok((end, run)) = permits else { break };
            let (job, cancel) = (row::Job { i, shared: shared.clone() }, cancel.clone());
            tokio::spawn(async move {
                let result = row::run_row(&job, cancel).await;
                drop(run);
                let _ = job.shared.tx.send(Progress::Finished(result, end));
            });
        }
    });
    let mut done = skipped;
    // Every row skipped had succeeded before.
    let mut succeeded = skipped;
    let mut record = journal::Record::start(&request.results, &json_path, &mut results, &guess)?;
    let mut second = tokio::time::interval(Duration::from_secs(1));
    loop {
        let progress = tokio::select! {
            progress = rx.recv() => progress,
            _ = second.tick() => {
                record.catch_up(&mut results)?;
                continue;
            }
        };
        // The tasks hold the only senders: the channel closes when the last row is done.
        let Some(progress) = progress else { break };
        match progress {
            Progress::Started(running) => {
                observer.started(running.row, running.run_id.as_deref().unwrap_or_default());
                let index = running.row - 1;
                results.kept[index] = Some(Kept::Held(Box::new(Held::of(&running))));
                record.note(&mut results, index)?;
            }
            Progress::Finished(result, _permit) => {
                done += 1;
                succeeded += usize::from(result.status == "succeeded");
                observer.finished(&result, done, total);
                let index = result.row - 1;
                results.kept[index] = Some(Kept::Held(Box::new(Held::of(&result))));
                record.note(&mut results, index)?;
            }
            Progress::EndpointDead { url, reason } => observer.endpoint_dead(&url, &reason),
        }
    }
    // Every row started has ended: the others were never started, the batch stopped first.
    let not_started = results.kept.iter().filter(|r| r.is_none()).count();
    if not_started > 0 {
        results.stopped = true;
        observer.not_started(not_started, total);
    }
    record.finish(&mut results)?;
    for browser in shared_browsers {
        browser.close().await;
    }
    let mut rows = Vec::new();
    if request.report_rows {
        for place in 0..total {
            rows.extend(table::Table::row(&mut results, place)?.map(|entry| entry.result.into_owned()));
        }
    }
    Ok(BatchReport {
        total,
        succeeded,
        failed: total - succeeded,
        skipped,
        results_csv: request.results,
        results_json: json_path,
        rows,
        endpoints: slots.map(|s| s.report()).unwrap_or_default(),
    })
}

/// A go's rows as its tables show them: each row's result once it has one, read back from
/// the JSON table last written or, until the next rewrite, held as its line; and once the go
/// was stopped, its rows not started as `cancelled`, made as they are written rather than
/// held (a million of them would be a gigabyte).
struct Results<'a> {
    rows: &'a [Row],
    each: &'a Each,
    kept: Vec<Option<Kept>>,
    /// The JSON table the rows in it are read back from: the earlier go's, until this go's
    /// first is written.
    table: Option<TableFile>,
    stopped: bool,
}

impl Results<'_> {
    fn not_started(&self, place: usize) -> RowResult {
        row::not_started(place, self.each.shown(&self.rows[place]))
    }
}

impl table::Table for Results<'_> {
    fn places(&self) -> usize {
        self.kept.len()
    }

    fn row(&mut self, place: usize) -> Result<Option<Entry<'_>>, RunError> {
        let number = place + 1;
        let result = match &self.kept[place] {
            Some(Kept::Table(at)) => {
                let table = self.table.as_mut().ok_or_else(|| RunError::environment("results", "no table to read"))?;
                RowResult { row: number, ..table.row_at(*at)? }
            }
            Some(Kept::Held(held)) => match held.result() {
                Ok(row) if row.row == number => {
                    return Ok(Some(Entry { line: Cow::Borrowed(held.line()), result: Cow::Owned(row) }));
                }
                Ok(row) => RowResult { row: number, ..row },
                // Written to the JSON table as it is (a cost that is no number is `null`).
                Err(e) => {
                    let why = format!("this row's result could not be read back ({e}): run it again");
                    let shown = RowResult::new(number, self.each.shown(&self.rows[place]), "error", why);
                    return Ok(Some(Entry { line: Cow::Borrowed(held.line()), result: Cow::Owned(shown) }));
                }
            },
            None if self.stopped => self.not_started(place),
            None => return Ok(None),
        };
        Ok(Some(Entry::of(Cow::Owned(result))))
    }

    fn written(&mut self, place: usize, at: u64) {
        let kept = &mut self.kept[place];
        // A held line that does not read back stays held: the JSON table has it as it is.
        let reads_back = match kept {
            Some(Kept::Table(_)) => true,
            Some(Kept::Held(held)) => held.result().is_ok(),
            None => false,
        };
        if reads_back {
            *kept = Some(Kept::Table(at));
        }
    }

    fn rewritten(&mut self, table: TableFile) {
        self.table = Some(table);
    }

    fn unnoted(&self) -> bool {
        self.stopped
    }
}

/// The pool's slots (none: each run launches its own browser), and the batch's own
/// browsers behind them, launched only when some row will need one.
async fn slots(pool: &BrowserPool, needs_browser: bool) -> Result<(Option<Arc<Slots>>, Vec<SharedBrowser>), RunError> {
    Ok(match pool {
        BrowserPool::Launch => (None, Vec::new()),
        BrowserPool::Endpoints(endpoints) => (Some(Slots::new(endpoints)), Vec::new()),
        BrowserPool::Shared { browsers, max_runs } => {
            let browsers = if needs_browser { launch_shared(*browsers).await? } else { Vec::new() };
            let endpoints: Vec<Endpoint> =
                browsers.iter().map(|b| Endpoint { cdp_url: b.cdp_url().to_owned(), max_runs: *max_runs }).collect();
            (Some(Slots::new(&endpoints)), browsers)
        }
    })
}

/// The batch's own Chromiums, launched one after the other (launching is most of a core's
/// work for a moment: side by side they would only take turns).
async fn launch_shared(count: usize) -> Result<Vec<SharedBrowser>, RunError> {
    let mut browsers = Vec::with_capacity(count);
    for _ in 0..count {
        match SharedBrowser::launch().await {
            Ok(browser) => browsers.push(browser),
            Err(e) => {
                for browser in browsers {
                    browser.close().await;
                }
                return Err(RunError::environment("browser", e.to_string()));
            }
        }
    }
    Ok(browsers)
}

/// The results table's default place: `orders.csv` → `orders.results.csv` beside it.
pub fn default_results(data: &Path) -> PathBuf {
    let stem = data.file_stem().and_then(|s| s.to_str()).unwrap_or("batch");
    data.with_file_name(format!("{stem}.results.csv"))
}

/// Every column must be a parameter of the workflow: a misspelt column would otherwise be
/// a run per row that fails the same way. The error names the line that names the column
/// (a CSV file's header, a JSON row's own line).
pub fn check_columns(workflow: &Workflow, rows: &[Row]) -> Result<(), RunError> {
    for row in rows {
        if let Some(column) = row.columns().iter().find(|k| !workflow.parameters.contains_key(*k)) {
            let declared: Vec<&str> = workflow.parameters.keys().map(String::as_str).collect();
            return Err(RunError::invalid(
                "data",
                format!(
                    "{}:{}: {}",
                    row.file.display(),
                    row.header_line,
                    shorten(format!(
                        "column `{column}` is not a parameter of workflow `{}` (it has: {})",
                        workflow.name,
                        declared.join(", ")
                    ))
                ),
            ));
        }
    }
    Ok(())
}
