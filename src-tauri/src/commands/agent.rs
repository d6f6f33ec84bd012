//! *Run with a goal*: the model drives a Chromium window towards a goal in words, one checked
//! step at a time, by the same code as `statewright agent`. Its events reach the window as a
//! workflow run's do (each once it is in the run store); stuck, it waits in the review queue.

use statewright_llm::{LlmConfig, Overrides};
use statewright_runner::agent::{AgentObserver, AgentRequest, run_agent};
use statewright_runner::{Browser, Cancel, Listener};
use statewright_workbench::ipc::{AgentRunRequest, RunMessage};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tokio::sync::oneshot;

use super::{finished, on_own_thread};
use crate::AppState;
use crate::error::{CommandError, CommandResult, ErrorCode};

/// Hands the run's id over as soon as the run is in the store.
struct Started(Option<oneshot::Sender<String>>);

impl AgentObserver for Started {
    fn started(&mut self, run_id: &str, url: &str) {
        tracing::info!("agent run {run_id} from {url}");
        if let Some(tx) = self.0.take() {
            let _ = tx.send(run_id.to_owned());
        }
    }

    fn step(&mut self, n: u32, what: &str) {
        tracing::debug!("agent step {n}: {what}");
    }
}

/// Starts the run and returns its id once it is stored; its events follow on `events`.
#[tauri::command(rename_all = "snake_case")]
pub async fn start_agent_run<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    request: AgentRunRequest,
    events: Channel<RunMessage>,
) -> CommandResult<String> {
    let invalid = |m: String| CommandError::new(ErrorCode::InvalidRun, m);
    if request.goal.trim().is_empty() {
        return Err(invalid("say what the goal is".into()));
    }
    let llm = LlmConfig::resolve(&Overrides::default())
        .map_err(|e| CommandError::new(ErrorCode::InvalidSettings, e.to_string()))?
        .ok_or_else(|| {
            CommandError::new(ErrorCode::InvalidSettings, "a run with a goal needs a model: set one under Model…")
        })?;
    let listener: Listener = Box::new(move |event| {
        if events.send(RunMessage::new(event)).is_err() {
            tracing::debug!("the window stopped listening to the agent run");
        }
    });
    let agent = AgentRequest {
        goal: request.goal,
        url: request.url,
        params: request.params.into_iter().collect(),
        browser: Browser::Launch { headed: request.headed },
        demo_site: request.demo_site,
        db: Some(state.db.clone()),
        listener: Some(listener),
        ..AgentRequest::new(llm, &state.runs_dir).with_max_steps(request.max_steps)
    };
    let cancel = Cancel::new();
    let (started_tx, started_rx) = oneshot::channel();
    let token = cancel.clone();
    let done = on_own_thread(move || async move {
        let mut started = Started(Some(started_tx));
        run_agent(agent, token, &mut started).await.map(|_| ())
    });
    let Ok(id) = started_rx.await else {
        // It ended before it started: say why.
        return Err(match finished(done).await {
            Err(e) => e.into(),
            Ok(()) => CommandError::new(ErrorCode::RunEnvironment, "the run stopped before it started"),
        });
    };
    state.live_runs.lock().expect("live runs lock").insert(id.clone(), cancel);
    let run_id = id.clone();
    tauri::async_runtime::spawn(async move {
        if let Err(e) = finished(done).await {
            tracing::warn!("agent run {run_id}: {}", e.message);
        }
        app.state::<AppState>().live_runs.lock().expect("live runs lock").remove(&run_id);
    });
    Ok(id)
}
