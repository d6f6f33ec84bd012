//! Entering a state: the `StateEntered` event (and the interrupt and advice events it
//! settles), then the page's recording, which runs beside the state's actions. The end of
//! the run waits for the recordings briefly.

use std::time::Duration;

use super::{End, Plan, Resume, Run};
use crate::driver::{Capture, Driver, Signals};
use crate::event::{CheckResult, Event};

/// How long the end of a run waits for the last step's recording.
const OBSERVATION_GRACE: Duration = Duration::from_secs(5);
/// How long it waits for earlier recordings still in flight.
const STRAGGLER_GRACE: Duration = Duration::from_millis(300);

impl Run {
    /// Enters `state` as a new step on the page as `signals` show it, and runs its actions
    /// from `from`, unless a breaker trips or the run reached its goal.
    pub(crate) async fn step<D: Driver>(
        &mut self,
        driver: &mut D,
        signals: &Signals,
        state: usize,
        from: usize,
        attempt: u32,
        resume: Option<Resume>,
    ) -> Result<Plan, End> {
        let reached = self.steer(state)?;
        if let Some(trip) = self.count_entry(state)? {
            return Ok(trip);
        }
        self.enter(driver, signals, state, resume);
        if let Some(end) = reached {
            // The goal is recorded as a step of its own, and its actions are not run: the
            // run was to get here.
            return Err(end);
        }
        self.act(driver, state, from, attempt, resume).await
    }

    pub(crate) fn enter<D: Driver>(&mut self, driver: &mut D, signals: &Signals, index: usize, resume: Option<Resume>) {
        self.steps += 1;
        let step = self.steps;
        let visit = self.visits[index];
        let matcher = self.matcher.as_ref().expect("compiled");
        let state = &self.bound.states[index];
        tracing::debug!(step, state = %state.name, "state entered");
        let also_matched = matcher
            .matching(signals)
            .into_iter()
            .filter(|&i| i != index && !matcher.is_interrupt(i))
            .map(|i| self.bound.states[i].name.clone())
            .collect();
        self.emit(Event::StateEntered {
            step,
            state: state.name.clone(),
            state_index: index,
            visit,
            elapsed_ms: self.elapsed_ms(),
            url: crate::event::recorded(&self.params.redact(&signals.url)),
            checks: matcher
                .check_results(index, signals)
                .into_iter()
                .map(|c| CheckResult { check: self.params.redact(&c.check), ..c })
                .collect(),
            also_matched,
        });
        if matcher.is_interrupt(index) {
            let interrupted = resume.map(|(r, _)| self.name(r));
            self.emit(Event::InterruptEntered { step, state: state.name.clone(), interrupted });
        } else if let Some(advice) = self.pending_advice.as_mut()
            && advice.stuck_at.contains(&state.name)
        {
            advice.entered |= advice.synthesized.as_ref() == Some(&state.name);
        } else if self.pending_advice.is_some() {
            let advice = self.pending_advice.take().expect("checked");
            self.emit(Event::AdviceWorked {
                step,
                model: advice.model,
                resolution: advice.resolution,
                request: advice.request,
            });
        }
        // Recording runs beside the actions; only their input waits for the screenshot. A
        // continuous state (a poller, a round of a game) reacts first: its first visit's
        // screenshot is taken beside its input, and later visits, which would show what the
        // first showed, take none.
        let capture = match (state.continuous, visit) {
            (false, _) => Capture::WithScreenshot,
            (true, 1) => Capture::ScreenshotBeside,
            (true, _) => Capture::WithoutScreenshot,
        };
        let observation = driver.observe(capture);
        let events = self.events.clone();
        let params = self.params.clone();
        let handle = self.spawn_recording(async move {
            match observation.await {
                Ok(mut observation) => {
                    // The page may show a secret (a token in the URL, a typed value); the
                    // record must not.
                    observation.redact(&params);
                    let _ = events.send(Event::Observed { step, observation });
                }
                Err(e) => tracing::warn!(step, "could not record the page: {e}"),
            }
        });
        self.last_observation = Some(handle.id());
        self.locate_checks(driver, signals, index);
    }

    /// Runs a recording of the page beside the run; the run's end waits for it briefly.
    pub(crate) fn spawn_recording(
        &mut self,
        recording: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> tokio::task::AbortHandle {
        self.observations.spawn(recording)
    }

    /// Waits for the recordings still in flight: the last step's for as long as it may
    /// take, the others briefly. A capture that raced a navigation can hang until its own
    /// time-out, and must not hold the end of the run hostage.
    pub(crate) async fn drain_observations(&mut self) {
        let last = self.last_observation;
        let wait_for_last = async {
            while let Some(done) = self.observations.join_next_with_id().await {
                if done.map(|(id, ())| Some(id) == last).unwrap_or(false) {
                    break;
                }
            }
        };
        if tokio::time::timeout(OBSERVATION_GRACE, wait_for_last).await.is_err() {
            tracing::warn!("the last step's recording did not finish");
        }
        let rest = async { while self.observations.join_next().await.is_some() {} };
        if tokio::time::timeout(STRAGGLER_GRACE, rest).await.is_err() {
            tracing::debug!("dropping step recordings that did not finish");
            self.observations.abort_all();
        }
    }
}
