//! Verification: after a state's actions, the run must show that it moved where it should
//! within `verify_timeout`: one of the state's `next` states, its own `expect` checks, or
//! (for a state with neither) any other state. An interrupt that shows up meanwhile is a
//! detour, after which verification resumes. Not verified → the actions are retried →
//! the escalation chain.

use tokio::time::Instant;

use crate::check_heal::Unrecognised;
use crate::driver::{Driver, Signals};
use crate::event::{Event, Failure};
use crate::executor::{Context, End, Plan, Resume, Run, deadline, secs};

impl Run {
    pub(crate) async fn verify<D: Driver>(
        &mut self,
        driver: &mut D,
        state: usize,
        attempt: u32,
        resume: Option<Resume>,
    ) -> Result<Plan, End> {
        let config = self.bound.config.clone();
        let transition = secs(config.transition_period);
        let waiting_only = self.bound.states[state].actions.is_empty();
        // A state without actions only waits for the page: it has nothing to retry, and
        // gets the longer `state_timeout`.
        let window = if waiting_only { config.state_timeout } else { config.verify_timeout };
        let until = deadline(Instant::now(), secs(window));
        let mut unrecognised = Unrecognised::default();
        // The page as last read (`None`: it did not answer), and as it last answered.
        let mut seen = self.read_now(driver).await?;
        let mut signals = Signals::default();
        let mut heard = false;
        loop {
            let answered = seen.take().map(|page| signals = page).is_some();
            heard |= answered;
            let matcher = self.matcher();
            let now = Instant::now();
            // A page too busy to answer shows no state, as a page between states does.
            let top = if answered { self.top_state(&matcher.matching(&signals))? } else { None };
            let wait_until = match top {
                Some(other) if other != state => {
                    let is_detour = matcher.is_interrupt(other);
                    if is_detour {
                        // An interrupt over an interrupt resumes the original state later.
                        let resume = if matcher.is_interrupt(state) { resume } else { Some((state, attempt)) };
                        self.recognised_on = Some(signals);
                        return Ok(Plan::Enter { state: other, from: 0, attempt: 0, resume });
                    }
                    let was_detour = matcher.is_interrupt(state);
                    self.verified(state, Some(other));
                    if was_detour && let Some((covered, attempt)) = resume {
                        return Ok(Plan::Verify { state: covered, attempt, resume: None });
                    }
                    self.recognised_on = Some(signals);
                    return Ok(Plan::Enter { state: other, from: 0, attempt: 0, resume: None });
                }
                Some(_) => {
                    unrecognised.end();
                    if matcher.expectations_hold(state, &signals) == Some(true) {
                        self.verified(state, None);
                        return Ok(Plan::Recognise { handled: Some((state, now, signals)) });
                    }
                    if now >= until {
                        return Ok(self.not_verified(state, attempt, resume, window, waiting_only));
                    }
                    until
                }
                None => {
                    // The page is between states (loading): the interrupt is gone, or the
                    // state's effect is on its way. `no_states_timeout` bounds the wait. A
                    // busy page says neither, nor whether a check healed.
                    if answered
                        && self.matcher().is_interrupt(state)
                        && let Some((covered, attempt)) = resume
                    {
                        self.verified(state, None);
                        return Ok(Plan::Verify { state: covered, attempt, resume: None });
                    }
                    // A state that fails only on element checks may have had its elements
                    // renamed: its healed checks may match now.
                    if answered && self.heal_unrecognised(driver, &mut unrecognised, &signals).await? {
                        seen = self.read_now(driver).await?;
                        continue;
                    }
                    let give_up = deadline(unrecognised.since(now), secs(config.no_states_timeout));
                    if now >= give_up {
                        let failure = self.no_state(heard.then_some(&signals));
                        return Ok(Plan::Escalate { failure, context: Context::state(state, attempt, resume) });
                    }
                    give_up
                }
            };
            seen = self.read(driver, &signals, transition.min(wait_until - now), wait_until).await?;
        }
    }

    /// Reports that `state`'s actions took effect (`next`: the state the page moved to).
    fn verified(&mut self, state: usize, next: Option<usize>) {
        let s = &self.bound.states[state];
        let via = match next {
            None if s.expect.is_empty() => "change",
            None => "expect",
            Some(_) if s.next.is_empty() => "change",
            Some(n) if s.next.contains(&self.bound.states[n].name) => "next",
            Some(_) => "unlisted",
        };
        if via == "unlisted" {
            tracing::info!(state = %s.name, "moved to a state not listed in `next`");
        }
        self.breakers.verified();
        self.emit(Event::Verified {
            step: self.steps,
            state: s.name.clone(),
            via: via.to_owned(),
            next_state: next.map(|n| self.name(n)),
        });
    }

    /// The page still shows `state` after its window: retry, or escalate.
    fn not_verified(&mut self, state: usize, attempt: u32, resume: Option<Resume>, window: f64, waiting: bool) -> Plan {
        let name = self.name(state);
        let context = Context::state(state, attempt, resume);
        if waiting {
            let failure = Failure::Stuck { state: name, seconds: window };
            return Plan::Escalate { failure, context };
        }
        let forced = self.breakers.failed();
        if let Some(trip) = &forced {
            self.tripped(trip.breaker, trip.count, trip.limit, Some(name.clone()));
        }
        let max = self.bound.config.max_retries;
        if attempt < max && forced.is_none() {
            self.emit(Event::Retrying {
                step: self.steps,
                state: name.clone(),
                attempt: attempt + 1,
                max,
                reason: format!("still in `{name}` {window} s after its actions (verify_timeout)"),
            });
            return Plan::Enter { state, from: 0, attempt: attempt + 1, resume };
        }
        let failure = Failure::NotVerified { state: name, attempts: attempt + 1, seconds: window };
        Plan::Escalate { failure, context }
    }
}
