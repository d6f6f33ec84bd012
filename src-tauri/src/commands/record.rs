//! *Record…*: a person's demonstration in a Chromium window, compiled into a workflow file
//! of the folder (merged into it when the name is taken), by the same code as `statewright
//! record`. It ends when the person closes the tab, reaches `until_url`, or presses *Stop*.

use indexmap::IndexMap;
use statewright_runner::demonstration::{RecordObserver, RecordRequest, record};
use statewright_runner::{Browser, Cancel};
use statewright_workbench::ipc::RecordedWorkflow;
use statewright_workflow::Action;
use tauri::State;

use super::{finished, on_own_thread};
use crate::AppState;
use crate::error::{CommandError, CommandResult, ErrorCode};

/// The key of the recording in the live runs: one at a time.
const RECORDING: &str = "recording";

struct Quiet;

impl RecordObserver for Quiet {
    fn started(&mut self, run_id: &str, url: &str) {
        tracing::info!("recording {run_id} from {url}");
    }

    fn act(&mut self, n: usize, action: &Action, _description: Option<&str>) {
        tracing::debug!("recorded act {n}: {}", action.kind());
    }
}

#[tauri::command(rename_all = "snake_case")]
pub async fn record_workflow(
    state: State<'_, AppState>,
    name: String,
    url: String,
    params: IndexMap<String, String>,
    demo_site: bool,
    until_url: Option<String>,
) -> CommandResult<RecordedWorkflow> {
    let invalid = |m: String| CommandError::new(ErrorCode::InvalidRun, m);
    let (id, path) = state.library.file_for_name(&name)?;
    let until_url = match until_url.filter(|u| !u.trim().is_empty()) {
        Some(u) => Some(regex::Regex::new(&u).map_err(|e| invalid(format!("`{u}` is not a pattern: {e}")))?),
        None => None,
    };
    let cancel = Cancel::new();
    {
        let mut live = state.live_runs.lock().expect("live runs lock");
        if live.contains_key(RECORDING) {
            return Err(invalid("a recording is already under way".into()));
        }
        live.insert(RECORDING.into(), cancel.clone());
    }
    let merged = path.exists();
    let request = RecordRequest {
        url,
        params: params.into_iter().collect(),
        browser: Browser::Launch { headed: true },
        demo_site,
        runs_dir: state.runs_dir.clone(),
        db: Some(state.db.clone()),
        out: Some(path),
        until_url,
    };
    let result = finished(on_own_thread(move || async move { record(request, cancel, &mut Quiet).await })).await;
    state.live_runs.lock().expect("live runs lock").remove(RECORDING);
    let summary = result?;
    Ok(RecordedWorkflow {
        id,
        run_id: summary.run_id,
        acts: summary.acts as u32,
        states: summary.compiled.states as u32,
        actions: summary.compiled.actions as u32,
        merged,
        notes: summary.compiled.notes,
    })
}

/// Ends the recording under way, which then compiles what it has.
#[tauri::command(rename_all = "snake_case")]
pub fn stop_recording(state: State<'_, AppState>) -> CommandResult<()> {
    match state.live_runs.lock().expect("live runs lock").get(RECORDING) {
        Some(cancel) => {
            cancel.cancel("stopped in the app");
            Ok(())
        }
        None => Err(CommandError::new(ErrorCode::NotFound, "no recording is under way")),
    }
}
