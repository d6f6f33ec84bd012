//! Review items as the app shows them, and the checks a resolution must pass before it is
//! handed to the waiting run.

use serde_json::{Value, json};
use statewright_engine::Resolution;
use statewright_store::ReviewItem;
use statewright_workflow::load_str;

use crate::{Error, Result};

/// One review as the UI receives it: the item with its escalation request spread out
/// (`failure`, `tried`, page `url`/`title`/`elements`, `action`, `states`, `suggested_checks`).
pub fn review_json(item: &ReviewItem) -> Value {
    let request = &item.request;
    let page = request.observation.as_ref();
    json!({
        "id": item.id,
        "run_id": item.run_id,
        "workflow": item.workflow,
        "workflow_path": item.workflow_path,
        "step": item.step,
        "state": item.state,
        "status": item.status,
        "created_ms": item.created_ms,
        "resolved_ms": item.resolved_ms,
        "reason": item.reason,
        "failure": request.failure,
        "tried": request.tried,
        "screenshot": item.screenshot,
        "url": page.map(|p| p.url.as_str()).unwrap_or_default(),
        "title": page.map(|p| p.title.as_str()).unwrap_or_default(),
        "elements": page.map(|p| p.elements.clone()).filter(Value::is_array).unwrap_or_else(|| json!([])),
        "action": request.action,
        "states": request.states,
        "suggested_checks": request.suggested_checks,
        "resolution": item.resolution,
        "saved_to": item.saved_to,
    })
}

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
        Resolution::NewState { state, .. } => {
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
    let probe = json!({"version": 1, "name": item.workflow, "states": probe_states});
    load_str(&serde_json::to_string_pretty(&probe).unwrap_or_default(), "resolution", "resolution")
        .map(|_| ())
        .map_err(|d| Error::Invalid(format!("the resolution is invalid:\n{d}")))
}
