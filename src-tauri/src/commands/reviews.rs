//! The human review queue, in the run store: list, show, resolve. The waiting run (in this
//! app or in a terminal) polls the store and goes on as soon as the answer is written.

use statewright_engine::Resolution;
use statewright_store::ReviewList;
use statewright_workbench::ipc::{FixPreview, HealedSaved};
use statewright_workbench::{ReviewView, save_review_fix, validate_resolution};
use tauri::{AppHandle, Emitter, Runtime, State};

use super::blocking;
use crate::error::{CommandError, CommandResult, ErrorCode};
use crate::{AppState, REVIEWS_CHANGED};

/// Closed reviews the list holds unless asked for more.
const CLOSED_REVIEWS_LISTED: u32 = 50;

/// The queue the window polls: every open review and the `limit` latest closed ones (50
/// unless given), each without its page, and how many are closed in all. A review's page
/// and the rest of its request come from `show_review`.
#[tauri::command(rename_all = "snake_case")]
pub async fn list_reviews(state: State<'_, AppState>, limit: Option<u32>) -> CommandResult<ReviewList> {
    let store = state.store();
    let limit = limit.unwrap_or(CLOSED_REVIEWS_LISTED) as usize;
    blocking(move || Ok(store.get()?.review_list(limit)?)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn show_review(state: State<'_, AppState>, id: i64) -> CommandResult<ReviewView> {
    let store = state.store();
    blocking(move || Ok(ReviewView::of(&store.get()?.review(id)?))).await
}

/// The diff that saving this resolution would make to the workflow file; writes nothing.
#[tauri::command(rename_all = "snake_case")]
pub async fn preview_resolution(
    state: State<'_, AppState>,
    id: i64,
    resolution: Resolution,
) -> CommandResult<FixPreview> {
    let store = state.store();
    blocking(move || {
        let store = store.get()?;
        let item = store.review(id)?;
        validate_resolution(&item, &resolution)?;
        let fix = save_review_fix(&store, &item, &resolution, false)?;
        Ok(FixPreview { diff: fix.diff, path: fix.path })
    })
    .await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn resolve_review<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    resolution: Resolution,
    save: bool,
) -> CommandResult<()> {
    let store = state.store();
    blocking(move || {
        let store = store.get()?;
        let item = store.review(id)?;
        let summary = &item.summary;
        if summary.status != "open" {
            return Err(CommandError::new(ErrorCode::NotOpen, format!("review {id} is already {}", summary.status)));
        }
        if !store.is_recording(&summary.run_id) {
            return Err(CommandError::new(ErrorCode::NotWaiting, format!("review {id}'s run is no longer waiting")));
        }
        validate_resolution(&item, &resolution)?;
        // The file is written before the run hears the answer, so a run that goes on to
        // re-read its workflow (or the next run) sees the fix.
        let saved_to = if save { Some(save_review_fix(&store, &item, &resolution, true)?.path) } else { None };
        store.resolve_review(id, &resolution, saved_to.as_deref())?;
        Ok(())
    })
    .await?;
    let _ = app.emit(REVIEWS_CHANGED, id);
    Ok(())
}

/// The locators a run healed, into its workflow file (`write`), or only their diff.
#[tauri::command(rename_all = "snake_case")]
pub async fn save_healed_locators(
    state: State<'_, AppState>,
    run_id: String,
    write: bool,
) -> CommandResult<HealedSaved> {
    let store = state.store();
    blocking(move || {
        let store = store.get()?;
        let saved = statewright_workbench::save_healed(&store, &run_id, write)?;
        Ok(HealedSaved { path: saved.path, diff: saved.diff, changes: saved.changes, version: saved.version })
    })
    .await
}

/// Approves (the fix saved into the workflow file) or rejects a model's proposal.
#[tauri::command(rename_all = "snake_case")]
pub async fn decide_proposal<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    approve: bool,
) -> CommandResult<()> {
    let store = state.store();
    blocking(move || {
        let store = store.get()?;
        let item = store.review(id)?;
        let summary = &item.summary;
        if summary.status != "open" {
            return Err(CommandError::new(ErrorCode::NotOpen, format!("review {id} is already {}", summary.status)));
        }
        if approve {
            statewright_workbench::approve_proposal(&store, &item, true)?;
        } else {
            store.decide_proposal(id, false, None)?;
        }
        Ok(())
    })
    .await?;
    let _ = app.emit(REVIEWS_CHANGED, id);
    Ok(())
}
