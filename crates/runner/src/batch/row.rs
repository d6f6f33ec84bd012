//! One row's run: a browser page for it (from the pool, when there is one), the run, and the
//! row's outcome.

use std::sync::Arc;

use indexmap::IndexMap;
use statewright_chrome::ChromeDriver;
use statewright_engine::{CancellationToken, RunStatus};
use statewright_workflow::Workflow;
use tokio::sync::mpsc::UnboundedSender;

use super::{Progress, RequestFor, RowResult};
use crate::pool::{Lease, Slots};
use crate::request::Browser;
use crate::rows::Row;

/// What every row's run shares.
pub(super) struct Shared {
    pub request_for: Arc<RequestFor>,
    pub workflow: Workflow,
    /// The pool's endpoints (none: each run launches its own browser).
    pub slots: Option<Arc<Slots>>,
    pub tx: UnboundedSender<Progress>,
}

/// The row `i` (0-based) of the data, with its values as the table shows them.
pub(super) struct Job {
    pub i: usize,
    pub row: Row,
    pub values: IndexMap<String, String>,
}

impl Job {
    fn result(&self, status: &str, message: String) -> RowResult {
        RowResult {
            row: self.i + 1,
            values: self.values.clone(),
            status: status.into(),
            end_state: None,
            duration_ms: 0,
            run_id: None,
            message,
            endpoint: None,
            outputs: IndexMap::new(),
        }
    }

    /// The row never ran: the batch was stopped first.
    pub fn cancelled(&self) -> RowResult {
        self.result("cancelled", "the batch was stopped before this row ran".into())
    }
}

pub(super) async fn run_row(job: &Job, shared: &Shared, cancel: CancellationToken) -> RowResult {
    let mut run = match (shared.request_for)() {
        Ok(run) => run,
        Err(e) => return job.result("error", e),
    };
    // The row's values win over the defaults.
    run.params.retain(|(k, _)| !job.row.values.contains_key(k));
    run.params.extend(job.row.values.iter().map(|(k, v)| (k.clone(), v.clone())));

    // A workflow without page checks or actions needs no browser, from the pool or not.
    let pool = shared.slots.as_ref().filter(|_| statewright_world::needs(&shared.workflow).browser);
    let (lease, chrome) = match pool {
        Some(slots) => match attach(slots, &shared.workflow, &shared.tx, &cancel).await {
            Attached::Page(lease, chrome) => (Some(lease), Some(*chrome)),
            Attached::NoneLeft(why) => {
                return job.result("error", format!("no browser endpoint is left to run this row: {why}"));
            }
            Attached::Cancelled => return job.cancelled(),
        },
        None => (None, None),
    };
    if let Some(lease) = &lease {
        run.browser = Browser::Attach { cdp_url: lease.url.clone() };
    }
    let endpoint = lease.as_ref().map(|l| l.shown.clone());
    let mut prepared = match crate::prepare(run).await {
        Ok(prepared) => prepared,
        Err(e) => {
            if let Some(chrome) = chrome {
                chrome.close().await;
            }
            return RowResult { endpoint, ..job.result("error", e.message) };
        }
    };
    prepared.chrome = chrome;
    let running = RowResult {
        run_id: Some(prepared.id().to_owned()),
        endpoint: endpoint.clone(),
        ..job.result("running", String::new())
    };
    let _ = shared.tx.send(Progress::Started(running));
    let summary = prepared.execute(cancel, |_| {}).await;
    drop(lease);
    RowResult {
        row: job.i + 1,
        values: job.values.clone(),
        status: status_name(summary.status).into(),
        end_state: summary.end_state,
        duration_ms: summary.duration_ms,
        run_id: Some(summary.run_id),
        message: summary.message,
        endpoint,
        outputs: summary.outputs,
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
async fn attach(
    slots: &Arc<Slots>,
    workflow: &Workflow,
    tx: &UnboundedSender<Progress>,
    cancel: &CancellationToken,
) -> Attached {
    loop {
        let lease = tokio::select! {
            lease = slots.acquire() => lease,
            () = cancel.cancelled() => return Attached::Cancelled,
        };
        let lease = match lease {
            Ok(lease) => lease,
            Err(why) => return Attached::NoneLeft(why),
        };
        let options = crate::record::chrome_options(workflow, &Browser::Attach { cdp_url: lease.url.clone() }, false);
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
