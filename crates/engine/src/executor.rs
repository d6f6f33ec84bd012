//! The deterministic executor: recognise the current state, run its actions, repeat until a
//! terminal state, enforcing the workflow's timeouts and limits.
//!
//! Invariants: state order is priority; a non-continuous state runs its actions once per
//! entry; every wait is bounded by a deadline derived from the config; time comes from
//! `tokio::time`, so tests run the whole loop under paused time.

use std::convert::Infallible;
use std::time::Duration;

use statewright_workflow::{Outcome as TerminalOutcome, Params, Workflow};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::act::{ActionRun, StateActions};
use crate::driver::{Driver, DriverError, Signals};
use crate::event::{CheckResult, Event, Failure, RunStatus};
use crate::matcher::Matcher;

/// How long the end of a run waits for the last step's recording.
const OBSERVATION_GRACE: Duration = Duration::from_secs(5);
/// How long it waits for earlier recordings still in flight.
const STRAGGLER_GRACE: Duration = Duration::from_millis(300);

/// How a run ended; the same content as the final `RunFinished` event.
#[derive(Debug, Clone)]
pub struct RunReport {
    pub status: RunStatus,
    pub end_state: Option<String>,
    pub outcome: Option<TerminalOutcome>,
    pub message: String,
    pub failure: Option<Failure>,
    pub duration: Duration,
    pub steps: u32,
    pub actions: u32,
}

/// Runs `workflow` with `params` on `driver`, emitting events, until it ends or `cancel`.
pub async fn run<D: Driver>(
    workflow: &Workflow,
    params: &Params,
    driver: &mut D,
    events: UnboundedSender<Event>,
    cancel: CancellationToken,
) -> RunReport {
    let mut run = Run {
        bound: workflow.bound(params, false),
        display: workflow.bound(params, true),
        params,
        events,
        started: Instant::now(),
        steps: 0,
        actions: 0,
        observations: JoinSet::new(),
        last_observation: None,
    };
    run.emit(Event::RunStarted { workflow: workflow.name.clone(), states: workflow.states.len() });
    let end = tokio::select! {
        result = run.execute(driver) => match result {
            Ok(never) => match never {},
            Err(end) => end,
        },
        () = cancel.cancelled() => End::Cancelled,
    };
    // Observations still in flight belong to this run's record, but a page that stopped
    // answering must not hold the run's end hostage.
    run.drain_observations().await;
    run.finish(end)
}

/// Why the loop stopped, short of success.
enum End {
    Terminal { state: String, outcome: TerminalOutcome, message: String },
    Failed(Failure),
    Cancelled,
}

struct Run<'p> {
    bound: Workflow,
    display: Workflow,
    params: &'p Params,
    events: UnboundedSender<Event>,
    started: Instant,
    steps: u32,
    actions: u32,
    observations: JoinSet<()>,
    /// The recording of the step entered last: the one a reader of the run needs most.
    last_observation: Option<tokio::task::Id>,
}

fn secs(s: f64) -> Duration {
    Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX)
}

/// `from + after`, saturating: a timeout too large for an `Instant` (validation accepts any
/// finite number of seconds) means "never" rather than a panic.
pub(crate) fn deadline(from: Instant, after: Duration) -> Instant {
    from.checked_add(after).unwrap_or_else(|| from + Duration::from_secs(30 * 365 * 86_400))
}

