//! Saving a reviewed fix into the workflow: the run's healed locators and the person's
//! resolution, applied to the workflow file as it is now. Values the run filled in from
//! parameters are put back as `{{name}}` references, so the fix works for other values.

use serde_json::Value;
use statewright_engine::matcher::describe;
use statewright_engine::{Failure, Resolution};
use statewright_store::{Healed, HealedCheck, ReviewItem};
use statewright_workflow::{Check, Params, Target, TargetField, Workflow};

/// Applies the fix to `workflow`; returns one line per change, or an error when there is
/// nothing that can be saved.
pub fn apply(
    workflow: &mut Workflow,
    item: &ReviewItem,
    resolution: &Resolution,
    healed: &Heals,
    run_params: &Value,
) -> Result<Vec<String>, String> {
    let values = param_values(run_params);
    let mut changes = apply_healed(workflow, healed, run_params);
    let failed = item.request.action.as_ref().map(|a| (a.state.clone(), a.index));
    match resolution {
        Resolution::Retry | Resolution::Abort { .. } => {}
        Resolution::Skip => {
            let (state, index) = failed.ok_or("skipping saves nothing: no action failed")?;
            let s = state_mut(workflow, &state)?;
            if index < s.actions.len() {
                s.actions.remove(index);
                changes.push(format!("`{state}` action {}: removed (skipped)", index + 1));
            }
        }
        Resolution::Actions { actions } => {
            let (state, index) =
                failed.ok_or("corrective actions can be saved only in place of a failed action; edit the workflow")?;
            let s = state_mut(workflow, &state)?;
            if index < s.actions.len() {
                s.actions.splice(index..=index, actions.iter().cloned());
                changes.push(format!(
                    "`{state}` action {}: replaced by {} corrective action(s)",
                    index + 1,
                    actions.len()
                ));
            }
        }
        Resolution::DeclareState { state } => {
            let failing = failing_checks(&item.request.failure, state);
            let bound = Params::bind(workflow, &values).ok().map(|p| workflow.bound(&p, false));
            let bound_checks: Vec<String> = bound
                .and_then(|b| b.states.into_iter().find(|s| &s.name == state))
                .map(|s| s.checks.iter().map(describe).collect())
                .unwrap_or_default();
            let s = state_mut(workflow, state)?;
            let mut kept: Vec<Check> = s
                .checks
                .iter()
                .zip(bound_checks.iter())
                .filter(|(_, d)| !failing.contains(d))
                .map(|(c, _)| c.clone())
                .collect();
            for check in &item.request.suggested_checks {
                if !kept.contains(check) {
                    kept.push(check.clone());
                }
            }
            if kept != s.checks {
                s.checks = kept;
                changes.push(format!("`{state}`: checks that failed on this page replaced by checks that hold on it"));
            }
        }
        Resolution::Synthesized { state, checks, actions } => {
            let s = state_mut(workflow, state)?;
            s.checks = checks.clone();
            s.actions = actions.clone();
            changes.push(format!(
                "`{state}`: synthesised from its prompt ({} check(s), {} action(s))",
                checks.len(),
                actions.len()
            ));
        }
        Resolution::NewState { state, before } => {
            let at = match before {
                Some(name) => workflow
                    .states
                    .iter()
                    .position(|s| &s.name == name)
                    .ok_or_else(|| format!("no state `{name}` to insert before"))?,
                None => workflow.states.len(),
            };
            workflow.states.insert(at, (**state).clone());
            changes.push(format!("new state `{}`", state.name));
        }
    }
    if changes.is_empty() {
        return Err(format!(
            "a `{}` resolution changes nothing in the workflow; resolve without --save",
            resolution.kind()
        ));
    }
    Ok(changes)
}

/// What a run healed: action locators and element checks.
#[derive(Debug, Default)]
pub struct Heals {
    pub actions: Vec<Healed>,
    pub checks: Vec<HealedCheck>,
}

impl Heals {
    pub fn of_run(store: &statewright_store::Store, run_id: &str) -> statewright_store::Result<Self> {
        Ok(Self { actions: store.healed(run_id)?, checks: store.healed_checks(run_id)? })
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty() && self.checks.is_empty()
    }
}

