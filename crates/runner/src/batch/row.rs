//! One row's run: a browser page for it (from the pool, when there is one), the run, and the
//! row's outcome.

use std::sync::Arc;
use std::time::Duration;

use indexmap::IndexMap;
use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_engine::{Cancel, RunStatus};
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::oneshot;

use super::{Each, GoalFor, Progress, RequestFor, RowResult};
use crate::agent::{AgentObserver, AgentRequest, AgentSummary, run_agent};
use crate::error::RunError;
use crate::pool::{Lease, Slots};
use crate::request::Browser;
use crate::rows::Row;
use crate::tasks;

/// What every row's run shares.
pub(super) struct Shared {
    pub each: Each,
    /// The data's rows.
    pub rows: Arc<Vec<Row>>,
    /// The pool's endpoints (none: each run launches its own browser).
    pub slots: Option<Arc<Slots>>,
    pub run_timeout: Option<Duration>,
    pub tx: UnboundedSender<Progress>,
}

/// The row `i` (0-based) of the data, to run.
pub(super) struct Job {
    pub i: usize,
    pub shared: Arc<Shared>,
}

/// Row `i` (0-based), with its values as the table shows them (`shown`), never ran: the
/// batch was stopped first.
pub(super) fn not_started(i: usize, shown: IndexMap<String, String>) -> RowResult {
    RowResult::new(i + 1, shown, "cancelled", "the batch was stopped before this row ran".into())
}

impl Job {
    fn row(&self) -> &Row {
        &self.shared.rows[self.i]
    }

    fn result(&self, status: &str, message: String) -> RowResult {
        RowResult::new(self.i + 1, self.shared.each.shown(self.row()), status, message)
    }

    fn cancelled(&self) -> RowResult {
        not_started(self.i, self.shared.each.shown(self.row()))
    }

    /// The row's run is under way, on `endpoint` when it has a pool's page.
    fn running(&self, run_id: &str, endpoint: Option<&str>) -> RowResult {
        RowResult {
            run_id: Some(run_id.to_owned()),
            endpoint: endpoint.map(str::to_owned),
            ..self.result("running", String::new())
        }
    }
}

pub(super) async fn run_row(job: &Job, cancel: Cancel) -> RowResult {
    let shared = &*job.shared;
    // A run that needs no browser needs none from the pool either.
    let pool = shared.slots.as_ref().filter(|_| shared.each.needs_browser());
    let (lease, chrome) = match pool {
        Some(slots) => match attach(slots, &shared.each, &shared.tx, &cancel).await {
            Attached::Page(lease, chrome) => (Some(lease), Some(*chrome)),
            Attached::NoneLeft(why) => {
                return job.result("error", format!("no browser endpoint is left to run this row: {why}"));
            }
            Attached::Cancelled => return job.cancelled(),
        },
        None => (None, None),
    };
    let page = Page {
        browser: lease.as_ref().map(|l| Browser::Attach { cdp_url: l.url.clone() }),
        endpoint: lease.as_ref().map(|l| l.shown.clone()),
        chrome,
    };
    let endpoint = page.endpoint.clone();
    // The run's own token: the batch's stop reaches it, and so does its time limit.
    let run_cancel = cancel.child();
    let _timer = shared.run_timeout.map(|limit| TimeLimit::start(limit, run_cancel.clone()));
    let result = match &shared.each {
        Each::Workflow { request_for, .. } => {
            workflow_row(job, request_for.as_ref(), page, shared, run_cancel.clone()).await
        }
        Each::Goal(goal_for) => goal_row(job, goal_for.as_ref(), page, shared, run_cancel.clone()).await,
    };
    drop(lease);
    // Only the time limit cancels the run's token without the batch's.
    let timed_out = run_cancel.is_cancelled() && !cancel.is_cancelled() && result.status == "cancelled";
    let result = match shared.run_timeout {
        Some(limit) if timed_out => RowResult {
            status: "timed_out".into(),
            message: format!("took longer than the time limit of a run ({limit:?}) and was stopped"),
            ..result
        },
        _ => result,
    };
    RowResult { endpoint, ..result }
}

/// Cancels a run once its time limit has passed, unless dropped first (the run is over).
struct TimeLimit(tokio::task::JoinHandle<()>);

impl TimeLimit {
    fn start(limit: Duration, run: Cancel) -> TimeLimit {
        TimeLimit(tokio::spawn(async move {
            tokio::time::sleep(limit).await;
            run.cancel(format!("the time limit of a run ({limit:?}) passed"));
        }))
    }
}