impl Run<'_> {
    fn emit(&self, event: Event) {
        // A closed receiver means nobody listens any more; the run itself goes on.
        let _ = self.events.send(event);
    }

    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Loops until the run ends; every way out is an `End`, terminal states included.
    async fn execute<D: Driver>(&mut self, driver: &mut D) -> Result<Infallible, End> {
        let matcher = Matcher::new(&self.bound).map_err(|error| End::Failed(Failure::Setup { error }))?;
        let config = self.bound.config.clone();
        let transition = secs(config.transition_period);
        let mut signals = self.read(driver, &matcher, None, Duration::ZERO).await?;
        // The last state entered, when its actions finished and the signals just after.
        let mut last: Option<(usize, Instant, Signals)> = None;
        let mut no_state_since: Option<Instant> = None;
        let mut visits = vec![0u32; self.bound.states.len()];
        let mut entries = 0u32;
        loop {
            let matched = matcher.matching(&signals);
            let now = Instant::now();
            let Some(&current) = matched.first() else {
                let since = *no_state_since.get_or_insert(now);
                let deadline = deadline(since, secs(config.no_states_timeout));
                if now >= deadline {
                    let mut closest = matcher.diagnose(&signals, 3);
                    for check in closest.iter_mut().flat_map(|d| d.failing.iter_mut()) {
                        *check = self.params.redact(check);
                    }
                    return Err(End::Failed(Failure::NoState {
                        seconds: config.no_states_timeout,
                        url: self.params.redact(&signals.url),
                        title: self.params.redact(&signals.title),
                        closest,
                    }));
                }
                signals = self.read(driver, &matcher, Some(&signals), transition.min(deadline - now)).await?;
                continue;
            };
            no_state_since = None;
            if matched.len() > 1 && !config.allow_multiple_states {
                let states = matched.iter().map(|&i| self.bound.states[i].name.clone()).collect();
                return Err(End::Failed(Failure::Ambiguous { states }));
            }
            if let Some((previous, done_at, settled)) = &last
                && *previous == current
            {
                let done_at = *done_at;
                let state = &self.bound.states[current];
                // Still in the state just handled: wait for the page to move on.
                let wait_until = if state.continuous {
                    // A continuous state passes again once per transition period, or as soon
                    // as the page changes.
                    if signals != *settled { now } else { deadline(done_at, transition) }
                } else {
                    let stuck_at = deadline(done_at, secs(config.state_timeout));
                    if now >= stuck_at {
                        return Err(End::Failed(Failure::Stuck {
                            state: state.name.clone(),
                            seconds: config.state_timeout,
                        }));
                    }
                    stuck_at
                };
                if now < wait_until {
                    signals = self.read(driver, &matcher, Some(&signals), transition.min(wait_until - now)).await?;
                    continue;
                }
            }
            entries += 1;
            if entries > config.recursion_limit {
                return Err(End::Failed(Failure::RecursionLimit { limit: config.recursion_limit }));
            }
            visits[current] += 1;
            self.enter(driver, &matcher, &signals, current, visits[current]);
            let outcome = self.run_actions(driver, &matcher, current).await?;
            let done_at = Instant::now();
            if let StateActions::Completed = outcome
                && let Some(terminal) = &self.bound.states[current].terminal
            {
                return Err(End::Terminal {
                    state: self.bound.states[current].name.clone(),
                    outcome: terminal.outcome,
                    message: terminal.message.clone(),
                });
            }
            signals = self.read(driver, &matcher, None, Duration::ZERO).await?;
            last = Some((current, done_at, signals.clone()));
        }
    }

    /// Reads signals, optionally waiting for a change. Probe errors are logged once per read.
    async fn read<D: Driver>(
        &self,
        driver: &mut D,
        matcher: &Matcher,
        since: Option<&Signals>,
        timeout: Duration,
    ) -> Result<Signals, End> {
        let signals = driver
            .signals(matcher.probes(), since, timeout)
            .await
            .map_err(|e| End::Failed(Failure::Driver { error: self.params.redact(&e.to_string()) }))?;
        for error in matcher.probe_errors(&signals) {
            tracing::warn!("check could not be evaluated: {}", self.params.redact(&error));
        }
        Ok(signals)
    }

    fn enter<D: Driver>(&mut self, driver: &mut D, matcher: &Matcher, signals: &Signals, index: usize, visit: u32) {
        self.steps += 1;
        let step = self.steps;
        let state = &self.bound.states[index];
        tracing::debug!(step, state = %state.name, "state entered");
        self.emit(Event::StateEntered {
            step,
            state: state.name.clone(),
            state_index: index,
            visit,
            elapsed_ms: self.elapsed_ms(),
            url: self.params.redact(&signals.url),
            checks: matcher
                .check_results(index, signals)
                .into_iter()
                .map(|c| CheckResult { check: self.params.redact(&c.check), ..c })
                .collect(),
        });
        // Recording runs beside the actions so it costs the run no time.
        let observation = driver.observe();
        let events = self.events.clone();
        let params = self.params.clone();
        let handle = self.observations.spawn(async move {
            match observation.await {
                Ok(mut observation) => {
                    // The page may show a secret (a token in the URL, say); the record must not.
                    for field in [&mut observation.url, &mut observation.title, &mut observation.text] {
                        *field = params.redact(field);
                    }
                    let _ = events.send(Event::Observed { step, observation });
                }
                Err(e) => tracing::warn!(step, "could not record the page: {e}"),
            }
        });
        self.last_observation = Some(handle.id());
    }

    /// Waits for the recordings still in flight: the last step's for as long as it may
    /// take, the others briefly. A capture that raced a navigation can hang until its own
    /// time-out, and must not hold the end of the run hostage.
    async fn drain_observations(&mut self) {
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

    async fn run_actions<D: Driver>(
        &mut self,
        driver: &mut D,
        matcher: &Matcher,
        index: usize,
    ) -> Result<StateActions, End> {
        let state = &self.bound.states[index];
        let run = ActionRun {
            step: self.steps,
            state_index: index,
            state: &state.name,
            actions: &state.actions,
            display: &self.display.states[index].actions,
            config: &self.bound.config,
            params: self.params,
            events: &self.events,
            started: self.started,
        };
        let (outcome, performed) = run.execute(driver, matcher).await;
        self.actions += performed;
        match outcome {
            Ok(outcome) => Ok(outcome),
            Err(DriverErrorAt { index: action_index, error }) => Err(End::Failed(match error {
                DriverError::Browser(e) => Failure::Driver { error: self.params.redact(&e) },
                other => Failure::Action {
                    state: state.name.clone(),
                    index: action_index,
                    action: self.display.states[index].actions[action_index].kind().to_owned(),
                    error: self.params.redact(&other.to_string()),
                },
            })),
        }
    }

    fn finish(&self, end: End) -> RunReport {
        let (status, end_state, outcome, message, failure) = match end {
            End::Terminal { state, outcome: TerminalOutcome::Success, message } => {
                (RunStatus::Succeeded, Some(state), Some(TerminalOutcome::Success), message, None)
            }
            End::Terminal { state, outcome: TerminalOutcome::Failure, message } => {
                let failure = Failure::FailureState { state: state.clone(), message: message.clone() };
                (RunStatus::Failed, Some(state), Some(TerminalOutcome::Failure), message, Some(failure))
            }
            End::Failed(failure) => (RunStatus::Failed, None, None, crate::explain::failure(&failure), Some(failure)),
            End::Cancelled => (RunStatus::Cancelled, None, None, "cancelled".to_owned(), None),
        };
        let report = RunReport {
            status,
            end_state,
            outcome,
            message,
            failure,
            duration: self.started.elapsed(),
            steps: self.steps,
            actions: self.actions,
        };
        self.emit(Event::RunFinished {
            status: report.status,
            end_state: report.end_state.clone(),
            outcome: report.outcome,
            message: report.message.clone(),
            failure: report.failure.clone(),
            duration_ms: report.duration.as_millis() as u64,
            steps: report.steps,
            actions: report.actions,
        });
        report
    }
}

/// An action's failure and its index within the state.
pub(crate) struct DriverErrorAt {
    pub index: usize,
    pub error: DriverError,
}