/// Replaces each healed action's target (or a drag's `to`), and each healed check, by the
/// locator that worked. A check is replaced only while it is still the one that failed.
pub fn apply_healed(workflow: &mut Workflow, heals: &Heals, run_params: &Value) -> Vec<String> {
    let values = param_values(run_params);
    let mut changes = Vec::new();
    for h in &heals.actions {
        let Some(action) = action_mut(workflow, &h.state, h.index) else { continue };
        if let Some(target) = action.target_in_mut(h.field) {
            let healed = templatize_target(&h.to, &values);
            if *target != healed {
                *target = healed;
                let what = match h.field {
                    TargetField::Target => "locator",
                    TargetField::To => "drop target's locator",
                };
                changes.push(format!("`{}` action {}: {what} healed", h.state, h.index + 1));
            }
        }
    }
    let bound = Params::bind(workflow, &values).ok().map(|p| workflow.bound(&p, false));
    for h in &heals.checks {
        let was = bound.as_ref().and_then(|b| b.states.iter().find(|s| s.name == h.state)?.checks.get(h.index));
        if was != Some(&h.from) {
            continue;
        }
        let Some(check) =
            workflow.states.iter_mut().find(|s| s.name == h.state).and_then(|s| s.checks.get_mut(h.index))
        else {
            continue;
        };
        *check = templatize_check(&h.to, &values);
        changes.push(format!("`{}` check {}: {} → {}", h.state, h.index + 1, describe(&h.from), describe(check)));
    }
    changes
}

fn param_values(run_params: &Value) -> Vec<(String, String)> {
    run_params
        .as_object()
        .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned()))).collect())
        .unwrap_or_default()
}

/// The descriptions of `state`'s checks that failed, as the "no state" diagnosis gave them.
fn failing_checks(failure: &Failure, state: &str) -> Vec<String> {
    match failure {
        Failure::NoState { closest, .. } => {
            closest.iter().filter(|d| d.state == state).flat_map(|d| d.failing.clone()).collect()
        }
        _ => Vec::new(),
    }
}

fn state_mut<'w>(workflow: &'w mut Workflow, name: &str) -> Result<&'w mut statewright_workflow::State, String> {
    workflow
        .states
        .iter_mut()
        .find(|s| s.name == name)
        .ok_or_else(|| format!("the workflow has no state `{name}` any more"))
}

fn action_mut<'w>(
    workflow: &'w mut Workflow,
    state: &str,
    index: usize,
) -> Option<&'w mut statewright_workflow::Action> {
    workflow.states.iter_mut().find(|s| s.name == state)?.actions.get_mut(index)
}

/// `s` with parameter references put back where the run filled in their values.
fn put_back(s: &str, values: &[(String, String)]) -> String {
    let mut out = s.to_owned();
    // Longest values first, so a value containing another is replaced whole.
    let mut sorted: Vec<_> = values.iter().filter(|(_, v)| v.len() >= 3).collect();
    sorted.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    for (name, value) in sorted {
        out = out.replace(value.as_str(), &format!("{{{{{name}}}}}"));
    }
    out
}

/// A healed element check with parameter references put back into its selector.
fn templatize_check(check: &Check, values: &[(String, String)]) -> Check {
    match check {
        Check::Element { by, selector, negate } => {
            Check::Element { by: *by, selector: put_back(selector, values), negate: *negate }
        }
        other => other.clone(),
    }
}

/// Puts parameter references back into a target recorded with the values filled in.
fn templatize_target(target: &Target, values: &[(String, String)]) -> Target {
    let put_back = |s: &Option<String>| s.as_deref().map(|s| put_back(s, values));
    Target {
        css: put_back(&target.css),
        xpath: put_back(&target.xpath),
        text: put_back(&target.text),
        role: target.role.clone(),
        name: put_back(&target.name),
        exact: target.exact,
        nth: target.nth,
    }
}

/// A unified diff of the file, for the person to see before it is written.
pub fn diff(path: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("{path} (now)"), &format!("{path} (with the fix)"))
        .to_string()
}
