//! A second demonstration merged into an existing draft: each situation it saw is matched to
//! a state of the draft whose checks hold on the recorded page; what matches no state (a
//! popup that only showed up this time, an optional page) is added, and so are the
//! transitions it saw that the draft lacks. Nothing of the draft is removed or rewritten.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;
use statewright_workflow::{Check, Diagnostics, State, Workflow, load_file, to_native_json, to_native_json_preserving};

use crate::checks::holds;
use crate::compile::Draft;
use crate::trajectory::Page;

#[derive(Debug, Clone, Default, Serialize)]
pub struct MergeReport {
    /// States added, by name.
    pub added_states: Vec<String>,
    /// Transitions added, as (from, to).
    pub added_transitions: Vec<(String, String)>,
    /// States of the new demonstration recognised as states of the draft: (new, existing).
    pub matched: Vec<(String, String)>,
}

/// The file text of `draft` for the workflow file `out`: merged into the workflow already
/// there, its layout kept so the diff shows what the demonstration added, else the draft on
/// its own. The one way `compile --out` and `record --out` make it; the file is read once.
pub fn draft_text(
    draft: &Draft,
    out: Option<&Path>,
    values: &[(String, String)],
) -> Result<(String, Option<MergeReport>), Diagnostics> {
    match out.filter(|p| p.exists()) {
        Some(path) => {
            let existing = load_file(path)?;
            let (workflow, report) = merge(&existing.workflow, draft, values);
            Ok((to_native_json_preserving(&existing.source, &workflow), Some(report)))
        }
        None => Ok((to_native_json(&draft.workflow), None)),
    }
}

/// `draft` (compiled from the new demonstration) merged into `existing`. `values` are the
/// parameter values the demonstration ran with, to judge the existing checks by.
pub fn merge(existing: &Workflow, draft: &Draft, values: &[(String, String)]) -> (Workflow, MergeReport) {
    let mut values_of: HashMap<&str, &str> =
        existing.parameters.iter().filter_map(|(k, p)| Some((k.as_str(), p.default.as_deref()?))).collect();
    for (k, v) in values {
        values_of.insert(k, v);
    }
    let mut merged = existing.clone();
    let mut report = MergeReport::default();
    let mut name_of: HashMap<String, String> = HashMap::new();
    for state in &draft.workflow.states {
        let page = draft.seen.get(&state.name);
        let known = existing.states.iter().find(|old| {
            old.name == state.name
                || same_checks(&old.checks, &state.checks)
                || page.is_some_and(|p| old.interrupt == state.interrupt && recognises(old, p, &values_of))
        });
        match known {
            Some(old) => {
                report.matched.push((state.name.clone(), old.name.clone()));
                name_of.insert(state.name.clone(), old.name.clone());
            }
            None => {
                let mut added = state.clone();
                added.name = unique_name(&merged, &state.name);
                added.next.clear();
                name_of.insert(state.name.clone(), added.name.clone());
                report.added_states.push(added.name.clone());
                // New states go first among their kind: they were chosen against every page
                // of the new demonstration, so they are narrow enough to come before.
                let at = if added.interrupt { 0 } else { merged.states.iter().take_while(|s| s.interrupt).count() };
                merged.states.insert(at, added);
            }
        }
    }
    for state in &draft.workflow.states {
        let from = &name_of[&state.name];
        for to in &state.next {
            let Some(to) = name_of.get(to) else { continue };
            let Some(target) = merged.states.iter_mut().find(|s| s.name == *from) else { continue };
            if target.terminal.is_none() && !target.interrupt && !target.next.contains(to) && to != from {
                target.next.push(to.clone());
                report.added_transitions.push((from.clone(), to.clone()));
            }
        }
    }
    for (name, value) in values {
        if let Some(p) = draft.workflow.parameters.get(name)
            && !merged.parameters.contains_key(name)
        {
            let mut p = p.clone();
            if !p.secret {
                p.default = Some(value.clone());
            }
            merged.parameters.insert(name.clone(), p);
        }
    }
    for (name, p) in &draft.workflow.parameters {
        merged.parameters.entry(name.clone()).or_insert_with(|| p.clone());
    }
    (merged, report)
}

fn same_checks(a: &[Check], b: &[Check]) -> bool {
    !a.is_empty() && a.len() == b.len() && a.iter().all(|c| b.contains(c))
}

/// Whether `state`'s checks, with the parameters filled in, hold on the recorded page (a
/// check a snapshot cannot judge is given the benefit of the doubt).
fn recognises(state: &State, page: &Page, values: &HashMap<&str, &str>) -> bool {
    !state.checks.is_empty() && state.checks.iter().all(|c| holds(&render(c, values), page) != Some(false))
}

fn render(check: &Check, values: &HashMap<&str, &str>) -> Check {
    let fill = |s: &mut String| {
        for (k, v) in values {
            *s = s.replace(&format!("{{{{{k}}}}}"), v);
        }
    };
    let mut c = check.clone();
    match &mut c {
        Check::Url { value, .. } | Check::Title { value, .. } | Check::Text { value, .. } => fill(value),
        Check::Element { selector, .. } => fill(selector),
        _ => {}
    }
    c
}

fn unique_name(w: &Workflow, name: &str) -> String {
    let mut candidate = name.to_owned();
    let mut n = 2;
    while w.states.iter().any(|s| s.name == candidate) {
        candidate = format!("{name} {n}");
        n += 1;
    }
    candidate
}
