//! Self-healing locators: when an action's own target finds nothing, the other locators
//! recorded the last time it worked are tried, most stable first.

use std::collections::HashMap;
use std::time::Duration;

use statewright_workflow::{Action, Target};

use crate::driver::{Driver, DriverError, Outcome};

/// How long each alternative gets: the page has already settled while the primary
/// target was waited for, so an alternative either finds its element at once or not.
const PATIENCE: Duration = Duration::from_millis(750);

/// Alternatives recorded for a workflow's actions, by state name and action index. They
/// apply only while the action's target is still the one they were recorded for.
#[derive(Debug, Clone, Default)]
pub struct LocatorMemory {
    entries: HashMap<(String, usize), (Target, Vec<Target>)>,
}

impl LocatorMemory {
    pub fn insert(&mut self, state: &str, index: usize, target: Target, alternatives: Vec<Target>) {
        self.entries.insert((state.to_owned(), index), (target, alternatives));
    }

    pub fn alternatives(&self, state: &str, index: usize, target: &Target) -> &[Target] {
        match self.entries.get(&(state.to_owned(), index)) {
            Some((recorded, alternatives)) if recorded == target => alternatives,
            _ => &[],
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// What healing came to.
pub(crate) enum Healing {
    Healed {
        to: Target,
        outcome: Outcome,
    },
    /// Nothing recorded for this action, or its error is not one healing can help.
    NotApplicable(&'static str),
    Failed {
        tried: usize,
    },
    /// The browser failed while trying.
    Broken(DriverError),
}

/// Whether an error means "the element is not there" (rather than covered, disabled…).
fn is_missing(error: &DriverError) -> bool {
    matches!(error, DriverError::NotActionable { reason, .. } if reason == "not_found" || reason == "not_visible")
}

/// Performs `action` with each of `alternatives` as its target until one works.
pub(crate) async fn heal<D: Driver>(
    driver: &mut D,
    action: &Action,
    error: &DriverError,
    alternatives: &[Target],
) -> Healing {
    if alternatives.is_empty() {
        return Healing::NotApplicable("no alternative locators recorded for this action");
    }
    if !is_missing(error) {
        return Healing::NotApplicable("the element was found; healing only replaces a locator that finds nothing");
    }
    for alternative in alternatives {
        let mut healed = action.clone();
        let Some(target) = healed.target_mut() else {
            return Healing::NotApplicable("the action has no target");
        };
        *target = alternative.clone();
        match driver.perform(&healed, PATIENCE).await {
            Ok(outcome) => return Healing::Healed { to: alternative.clone(), outcome },
            Err(DriverError::Browser(e)) => return Healing::Broken(DriverError::Browser(e)),
            Err(e) => tracing::debug!(?alternative, "alternative did not work: {e}"),
        }
    }
    Healing::Failed { tried: alternatives.len() }
}
