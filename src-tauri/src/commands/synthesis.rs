//! *Synthesise from this page*: a prompt-only state of the workflow being edited, written by
//! the model from a page a past run saw. The answer goes back to the editor, unsaved, with
//! the checks the stored page could not decide.

use serde_json::Value;
use statewright_runner::synthesis::{request_from_step, synthesize};
use statewright_workbench::ipc::SynthesizedState;
use statewright_workflow::Workflow;
use tauri::State;

use crate::AppState;
use crate::error::{CommandError, CommandResult, ErrorCode};

#[tauri::command(rename_all = "snake_case")]
pub async fn synthesize_state(
    state: State<'_, AppState>,
    workflow: Value,
    target: String,
    run_id: String,
    step: u32,
) -> CommandResult<SynthesizedState> {
    let invalid = |e: String| CommandError::new(ErrorCode::InvalidSettings, e);
    let workflow: Workflow = serde_json::from_value(workflow).map_err(|e| invalid(e.to_string()))?;
    let config = statewright_llm::LlmConfig::resolve(&statewright_llm::Overrides::default())
        .map_err(|e| invalid(e.to_string()))?
        .ok_or_else(|| invalid("no model is configured (Model… in the top bar)".into()))?;
    let store = state.store();
    let (request, params) = {
        let (wf, target, run_id) = (workflow.clone(), target.clone(), run_id.clone());
        super::blocking(move || {
            request_from_step(&*store.get()?, &wf, &target, &run_id, step)
                .map_err(|e| CommandError::new(ErrorCode::NotFound, e))
        })
        .await?
    };
    let synthesis = synthesize(config, &workflow, &target, request, params)
        .await
        .map_err(|e| CommandError::new(ErrorCode::RunEnvironment, e))?;
    Ok(SynthesizedState { resolution: synthesis.resolution, undecided: synthesis.undecided })
}
