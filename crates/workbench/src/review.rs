//! The checks a resolution must pass before it is handed to the waiting run, and saving
//! the fixes it makes.

use serde_json::{Value, json};
use statewright_engine::Resolution;
use statewright_store::ReviewItem;
use statewright_workflow::load_str;

use crate::{Error, Result};

/// What a resolution adds must itself be valid: corrective actions as a state of their own,
/// a new state (with a fresh name and at least one check) inside a workflow. The same rule
/// as `statewright review resolve`.
pub fn validate_resolution(item: &ReviewItem, resolution: &Resolution) -> Result<()> {
    let states = &item.request.states;
    let mut probe_states = Vec::new();
    match resolution {
        Resolution::DeclareState { state } if !states.contains(state) => {
            return Err(Error::Invalid(format!("the workflow has no state `{state}`")));
        }
        Resolution::Actions { actions } if actions.is_empty() => {
            return Err(Error::Invalid("give at least one corrective action".into()));
        }
        Resolution::Actions { actions } => probe_states.push(
            json!({"name": "corrective actions", "checks": [{"type": "url", "value": "about:blank"}], "actions": actions}),
        ),
        Resolution::NewState { state, before } => {
            if let Some(before) = before.as_ref().filter(|b| !states.contains(b)) {
                return Err(Error::Invalid(format!(
                    "the workflow has no state `{before}` to put the new state before; it has: {}",
                    states.join(", ")
                )));
            }
            if states.contains(&state.name) {
                return Err(Error::Invalid(format!("a state named `{}` already exists", state.name)));
            }
            if state.checks.is_empty() {
                return Err(Error::Invalid("the new state needs at least one check".into()));
            }
            probe_states.push(serde_json::to_value(state).map_err(|e| Error::Invalid(e.to_string()))?);
        }
        _ => return Ok(()),
    }
    probe_states.push(
        json!({"name": "end", "checks": [{"type": "url", "value": "about:blank"}], "terminal": {"outcome": "success"}}),
    );
    let probe = json!({"version": 1, "name": item.summary.workflow, "states": probe_states});
    load_str(&serde_json::to_string_pretty(&probe).unwrap_or_default(), "resolution", "resolution")
        .map(|_| ())
        .map_err(|d| Error::Invalid(format!("the resolution is invalid:\n{d}")))
}

/// A fix applied to a review's workflow file: the diff, and whether it was written.
pub struct SavedFix {
    pub path: String,
    pub diff: String,
    /// One line per change made.
    pub changes: Vec<String>,
    /// The id under which the previous content is kept, when the file was written.
    pub version: Option<i64>,
}

/// Applies a resolution (and the locators the run healed) to the run's workflow file as it
/// is now and validates the result. With `write`, keeps the old content in the store and
/// replaces the file; without, changes nothing (a preview). `statewright review resolve
/// --save` and the app's review panel both save through here.
pub fn save_review_fix(
    store: &statewright_store::Store,
    item: &ReviewItem,
    resolution: &Resolution,
    write: bool,
) -> Result<SavedFix> {
    let summary = &item.summary;
    let healed = crate::fix::Heals::of_run(store, &summary.run_id)?;
    let reason = format!("before review {}", summary.id);
    save_fix(store, summary.workflow_path.clone(), &summary.run_id, &reason, write, |workflow, params| {
        crate::fix::apply(workflow, item, resolution, &healed, params)
    })
}

/// Applies `fix` to run `run_id`'s workflow file at `path` as it is now, validates the
/// result and diffs it; with `write`, keeps the old content in the store (with `reason`)
/// and replaces the file through a rename.
pub fn save_fix(
    store: &statewright_store::Store,
    path: Option<String>,
    run_id: &str,
    reason: &str,
    write: bool,
    fix: impl FnOnce(&mut statewright_workflow::Workflow, &Value) -> std::result::Result<Vec<String>, String>,
) -> Result<SavedFix> {
    let invalid = |m: String| Error::Invalid(m);
    let path = path.ok_or_else(|| invalid("the run did not record its workflow file; cannot save".into()))?;
    let loaded = statewright_workflow::load_file(std::path::Path::new(&path))
        .map_err(|d| invalid(format!("{path} does not load any more:\n{d}")))?;
    let (before, mut workflow) = (loaded.source, loaded.workflow);
    let params = store.run(run_id)?.parameters;
    let changes = fix(&mut workflow, &params).map_err(invalid)?;
    let after = statewright_workflow::to_native_json_preserving(&before, &workflow);
    if let Err(d) = load_str(&after, &path, &workflow.name) {
        return Err(invalid(format!("the fix would make {path} invalid, so nothing was written:\n{d}")));
    }
    let diff = crate::fix::diff(&path, &before, &after);
    let mut version = None;
    if write {
        version = Some(store.keep_workflow_version(&path, &before, &format!("{reason}: {}", changes.join("; ")))?);
        statewright_workflow::write_workflow_text(std::path::Path::new(&path), &after)?;
    }
    Ok(SavedFix { path, diff, changes, version })
}

/// Saves the locators run `run_id` healed into its workflow file (with `write`; without,
/// only the diff). `statewright review save-healed` and the app's run viewer save here.
pub fn save_healed(store: &statewright_store::Store, run_id: &str, write: bool) -> Result<SavedFix> {
    store.run(run_id)?;
    let healed = crate::fix::Heals::of_run(store, run_id)?;
    if healed.is_empty() {
        return Err(Error::Invalid(format!("run {run_id} healed no locator; nothing to save")));
    }
    let path = store.workflow_path(run_id)?;
    let reason = format!("before saving the locators run {run_id} healed");
    save_fix(store, path, run_id, &reason, write, |workflow, params| {
        let changes = crate::fix::apply_healed(workflow, &healed, params);
        if changes.is_empty() { Err("the workflow already has these locators".into()) } else { Ok(changes) }
    })
}

/// Approves a model's open proposal: its fix saved into the run's workflow file (with
/// `write`; without, only the diff), and the proposal closed as approved.
pub fn approve_proposal(store: &statewright_store::Store, item: &ReviewItem, write: bool) -> Result<SavedFix> {
    let resolution = match (&item.summary.proposed_by, &item.summary.resolution) {
        (Some(_), Some(resolution)) => resolution,
        _ => return Err(Error::Invalid(format!("review {} is not a model's proposal", item.summary.id))),
    };
    let saved = save_review_fix(store, item, resolution, write)?;
    if write {
        store.decide_proposal(item.summary.id, true, Some(&saved.path))?;
    }
    Ok(saved)
}

/// Approves the open proposals of run `run_id` (`model_fixes: auto`), or with
/// `synthesized_only` those that made a prompt-only state concrete (`--accept-synthesized`),
/// saving each fix.
pub fn approve_run_proposals(
    store: &statewright_store::Store,
    run_id: &str,
    synthesized_only: bool,
) -> Result<Vec<SavedFix>> {
    store
        .proposals(run_id)?
        .iter()
        .filter(|item| !synthesized_only || matches!(item.summary.resolution, Some(Resolution::Synthesized { .. })))
        .map(|item| approve_proposal(store, item, true))
        .collect()
}
