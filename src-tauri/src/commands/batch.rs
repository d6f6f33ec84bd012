//! *Batch…*: the workflow run once per row of a data file, by the same code as `statewright
//! batch`, or *Run with a goal…*'s task file, the model once per task as `statewright agent
//! --tasks` runs it; rows and the report reach the window over the batch's channel, and the
//! results table is written beside the data file.

use std::path::Path;
use std::sync::Arc;

use statewright_runner::agent::AgentRequest;
use statewright_runner::batch::{BatchObserver, Each, RowResult, check_columns, default_results, run_batch};
use statewright_runner::rows::{Nested, read_rows};
use statewright_runner::tasks::read_tasks;
use statewright_runner::{Browser, Cancel, DemoSite, RunRequest, WorkflowSource};
use statewright_workbench::ipc::{BatchMessage, BatchOf, BatchRequest};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};

use super::{finished, on_own_thread};
use crate::AppState;
use crate::error::{CommandError, CommandResult, ErrorCode};

/// Forwards what the batch does to the window.
struct Forward(Channel<BatchMessage>);

impl Forward {
    fn send(&self, message: BatchMessage) {
        if self.0.send(message).is_err() {
            tracing::debug!("the window stopped listening to the batch");
        }
    }
}

impl BatchObserver for Forward {
    fn started(&mut self, row: usize, run_id: &str) {
        self.send(BatchMessage::Started { row, run_id: run_id.to_owned() });
    }

    fn finished(&mut self, result: &RowResult, done: usize, total: usize) {
        self.send(BatchMessage::Finished { result: result.clone(), done, total });
    }

    fn endpoint_dead(&mut self, url: &str, reason: &str) {
        self.send(BatchMessage::EndpointDead { url: url.to_owned(), reason: reason.to_owned() });
    }
}

/// Checks the data (the file, its rows, its columns) and starts the batch; returns its id
/// (for `cancel_batch`). What the rows do follows on `events`.
#[tauri::command(rename_all = "snake_case")]
pub async fn start_batch<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    request: BatchRequest,
    events: Channel<BatchMessage>,
) -> CommandResult<String> {
    let settings = |m: String| CommandError::new(ErrorCode::InvalidSettings, m);
    let llm = statewright_llm::LlmConfig::resolve(&statewright_llm::Overrides::default())
        .map_err(|e| settings(e.to_string()))?;
    let data = Path::new(&request.data);
    let pool = request.pool()?;
    let run_timeout = request.run_timeout()?;
    let concurrency = request.runs_at_a_time(&pool);
    let (runs_dir, db) = (state.runs_dir.clone(), state.db.clone());
    let (defaults, headed, demo_site) = (request.params, request.headed, request.demo_site);
    let (each, rows) = match request.each {
        BatchOf::Workflow { workflow: id } => {
            let file = state.library.file(&id)?;
            let workflow = statewright_workflow::load_file(&file)
                .map_err(|d| CommandError::new(ErrorCode::InvalidRun, d.to_string()))?
                .workflow;
            let rows = read_rows(data, Nested::Refused)?;
            check_columns(&workflow, &rows)?;
            let request_for = Arc::new(move || {
                let mut run = RunRequest::new(WorkflowSource::File(file.clone()), &runs_dir);
                run.params = defaults.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                run.browser = Browser::Launch { headed };
                run.demo_site = demo_site.then(DemoSite::default);
                run.db = Some(db.clone());
                run.llm = llm.clone();
                Ok(run)
            });
            (Each::Workflow { workflow: Box::new(workflow), request_for }, rows)
        }
        BatchOf::Goals { max_steps } => {
            let llm = llm.ok_or_else(|| settings("a task file's goals need a model: set one under Model…".into()))?;
            let tasks = read_tasks(data)?;
            let template = AgentRequest {
                params: defaults.into_iter().collect(),
                browser: Browser::Launch { headed },
                demo_site,
                db: Some(db),
                ..AgentRequest::new(llm, runs_dir).with_max_steps(max_steps)
            };
            (Each::goals(template), tasks)
        }
    };
    let results = default_results(data);
    let batch = statewright_runner::batch::BatchRequest {
        each,
        rows,
        concurrency,
        results,
        pool,
        run_timeout,
        report_rows: true,
    };
    let id = format!("batch-{}", fastrand::u32(..));
    let cancel = Cancel::new();
    state.live_runs.lock().expect("live runs lock").insert(id.clone(), cancel.clone());
    let batch_id = id.clone();
    let events_at_end = events.clone();
    let done = on_own_thread(move || async move { run_batch(batch, cancel, &mut Forward(events)).await });
    tauri::async_runtime::spawn(async move {
        let end = Forward(events_at_end);
        match finished(done).await {
            Ok(report) => end.send(BatchMessage::Done { report }),
            Err(e) => end.send(BatchMessage::Failed { message: e.message }),
        }
        app.state::<AppState>().live_runs.lock().expect("live runs lock").remove(&batch_id);
    });
    Ok(id)
}

/// Stops the batch: rows not started end as cancelled, running ones are cancelled.
#[tauri::command(rename_all = "snake_case")]
pub fn cancel_batch(state: State<'_, AppState>, batch_id: String) -> CommandResult<()> {
    let batches = state.live_runs.lock().expect("live runs lock");
    let token = batches
        .get(&batch_id)
        .ok_or_else(|| CommandError::new(ErrorCode::NotFound, format!("no batch {batch_id} under way")))?;
    token.cancel("stopped in the app");
    Ok(())
}
