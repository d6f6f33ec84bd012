//! *Batch…*: the workflow run once per row of a data file, by the same code as `statewright
//! batch`; rows and the report reach the window over the batch's channel, and the results
//! table is written beside the data file.

use std::path::Path;
use std::sync::Arc;

use statewright_runner::batch::{BatchObserver, RowResult, check_columns, default_results, run_batch};
use statewright_runner::rows::read_rows;
use statewright_runner::{Browser, CancellationToken, DemoSite, RunError, RunErrorKind, RunRequest, WorkflowSource};
use statewright_workbench::ipc::{BatchMessage, BatchRequest};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};

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
}

fn command_error(e: RunError) -> CommandError {
    let code = match e.kind {
        RunErrorKind::Invalid => ErrorCode::InvalidRun,
        RunErrorKind::Environment => ErrorCode::RunEnvironment,
    };
    CommandError::new(code, e.message)
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
    let invalid = |m: String| CommandError::new(ErrorCode::InvalidRun, m);
    let file = state.library.file(&request.workflow)?;
    let workflow = statewright_workflow::load_file(&file).map_err(|d| invalid(d.to_string()))?.workflow;
    let data = Path::new(&request.data);
    let rows = read_rows(data).map_err(command_error)?;
    check_columns(&workflow, &rows).map_err(command_error)?;
    let llm = statewright_llm::LlmConfig::resolve(&statewright_llm::Overrides::default())
        .map_err(|e| CommandError::new(ErrorCode::InvalidSettings, e.to_string()))?;
    let batch = statewright_runner::batch::BatchRequest {
        workflow,
        rows,
        concurrency: request.concurrency.unwrap_or(2).clamp(1, 16) as usize,
        results: default_results(data),
    };
    let (runs_dir, db) = (state.runs_dir.clone(), state.db.clone());
    let (defaults, headed, demo_site) = (request.params, request.headed, request.demo_site);
    let request_for = Arc::new(move |row: Vec<(String, String)>| {
        let mut run = RunRequest::new(WorkflowSource::File(file.clone()), &runs_dir);
        run.params = defaults
            .iter()
            .filter(|(k, _)| !row.iter().any(|(r, _)| r == *k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        run.params.extend(row);
        run.browser = Browser::Launch { headed };
        run.demo_site = demo_site.then(DemoSite::default);
        run.db = Some(db.clone());
        run.llm = llm.clone();
        Ok(run)
    });
    let id = format!("batch-{}", fastrand::u32(..));
    let cancel = CancellationToken::new();
    state.live_runs.lock().expect("live runs lock").insert(id.clone(), cancel.clone());
    let batch_id = id.clone();
    // The runs hold run stores (SQLite connections, not `Sync`) across their awaits: the
    // batch runs on a thread of its own, with a runtime of its own.
    std::thread::spawn(move || {
        let mut forward = Forward(events);
        let report = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
            Ok(runtime) => runtime.block_on(run_batch(batch, request_for, cancel, &mut forward)),
            Err(e) => Err(RunError { kind: RunErrorKind::Environment, code: "shell", message: e.to_string() }),
        };
        match report {
            Ok(report) => forward.send(BatchMessage::Done { report }),
            Err(e) => forward.send(BatchMessage::Failed { message: e.message }),
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
    token.cancel();
    Ok(())
}
