//! Performing a reviewer's (or a model's) corrective actions. They run like a state's
//! actions, with interrupts watched: a popup that covers the target while the run waited
//! for its answer is handled as a detour, then the corrections go on where they were.
//! Healing takes the same detour when a popup covers the alternative it is trying.

use statewright_workflow::Action;
use tokio::time::Instant;

use crate::act::StateActions;
use crate::driver::{Driver, DriverError};
use crate::event::Failure;
use crate::executor::{CORRECTION, Context, DriverErrorAt, End, Plan, Run, secs};

/// Interrupts handled during one set of corrections (or one healing) before the run looks
/// at the page afresh instead.
pub(crate) const MAX_DETOURS: u32 = 3;

/// What a detour came to.
pub(crate) enum Detour {
    /// No interrupt covers the page.
    NoInterrupt,
    /// The interrupt's actions ran and it was waited on to go.
    Taken,
    /// A breaker tripped on entering the interrupt: the run does this instead.
    Tripped(Plan),
}

impl Run {
    /// Performs corrective actions (already validated where they were given).
    pub(crate) async fn correct<D: Driver>(&mut self, driver: &mut D, actions: Vec<Action>) -> Result<Plan, End> {
        let mut from = 0;
        let mut detours = 0;
        loop {
            let run = crate::act::ActionRun { actions: &actions, display: &actions, from, ..self.action_run(None, 0) };
            let (outcome, performed) = run.execute(driver, self.matcher()).await;
            match outcome {
                Ok(StateActions::Completed) => return Ok(Plan::Recognise { handled: None }),
                Ok(StateActions::Extracted { index, into, value }) => {
                    self.set_variable(&into, value)?;
                    from = index + 1;
                }
                Ok(StateActions::Skill { index }) => {
                    let failure = Failure::Action {
                        state: CORRECTION.to_owned(),
                        index,
                        action: actions[index].kind().to_owned(),
                        error: "a correction cannot run a skill; run its actions instead".into(),
                    };
                    return Ok(Plan::Escalate { failure, context: Context::default() });
                }
                Ok(StateActions::Preempted) if detours < MAX_DETOURS => {
                    detours += 1;
                    // The last action tried is the one the interrupt blocked: it runs again.
                    from = performed.last().map_or(from, |p| p.index);
                    if let Detour::Tripped(plan) = self.detour(driver).await? {
                        return Ok(plan);
                    }
                }
                Ok(StateActions::Preempted) => return Ok(Plan::Recognise { handled: None }),
                Err(DriverErrorAt { error: DriverError::Browser(e), .. }) => {
                    return Err(End::Failed(Failure::Driver { error: self.params.redact_message(&e) }));
                }
                Err(DriverErrorAt { index, error }) => {
                    let failure = Failure::Action {
                        state: CORRECTION.to_owned(),
                        index,
                        action: actions[index].kind().to_owned(),
                        error: self.params.redact_message(&error.to_string()),
                    };
                    return Ok(Plan::Escalate { failure, context: Context::default() });
                }
            }
        }
    }

    /// Enters the interrupt that covers the page, runs its actions, and waits (up to
    /// `verify_timeout`) for it to go.
    pub(crate) async fn detour<D: Driver>(&mut self, driver: &mut D) -> Result<Detour, End> {
        // A page too busy to answer shows no interrupt to take a detour for.
        let Some(signals) = self.read_now(driver).await? else {
            return Ok(Detour::NoInterrupt);
        };
        let matcher = self.matcher();
        let Some(interrupt) = matcher.top(&matcher.matching(&signals)).filter(|&s| matcher.is_interrupt(s)) else {
            return Ok(Detour::NoInterrupt);
        };
        if let Some(trip) = self.count_entry(interrupt)? {
            return Ok(Detour::Tripped(trip));
        }
        self.enter(driver, &signals, interrupt, None);
        let mut from = 0;
        let outcome = loop {
            let (outcome, _) = self.action_run(Some(interrupt), from).execute(driver, self.matcher()).await;
            match outcome {
                Ok(StateActions::Extracted { index, into, value }) => {
                    self.set_variable(&into, value)?;
                    from = index + 1;
                }
                Ok(StateActions::Skill { index }) => {
                    // An interrupt's skill that fails leaves the interrupt to be handled again.
                    let _ = self.use_skill(driver, interrupt, index).await?;
                    from = index + 1;
                }
                outcome => break outcome,
            }
        };
        if let Err(DriverErrorAt { error: DriverError::Browser(e), .. }) = outcome {
            return Err(End::Failed(Failure::Driver { error: self.params.redact_message(&e) }));
        }
        let deadline = Instant::now() + secs(self.bound.config.verify_timeout);
        let mut signals = signals;
        while self.matcher().matching(&signals).contains(&interrupt) {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            // A page too busy to answer is waited on as one that still shows the interrupt.
            if let Some(answered) = self.read(driver, &signals, deadline - now, deadline).await? {
                signals = answered;
            }
        }
        Ok(Detour::Taken)
    }
}
