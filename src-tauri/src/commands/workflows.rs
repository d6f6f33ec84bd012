//! The workflows folder, through `statewright_workbench::Library`.

use serde_json::Value;
use statewright_workbench::ipc::{OpenedWorkflow, SaveResult, WorkflowEntry};
use statewright_workflow::Diagnostic;
use tauri::State;

use super::blocking;
use crate::AppState;
use crate::error::CommandResult;

#[tauri::command(rename_all = "snake_case")]
pub async fn list_workflows(state: State<'_, AppState>) -> CommandResult<Vec<WorkflowEntry>> {
    let library = state.library.clone();
    blocking(move || Ok(library.list()?)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn open_workflow(state: State<'_, AppState>, id: String) -> CommandResult<OpenedWorkflow> {
    let library = state.library.clone();
    blocking(move || Ok(library.open(&id)?)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn create_workflow(state: State<'_, AppState>, name: String) -> CommandResult<WorkflowEntry> {
    let library = state.library.clone();
    blocking(move || Ok(library.create(&name)?)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn duplicate_workflow(state: State<'_, AppState>, id: String, name: String) -> CommandResult<WorkflowEntry> {
    let library = state.library.clone();
    blocking(move || Ok(library.duplicate(&id, &name)?)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn rename_workflow(state: State<'_, AppState>, id: String, name: String) -> CommandResult<WorkflowEntry> {
    let library = state.library.clone();
    blocking(move || Ok(library.rename(&id, &name)?)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn save_workflow(
    state: State<'_, AppState>,
    id: String,
    workflow: Value,
    expected_hash: Option<String>,
) -> CommandResult<SaveResult> {
    let library = state.library.clone();
    blocking(move || Ok(library.save(&id, &workflow, expected_hash.as_deref())?)).await
}

/// Off the main thread, where a command without `async` would run: validating a workflow of
/// tens of megabytes must not freeze the window while the user types.
#[tauri::command(rename_all = "snake_case")]
pub async fn validate_workflow(state: State<'_, AppState>, workflow: Value) -> CommandResult<Vec<Diagnostic>> {
    let library = state.library.clone();
    blocking(move || Ok(library.validate(&workflow))).await
}
