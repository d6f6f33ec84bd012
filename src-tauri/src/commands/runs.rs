//! Starting, cancelling and reading runs. A run's events are persisted by the run store
//! first, then forwarded to the window over the run's channel.

use statewright_engine::CancellationToken;
use statewright_store::{RunDetail, RunSummary};
use statewright_workbench::ipc::{RunFilter, RunRequest};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};

use super::blocking;
use crate::error::{CommandError, CommandResult};
use crate::{AppState, run};

/// Starts a run and returns its id at once; its events follow on `events`.
#[tauri::command(rename_all = "snake_case")]
pub async fn start_run<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    request: RunRequest,
    events: Channel<serde_json::Value>,
) -> CommandResult<String> {
    let file = state.library.file(&request.workflow)?;
    let supplied: Vec<(String, String)> = request.params.into_iter().collect();
    let prepared = run::prepare(file, state.db.clone(), supplied, request.headed, request.demo_site).await?;
    let id = prepared.id.clone();
    let cancel = CancellationToken::new();
    state.live_runs.lock().expect("live runs lock").insert(id.clone(), cancel.clone());
    let run_id = id.clone();
    tauri::async_runtime::spawn(async move {
        run::execute(prepared, events, cancel).await;
        app.state::<AppState>().live_runs.lock().expect("live runs lock").remove(&run_id);
    });
    Ok(id)
}

#[tauri::command(rename_all = "snake_case")]
pub fn cancel_run(state: State<'_, AppState>, run_id: String) -> CommandResult<()> {
    let runs = state.live_runs.lock().expect("live runs lock");
    let token = runs.get(&run_id).ok_or_else(|| CommandError::new("not_found", format!("no live run {run_id}")))?;
    token.cancel();
    Ok(())
}

#[tauri::command(rename_all = "snake_case")]
pub async fn list_runs(state: State<'_, AppState>, filter: RunFilter) -> CommandResult<Vec<RunSummary>> {
    let db = state.db.clone();
    blocking(move || Ok(statewright_store::Store::open(&db)?.list_runs(&filter.into())?)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn open_run(state: State<'_, AppState>, run_id: String) -> CommandResult<RunDetail> {
    let db = state.db.clone();
    blocking(move || Ok(statewright_store::Store::open(&db)?.run_detail(&run_id, true)?)).await
}
