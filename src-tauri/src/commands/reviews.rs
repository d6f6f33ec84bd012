//! The human review queue, in the run store: list, show, resolve. The waiting run (in this
//! app or in a terminal) polls the store and goes on as soon as the answer is written.

use serde_json::Value;
use statewright_engine::Resolution;
use statewright_workbench::{review_json, validate_resolution};
use tauri::{AppHandle, Emitter, Runtime, State};

use super::blocking;
use crate::error::{CommandError, CommandResult};
use crate::{AppState, REVIEWS_CHANGED};

#[tauri::command(rename_all = "snake_case")]
pub async fn list_reviews(state: State<'_, AppState>, status: Option<String>) -> CommandResult<Vec<Value>> {
    let db = state.db.clone();
    blocking(move || {
        let items = statewright_store::Store::open(&db)?.reviews(true)?;
        Ok(items.iter().filter(|i| status.as_ref().is_none_or(|s| &i.status == s)).map(review_json).collect())
    })
    .await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn show_review(state: State<'_, AppState>, id: i64) -> CommandResult<Value> {
    let db = state.db.clone();
    blocking(move || Ok(review_json(&statewright_store::Store::open(&db)?.review(id)?))).await
}

/// Saving fixes into the workflow file (and previewing them) lives in the CLI for now.
fn saving_unavailable() -> CommandError {
    CommandError::new(
        "unavailable",
        "saving a fix from the app is not wired yet; resolve here without saving, or use \
         `statewright review resolve ID … --save`",
    )
}

#[tauri::command(rename_all = "snake_case")]
pub async fn preview_resolution(_state: State<'_, AppState>, id: i64, resolution: Resolution) -> CommandResult<Value> {
    let _ = (id, resolution);
    Err(saving_unavailable())
}

#[tauri::command(rename_all = "snake_case")]
pub async fn resolve_review<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    resolution: Resolution,
    save: bool,
) -> CommandResult<()> {
    if save {
        return Err(saving_unavailable());
    }
    let db = state.db.clone();
    blocking(move || {
        let store = statewright_store::Store::open(&db)?;
        let item = store.review(id)?;
        if item.status != "open" {
            return Err(CommandError::new("not_open", format!("review {id} is already {}", item.status)));
        }
        if !store.is_recording(&item.run_id) {
            return Err(CommandError::new("not_waiting", format!("review {id}'s run is no longer waiting")));
        }
        validate_resolution(&item, &resolution)?;
        store.resolve_review(id, &resolution, None)?;
        Ok(())
    })
    .await?;
    let _ = app.emit(REVIEWS_CHANGED, id);
    Ok(())
}
