//! Deleting a workflow or skill to the trash, and restoring it, through
//! `statewright_workbench::Library` (which checks every name the window sends).

use std::time::SystemTime;

use statewright_workbench::ipc::{TrashEntry, WorkflowEntry};
use tauri::State;

use super::blocking;
use crate::AppState;
use crate::error::CommandResult;

#[tauri::command(rename_all = "snake_case")]
pub async fn delete_workflow(state: State<'_, AppState>, id: String) -> CommandResult<TrashEntry> {
    let library = state.library.clone();
    blocking(move || Ok(library.delete(&id, SystemTime::now())?)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn list_trash(state: State<'_, AppState>) -> CommandResult<Vec<TrashEntry>> {
    let library = state.library.clone();
    blocking(move || Ok(library.list_trash()?)).await
}

/// Back under its old name, or under `name`; a taken name is the error `exists`.
#[tauri::command(rename_all = "snake_case")]
pub async fn restore_workflow(
    state: State<'_, AppState>,
    trash_id: String,
    name: Option<String>,
) -> CommandResult<WorkflowEntry> {
    let library = state.library.clone();
    blocking(move || Ok(library.restore(&trash_id, name.as_deref())?)).await
}
