//! The human review queue (filled by the verify/escalate work in the run store).

use serde_json::Value;
use tauri::State;

use crate::AppState;
use crate::error::{CommandError, CommandResult};

fn unavailable() -> CommandError {
    CommandError::new("unavailable", "the review queue is not in this build's run store yet")
}

#[tauri::command(rename_all = "snake_case")]
pub async fn list_reviews(_state: State<'_, AppState>, _status: Option<String>) -> CommandResult<Vec<Value>> {
    Ok(Vec::new())
}

#[tauri::command(rename_all = "snake_case")]
pub async fn show_review(_state: State<'_, AppState>, _id: i64) -> CommandResult<Value> {
    Err(unavailable())
}

#[tauri::command(rename_all = "snake_case")]
pub async fn preview_resolution(_state: State<'_, AppState>, _id: i64, _resolution: Value) -> CommandResult<Value> {
    Err(unavailable())
}

#[tauri::command(rename_all = "snake_case")]
pub async fn resolve_review(
    _state: State<'_, AppState>,
    _id: i64,
    _resolution: Value,
    _save: bool,
) -> CommandResult<()> {
    Err(unavailable())
}
