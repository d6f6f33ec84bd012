//! Starting, cancelling and reading runs. A run's events are persisted by the run store
//! first, then forwarded to the window over the run's channel.

use statewright_runner::{Browser, Cancel, DemoSite, WorkflowSource, prepare};
use statewright_store::{PageRecord, RunDetail, RunSummary};
use statewright_workbench::ipc::{RunFilter, RunMessage, RunRequest};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};

use statewright_workbench::approve_run_proposals;

use super::blocking;
use crate::AppState;
use crate::error::{CommandError, CommandResult, ErrorCode};

/// Starts a run through the one runner (as `statewright run` does) and returns its id at
/// once; its events follow on `events`, each after it is in the run store.
#[tauri::command(rename_all = "snake_case")]
pub async fn start_run<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    request: RunRequest,
    events: Channel<RunMessage>,
) -> CommandResult<String> {
    let file = state.library.file(&request.workflow)?;
    let mut run = statewright_runner::RunRequest::new(WorkflowSource::File(file), &state.runs_dir);
    run.params = request.params.into_iter().collect();
    run.browser = match request.cdp_url {
        Some(cdp_url) => Browser::Attach { cdp_url },
        None => Browser::Launch { headed: request.headed },
    };
    run.resume = request.resume || request.goal.is_some();
    run.goal = request.goal;
    // The model configured for this user (settings file, environment); none: no LLM stage.
    run.llm = statewright_llm::LlmConfig::resolve(&statewright_llm::Overrides::default())
        .map_err(|e| CommandError::new(ErrorCode::InvalidRun, e.to_string()))?;
    run.demo_site = request.demo_site.then(DemoSite::default);
    run.db = Some(state.db.clone());
    let prepared = prepare(run).await?;
    let id = prepared.id().to_owned();
    let auto_approve = prepared.workflow().config.model_fixes == statewright_workflow::ModelFixes::Auto;
    let cancel = Cancel::new();
    state.live_runs.lock().expect("live runs lock").insert(id.clone(), cancel.clone());
    let run_id = id.clone();
    let run_id_for_fixes = id.clone();
    tauri::async_runtime::spawn(async move {
        prepared
            .execute(cancel, move |event| {
                if events.send(RunMessage::new(event)).is_err() {
                    tracing::debug!("the window stopped listening to the run");
                }
            })
            .await;
        let state = app.state::<AppState>();
        if auto_approve {
            let store = state.store();
            let approved = blocking(move || Ok(approve_run_proposals(&*store.get()?, &run_id_for_fixes, false)?)).await;
            if let Err(e) = approved {
                tracing::warn!("the model's fixes were not saved: {}", e.0.message);
            }
        }
        state.live_runs.lock().expect("live runs lock").remove(&run_id);
    });
    Ok(id)
}

#[tauri::command(rename_all = "snake_case")]
pub fn cancel_run(state: State<'_, AppState>, run_id: String) -> CommandResult<()> {
    let runs = state.live_runs.lock().expect("live runs lock");
    let token =
        runs.get(&run_id).ok_or_else(|| CommandError::new(ErrorCode::NotFound, format!("no live run {run_id}")))?;
    token.cancel("stopped in the app");
    Ok(())
}

#[tauri::command(rename_all = "snake_case")]
pub async fn list_runs(state: State<'_, AppState>, filter: RunFilter) -> CommandResult<Vec<RunSummary>> {
    let store = state.store();
    blocking(move || Ok(store.get()?.list_runs(&filter.into())?)).await
}

/// A stored run with its steps, without their pages (a long run's page texts and element
/// snapshots run to tens of megabytes): the viewer asks for the shown step's with
/// [`open_step_page`].
#[tauri::command(rename_all = "snake_case")]
pub async fn open_run(state: State<'_, AppState>, run_id: String) -> CommandResult<RunDetail> {
    let store = state.store();
    blocking(move || Ok(store.get()?.run_detail(&run_id, false)?)).await
}

/// One step's page: its text and element snapshot (`null` when the step kept none).
#[tauri::command(rename_all = "snake_case")]
pub async fn open_step_page(
    state: State<'_, AppState>,
    run_id: String,
    step: u32,
) -> CommandResult<Option<PageRecord>> {
    let store = state.store();
    blocking(move || Ok(store.get()?.step_page(&run_id, step)?)).await
}