impl Drop for TimeLimit {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The page a row's run was given on a pool's endpoint (none of these without a pool).
struct Page {
    browser: Option<Browser>,
    /// The endpoint as shown (credentials masked).
    endpoint: Option<String>,
    chrome: Option<ChromeDriver>,
}

/// The workflow, with the row's values over the defaults.
async fn workflow_row(job: &Job, request_for: &RequestFor, page: Page, shared: &Shared, cancel: Cancel) -> RowResult {
    let mut run = match request_for() {
        Ok(run) => run,
        Err(e) => return closing(page.chrome, job.result("error", e)).await,
    };
    // The row's values win over the defaults.
    run.params.retain(|(k, _)| !job.row().has(k));
    run.params.extend(job.row().values().map(|(k, v)| (k.to_owned(), v.to_owned())));
    if let Some(browser) = page.browser {
        run.browser = browser;
    }
    let mut prepared = match crate::prepare(run).await {
        Ok(prepared) => prepared,
        Err(e) => return closing(page.chrome, job.result("error", e.message)).await,
    };
    prepared.chrome = page.chrome;
    let _ = shared.tx.send(Progress::Started(job.running(prepared.id(), page.endpoint.as_deref())));
    let summary = prepared.execute(cancel, |_| {}).await;
    RowResult {
        end_state: summary.end_state,
        duration_ms: summary.duration_ms,
        run_id: Some(summary.run_id),
        outputs: summary.outputs,
        llm_calls: summary.llm_calls,
        llm_tokens: summary.llm_tokens,
        llm_cost: summary.llm_cost,
        ..job.result(status_name(summary.status), summary.message)
    }
}

/// The model, towards the task's goal from its first page, the task's values over the
/// defaults.
async fn goal_row(job: &Job, goal_for: &GoalFor, page: Page, shared: &Shared, cancel: Cancel) -> RowResult {
    let mut request = match goal_for() {
        Ok(request) => request,
        Err(e) => return closing(page.chrome, job.result("error", e)).await,
    };
    let field = |name: &str| job.row().get(name).unwrap_or_default().to_owned();
    (request.goal, request.url) = (field(tasks::GOAL), field(tasks::URL));
    let values: Vec<(String, String)> = tasks::values(job.row()).map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
    request.params.retain(|(k, _)| !values.iter().any(|(name, _)| name == k));
    request.params.extend(values);
    if let Some(browser) = page.browser {
        request.browser = browser;
    }
    request.chrome = page.chrome;
    let heard = Heard { running: job.running("", page.endpoint.as_deref()), tx: shared.tx.clone() };
    match on_own_thread(request, cancel, heard).await {
        Ok(summary) => RowResult {
            end_state: (summary.status == RunStatus::Succeeded).then(|| crate::agent::GOAL.to_owned()),
            duration_ms: summary.duration_ms,
            run_id: Some(summary.run_id),
            outputs: summary.answer.map(|a| IndexMap::from([("answer".to_owned(), a.into())])).unwrap_or_default(),
            llm_calls: summary.llm_calls,
            llm_tokens: summary.llm_tokens,
            llm_cost: summary.llm_cost,
            ..job.result(status_name(summary.status), summary.message)
        },
        Err(e) => job.result("error", e.message),
    }
}

/// Tells the batch when a goal's run is under way.
struct Heard {
    /// The row as it is while its run is under way, but for the run's id.
    running: RowResult,
    tx: UnboundedSender<Progress>,
}

impl AgentObserver for Heard {
    fn started(&mut self, run_id: &str, _url: &str) {
        let running = RowResult { run_id: Some(run_id.to_owned()), ..self.running.clone() };
        let _ = self.tx.send(Progress::Started(running));
    }

    fn step(&mut self, _n: u32, _what: &str) {}
}

/// The agent's run, on a thread of its own: it keeps the run store at hand across its
/// awaits, which a task of the batch's runtime may not (the store is not `Sync`).
async fn on_own_thread(request: AgentRequest, cancel: Cancel, mut heard: Heard) -> Result<AgentSummary, RunError> {
    let (tx, rx) = oneshot::channel();
    std::thread::spawn(move || {
        let result = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(runtime) => runtime.block_on(run_agent(request, cancel, &mut heard)),
            Err(e) => Err(RunError::environment("runtime", e.to_string())),
        };
        let _ = tx.send(result);
    });
    rx.await.unwrap_or_else(|_| Err(RunError::environment("runtime", "the task's run stopped unexpectedly")))
}

/// `result`, once the page the row was given is closed: the row will not drive it.
async fn closing(chrome: Option<ChromeDriver>, result: RowResult) -> RowResult {
    if let Some(chrome) = chrome {
        chrome.close().await;
    }
    result
}

/// How a row's page is opened on an endpoint: a workflow's viewport, or the agent's page.
fn page_options(each: &Each, cdp_url: &str) -> LaunchOptions {
    let attach = Browser::Attach { cdp_url: cdp_url.to_owned() };
    match each {
        Each::Workflow { workflow, .. } => crate::record::chrome_options(workflow, &attach, false),
        Each::Goal(_) => LaunchOptions { cdp_url: Some(cdp_url.to_owned()), ..LaunchOptions::default() },
    }
}

enum Attached {
    Page(Lease, Box<ChromeDriver>),
    /// Every endpoint is dead; why, for each.
    NoneLeft(String),
    Cancelled,
}

/// A page on some live endpoint of the pool. An endpoint that gives none is marked dead
/// (and announced, once) and the next one is tried: the row's run has not begun.
async fn attach(slots: &Arc<Slots>, each: &Each, tx: &UnboundedSender<Progress>, cancel: &Cancel) -> Attached {
    loop {
        let lease = tokio::select! {
            lease = slots.acquire() => lease,
            () = cancel.cancelled() => return Attached::Cancelled,
        };
        let lease = match lease {
            Ok(lease) => lease,
            Err(why) => return Attached::NoneLeft(why),
        };
        let options = page_options(each, &lease.url);
        let started = tokio::select! {
            started = ChromeDriver::start(&options) => started,
            () = cancel.cancelled() => return Attached::Cancelled,
        };
        match started {
            Ok(chrome) => {
                lease.ran();
                return Attached::Page(lease, Box::new(chrome));
            }
            Err(e) => {
                let (shown, reason) = (lease.shown.clone(), e.to_string());
                tracing::debug!("endpoint {shown} gave no page: {reason}");
                if lease.dead(&reason) {
                    let _ = tx.send(Progress::EndpointDead { url: shown, reason });
                }
            }
        }
    }
}

fn status_name(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Succeeded => "succeeded",
        RunStatus::Failed => "failed",
        RunStatus::Cancelled => "cancelled",
    }
}
