//! Healing element checks. When a state is recognised, the other locators of the elements
//! its element checks found are recorded (once a run, beside the actions). When later no
//! state matches, a state whose checks fail only on element checks with such a record is
//! tried with them, most stable first: a match is a `check_healed` event, a proposed change
//! of the workflow, and the run goes on with the healed check, exactly as for actions.
//!
//! Unlike an action's, a check's position path is never tried: a check says which page
//! this is, and "the second section of the body" is on most pages. Only locators by what
//! the element is (a test id, an href, a label) are evidence enough.

use std::time::Duration;

use statewright_workflow::{Check, EscalationStage, SelectorKind, Target};
use tokio::time::Instant;

use crate::driver::{Driver, Probe, Signals};
use crate::event::{Event, Failure, LocatedCheck};
use crate::executor::read::{BUSY, look};
use crate::executor::{End, Plan, Run, deadline};
use crate::heal::is_positional;

/// How long no state must match before element checks are healed: long enough for a page
/// to settle, short against `no_states_timeout`.
const PATIENCE: Duration = Duration::from_secs(1);

/// A wait in which no state matches: since when, and the page as healing last saw it (it
/// is tried once per look of the page).
#[derive(Default)]
pub(crate) struct Unrecognised {
    since: Option<Instant>,
    tried_on: Option<Signals>,
}

impl Unrecognised {
    pub fn since(&mut self, now: Instant) -> Instant {
        *self.since.get_or_insert(now)
    }

    /// A state matches again.
    pub fn end(&mut self) {
        self.since = None;
    }
}

