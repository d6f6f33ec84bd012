//! *Judge answers*: the model grades a task file's answers, by the same code as
//! `statewright judge`; each verdict and the report reach the window over the judge's
//! channel, and the verdicts are written into the results table.

use std::path::PathBuf;

use statewright_runner::Cancel;
use statewright_runner::batch::RowResult;
use statewright_runner::judge::{JudgeObserver, JudgeRequest, judge_results};
use statewright_workbench::ipc::{JudgeAnswers, JudgeMessage};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};

use super::{finished, on_own_thread};
use crate::AppState;
use crate::error::{CommandError, CommandResult, ErrorCode};

/// Forwards each verdict to the window.
struct Forward(Channel<JudgeMessage>);

impl Forward {
    fn send(&self, message: JudgeMessage) {
        if self.0.send(message).is_err() {
            tracing::debug!("the window stopped listening to the judge");
        }
    }
}

impl JudgeObserver for Forward {
    fn judged(&mut self, row: &RowResult, done: usize, total: usize) {
        self.send(JudgeMessage::Judged { result: row.clone(), done, total });
    }
}

/// Starts judging; returns its id (`cancel_batch` stops it, keeping the verdicts so far).
#[tauri::command(rename_all = "snake_case")]
pub async fn judge_answers<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    request: JudgeAnswers,
    events: Channel<JudgeMessage>,
) -> CommandResult<String> {
    let settings = |m: String| CommandError::new(ErrorCode::InvalidSettings, m);
    let llm = statewright_llm::LlmConfig::resolve(&statewright_llm::Overrides::default())
        .map_err(|e| settings(e.to_string()))?
        .ok_or_else(|| settings("judging answers needs a model: set one under Model…".into()))?;
    let judge = JudgeRequest {
        results: PathBuf::from(&request.results),
        db: state.db.clone(),
        llm,
        screenshots: request.screenshots.unwrap_or(3).clamp(1, 10) as usize,
        concurrency: 2,
        again: request.again,
    };
    let id = format!("judge-{}", fastrand::u32(..));
    let cancel = Cancel::new();
    state.live_runs.lock().expect("live runs lock").insert(id.clone(), cancel.clone());
    let judge_id = id.clone();
    let events_at_end = events.clone();
    let done = on_own_thread(move || async move { judge_results(judge, cancel, &mut Forward(events)).await });
    tauri::async_runtime::spawn(async move {
        let end = Forward(events_at_end);
        match finished(done).await {
            Ok(report) => end.send(JudgeMessage::Done { report }),
            Err(e) => end.send(JudgeMessage::Failed { message: e.message }),
        }
        app.state::<AppState>().live_runs.lock().expect("live runs lock").remove(&judge_id);
    });
    Ok(id)
}
