//! Self-healing locators: when an action's own target (or a drag's `to`) finds nothing, the
//! other locators recorded the last time it worked are tried, most stable first, then the
//! target itself matched loosely (its text or name in any case, within a longer text).
//! Element checks heal the same way (see `check_heal.rs`).

use std::collections::HashMap;
use std::time::Duration;

use statewright_workflow::{Action, Check, Target, TargetField};

use crate::driver::{Driver, DriverError, Outcome};

/// How long each alternative gets: the page has already settled while the primary
/// target was waited for, so an alternative either finds its element at once or not.
const PATIENCE: Duration = Duration::from_millis(750);

/// Alternatives recorded for a workflow's actions (each element field of them) and element
/// checks, by state name and index. They apply only while the target (or check) is still
/// the one they were recorded for.
#[derive(Debug, Clone, Default)]
pub struct LocatorMemory {
    entries: HashMap<(String, usize, TargetField), (Target, Vec<Target>)>,
    checks: HashMap<(String, usize), (Check, Vec<Target>)>,
}

impl LocatorMemory {
    pub fn insert(&mut self, state: &str, index: usize, field: TargetField, target: Target, alternatives: Vec<Target>) {
        self.entries.insert((state.to_owned(), index, field), (target, alternatives));
    }

    pub fn alternatives(&self, state: &str, index: usize, field: TargetField, target: &Target) -> &[Target] {
        match self.entries.get(&(state.to_owned(), index, field)) {
            Some((recorded, alternatives)) if recorded == target => alternatives,
            _ => &[],
        }
    }

    pub fn insert_check(&mut self, state: &str, index: usize, check: Check, alternatives: Vec<Target>) {
        self.checks.insert((state.to_owned(), index), (check, alternatives));
    }

    pub fn check_alternatives(&self, state: &str, index: usize, check: &Check) -> &[Target] {
        match self.checks.get(&(state.to_owned(), index)) {
            Some((recorded, alternatives)) if recorded == check => alternatives,
            _ => &[],
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len() + self.checks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.checks.is_empty()
    }
}

/// What healing came to.
pub(crate) enum Healing {
    Healed {
        to: Target,
        outcome: Box<Outcome>,
    },
    /// Nothing recorded for this action, or its error is not one healing can help.
    NotApplicable(&'static str),
    Failed {
        tried: usize,
    },
    /// An alternative found its element, but the action's other element (a drag's drop zone,
    /// renamed by the same redesign) is not there either: `error` says so, and healing that
    /// element next, with this alternative kept, may finish the action.
    Partly {
        to: Target,
        error: DriverError,
    },
    /// Alternative `at` found its element but could not act on it (covered, say): the
    /// caller may clear the page of an interrupt and try again from it.
    Blocked {
        at: usize,
    },
    /// The browser failed while trying.
    Broken(DriverError),
}

/// Performs `action` with each of `alternatives`, from the `from`th of those it tries, in
/// the element field `error` says found nothing, until one works.
pub(crate) async fn heal<D: Driver>(
    driver: &mut D,
    action: &Action,
    error: &DriverError,
    alternatives: &[Target],
    from: usize,
) -> Healing {
    if alternatives.is_empty() {
        return Healing::NotApplicable("no alternative locators recorded for this action");
    }
    let Some(field) = error.missing() else {
        return Healing::NotApplicable("the element was found; healing only replaces a locator that finds nothing");
    };
    let alternatives = by_content(alternatives);
    for (at, alternative) in alternatives.iter().enumerate().skip(from) {
        let mut healed = action.clone();
        let Some(target) = healed.target_in_mut(field) else {
            return Healing::NotApplicable("the action has no such element");
        };
        *target = (*alternative).clone();
        match driver.perform(&healed, PATIENCE).await {
            Ok(outcome) => return Healing::Healed { to: (*alternative).clone(), outcome: Box::new(outcome) },
            Err(DriverError::Browser(e)) => return Healing::Broken(DriverError::Browser(e)),
            // Another element of the action is not there either: no other alternative of
            // this one can help; that one may heal next.
            Err(e) if e.missing().is_some_and(|other| other != field) => {
                return Healing::Partly { to: (*alternative).clone(), error: e };
            }
            Err(e @ DriverError::NotActionable { .. }) if e.missing().is_none() => {
                tracing::debug!(?alternative, "alternative found but blocked: {e}");
                return Healing::Blocked { at };
            }
            Err(e) => tracing::debug!(?alternative, "alternative did not work: {e}"),
        }
    }
    Healing::Failed { tried: alternatives.len() }
}

/// Whether a locator finds its element by where it is (`nth` among look-alikes, or a
/// `:nth-of-type` path) rather than by what it is. In repeated structures (result cards,
/// table rows) the element at that position may be another one next time.
pub(crate) fn is_positional(target: &Target) -> bool {
    target.nth.is_some()
        || target.css.as_deref().is_some_and(|css| css.contains(":nth-of-type(") || css.contains(":nth-child("))
}

/// The alternatives to try, in their recorded order: the content-based ones only, when
/// there are any; positional ones only when nothing else was recorded.
fn by_content(alternatives: &[Target]) -> Vec<&Target> {
    let content: Vec<&Target> = alternatives.iter().filter(|t| !is_positional(t)).collect();
    if content.is_empty() { alternatives.iter().collect() } else { content }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(json: serde_json::Value) -> Target {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn only_a_target_by_text_or_name_is_loosened_and_only_once() {
        let text = target(serde_json::json!({"text": "SIGN IN"}));
        let loose = target(serde_json::json!({"text": "SIGN IN", "exact": false}));
        assert_eq!(text.loosened(), Some(loose.clone()));
        assert_eq!(loose.loosened(), None);
        let named = target(serde_json::json!({"role": "button", "name": "Checkout", "nth": 1}));
        assert_eq!(named.loosened().and_then(|t| t.exact), Some(false));
        assert_eq!(target(serde_json::json!({"role": "button"})).loosened(), None);
        assert_eq!(target(serde_json::json!({"css": "#go"})).loosened(), None);
    }

    #[test]
    fn positional_alternatives_give_way_to_content_based_ones() {
        let nth = target(serde_json::json!({"role": "button", "name": "Add to cart", "nth": 3}));
        let path = target(serde_json::json!({"css": "main > div:nth-of-type(4) > button"}));
        let text = target(serde_json::json!({"text": "Add Widget Pro to cart"}));
        let testid = target(serde_json::json!({"css": "[data-testid=\"add-widget-pro\"]"}));
        let recorded = [nth.clone(), testid.clone(), text.clone(), path.clone()];
        assert_eq!(by_content(&recorded), [&testid, &text], "content first, in recorded order; no positions");
        let only_positions = [nth.clone(), path.clone()];
        assert_eq!(by_content(&only_positions), [&nth, &path], "positions when nothing else was recorded");
    }
}