/// A check can only name its element with a selector: the alternatives that are one.
fn as_check(target: &Target) -> Option<Check> {
    let plain = target.role.is_none() && target.name.is_none() && target.text.is_none() && target.nth.is_none();
    let (by, selector) = match (&target.css, &target.xpath) {
        (Some(css), None) if plain => (SelectorKind::Css, css.clone()),
        (None, Some(xpath)) if plain => (SelectorKind::Xpath, xpath.clone()),
        _ => return None,
    };
    Some(Check::Element { by, selector, negate: false })
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn probe_of(check: &Check) -> Option<Probe> {
    match check {
        Check::Element { by, selector, negate: false } => Some(Probe::Element { by: *by, selector: selector.clone() }),
        _ => None,
    }
}

impl Run {
    /// On `state`'s first entry, starts recording other locators of the elements its
    /// (positive) element checks found. Nothing is recorded for a check that shows a secret.
    pub(crate) fn locate_checks<D: Driver>(&mut self, driver: &mut D, signals: &Signals, state: usize) {
        if self.visits[state] != 1 {
            return;
        }
        let passed = self.matcher().check_results(state, signals);
        let checks: Vec<(usize, Check, Probe)> = self.bound.states[state]
            .checks
            .iter()
            .enumerate()
            .filter(|(i, _)| passed.get(*i).is_some_and(|r| r.passed))
            .filter_map(|(i, check)| Some((i, check.clone(), probe_of(check)?)))
            .filter(|(_, check, _)| !self.params.reveals_secret(&json(check)))
            .collect();
        if checks.is_empty() {
            return;
        }
        let probes: Vec<Probe> = checks.iter().map(|(_, _, p)| p.clone()).collect();
        let located = driver.locate(&probes);
        let (events, params, step, name) = (self.events.clone(), self.params.clone(), self.steps, self.name(state));
        self.spawn_recording(async move {
            let found = match located.await {
                Ok(found) => found,
                Err(e) => return tracing::debug!(step, "could not locate the checks' elements: {e}"),
            };
            let checks: Vec<LocatedCheck> = checks
                .into_iter()
                .zip(found)
                .map(|((index, check, _), alternatives)| {
                    // A locator that shows a secret (a token in an href) is not kept.
                    let alternatives = alternatives.into_iter().filter(|t| !params.reveals_secret(&json(t))).collect();
                    LocatedCheck { index, check, alternatives }
                })
                .filter(|c| !c.alternatives.is_empty())
                .collect();
            if !checks.is_empty() {
                let _ = events.send(Event::ChecksLocated { step, state: name, checks });
            }
        });
    }

    /// While no state matches `signals`: once the page has settled, heals the element
    /// checks that keep a state from matching (see `heal_checks`). Returns whether one was.
    pub(crate) async fn heal_unrecognised<D: Driver>(
        &mut self,
        driver: &mut D,
        wait: &mut Unrecognised,
        signals: &Signals,
    ) -> Result<bool, End> {
        let now = Instant::now();
        let since = wait.since(now);
        let heals = self.bound.config.escalation.contains(&EscalationStage::Heal);
        if !heals || now < deadline(since, PATIENCE) || wait.tried_on.as_ref() == Some(signals) {
            return Ok(false);
        }
        wait.tried_on = Some(signals.clone());
        self.heal_checks(driver, signals).await
    }

    /// The escalation chain's heal stage for "no state matched": the page as it is now,
    /// with healed element checks, may be a state.
    pub(crate) async fn heal_no_state<D: Driver>(&mut self, driver: &mut D) -> Result<(String, Option<Plan>), End> {
        let Some(signals) = self.read_now(driver).await? else {
            return Ok((BUSY.to_owned(), None));
        };
        Ok(match self.heal_checks(driver, &signals).await? {
            true => ("healed element checks".to_owned(), Some(Plan::Recognise { handled: None })),
            false => ("no element check could be healed".to_owned(), None),
        })
    }

    /// With no state matching `signals`, tries the recorded alternatives of the element
    /// checks that keep a state from matching, states in priority order. Returns whether a
    /// check was healed (the workflow then uses it, and the page should be read again).
    async fn heal_checks<D: Driver>(&mut self, driver: &mut D, signals: &Signals) -> Result<bool, End> {
        for state in 0..self.bound.states.len() {
            let Some(plan) = self.check_heal_plan(state, signals) else { continue };
            let probes: Vec<Probe> = plan.iter().flat_map(|(_, tries)| tries.iter().filter_map(probe_of)).collect();
            // A page too busy to answer heals nothing now; the run looks at it again.
            let Some(read) = look(driver, &probes, None, Duration::ZERO, self.look_patience(), &self.params).await?
            else {
                return Ok(false);
            };
            let holds = |i: usize| read.results.get(i) == Some(&true) && !read.errors.iter().any(|e| e.index == i);
            // Each failing check takes the first of its alternatives that finds an element.
            let mut next = 0;
            let mut healed = Vec::new();
            for (index, tries) in &plan {
                let found = (next..next + tries.len()).position(holds);
                next += tries.len();
                if let Some(at) = found {
                    healed.push((*index, tries[at].clone()));
                }
            }
            if healed.len() != plan.len() {
                continue;
            }
            let mut template = self.template.clone();
            for (index, to) in healed {
                template.states[state].checks[index] = to.clone();
                tracing::info!(state = %self.name(state), index, "element check healed");
                let from = self.display.states[state].checks[index].clone();
                self.emit(Event::CheckHealed { step: self.steps, state: self.name(state), index, from, to });
            }
            self.rebind(template).map_err(|error| End::Failed(Failure::Setup { error }))?;
            return Ok(true);
        }
        Ok(false)
    }

    /// The checks of `state` that fail on `signals`, by index.
    fn failing_checks(&self, state: usize, signals: &Signals) -> Vec<usize> {
        let results = self.matcher().check_results(state, signals);
        results.iter().enumerate().filter(|(_, r)| !r.passed).map(|(i, _)| i).collect()
    }

    /// For a state that fails only on element checks with recorded alternatives: each such
    /// check with the checks to try instead, most stable first.
    fn check_heal_plan(&self, state: usize, signals: &Signals) -> Option<Vec<(usize, Vec<Check>)>> {
        if self.matcher().is_interrupt(state) {
            return None;
        }
        let failing = self.failing_checks(state, signals);
        if failing.is_empty() {
            return None;
        }
        let name = self.name(state);
        failing
            .into_iter()
            .map(|index| {
                let check = &self.bound.states[state].checks[index];
                probe_of(check)?;
                let recorded = self.options.locators.check_alternatives(&name, index, check);
                let tries: Vec<Check> = recorded.iter().filter(|t| !is_positional(t)).filter_map(as_check).collect();
                (!tries.is_empty()).then_some((index, tries))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(json: serde_json::Value) -> Target {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn only_selectors_become_checks() {
        let css = as_check(&target(serde_json::json!({"css": "a[href=\"/login.html\"]"})));
        assert_eq!(
            css,
            Some(Check::Element { by: SelectorKind::Css, selector: "a[href=\"/login.html\"]".into(), negate: false })
        );
        let xpath = as_check(&target(serde_json::json!({"xpath": "//nav/a[2]"})));
        assert!(matches!(xpath, Some(Check::Element { by: SelectorKind::Xpath, .. })));
        assert_eq!(as_check(&target(serde_json::json!({"role": "link", "name": "Sign in"}))), None);
        assert_eq!(as_check(&target(serde_json::json!({"text": "Sign in"}))), None);
        assert_eq!(
            as_check(&target(serde_json::json!({"css": "a", "nth": 2}))),
            None,
            "a position among matches is not a selector"
        );
    }
}
