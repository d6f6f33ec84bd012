//! The executor: recognise the current state, run its actions, verify that the run moved
//! on (retrying, then escalating when it did not), repeat until a terminal state, enforcing
//! the workflow's timeouts, limits and circuit breakers. The loop is a sequence of
//! [`Plan`]s; verification lives in `verify.rs`, the escalation chain in `escalate.rs`,
//! entering a state (its event and the recording beside its actions) in `executor/enter.rs`
//! and the looks at the page, which may be too busy to answer, in `executor/read.rs`.
//!
//! Invariants: state order is priority; a non-continuous state runs its actions once per
//! entry; every wait is bounded by a deadline derived from the config; time comes from
//! `tokio::time`, so tests run the whole loop under paused time.

mod enter;
pub(crate) mod read;

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use indexmap::IndexMap;

use statewright_workflow::{Action, Outcome as TerminalOutcome, Params, Workflow};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::act::{ActionRun, StateActions};
use crate::breakers::{Breakers, PageWatch};
use crate::cancel::Cancel;
use crate::check_heal::Unrecognised;

use crate::driver::{Driver, DriverError, Signals};
use crate::event::{Event, Failure, RunStatus};
use crate::goal::Goal;
use crate::heal::LocatorMemory;
use crate::matcher::Matcher;
use crate::review::{Advisor, Reviewer};

/// The state name under which a reviewer's corrective actions are reported.
pub const CORRECTION: &str = "(correction)";

/// How long an unrecognised page waits before a prompt-only state is synthesised from it.
const SYNTHESIS_PATIENCE: Duration = Duration::from_secs(3);

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
    /// The run's variables as last extracted (secret ones masked).
    pub outputs: IndexMap<String, serde_json::Value>,
}

/// What a run may lean on beyond the workflow: recorded locators to heal with, and the
/// LLM and human ends of the escalation chain (each skipped when absent).
#[derive(Default, Clone)]
pub struct RunOptions {
    pub locators: LocatorMemory,
    pub advisor: Option<Arc<dyn Advisor>>,
    pub reviewer: Option<Arc<dyn Reviewer>>,
    /// Go to a state rather than to a terminal: the run ends when it is recognised.
    pub goal: Option<Goal>,
    /// The skills `use_skill` actions may run, by name.
    pub skills: Skills,
    /// When the run began, if before the engine started (its browser is launched first):
    /// its duration counts from then, as its record's start does.
    pub began: Option<Instant>,
}

/// Skills by name, loaded and validated by whoever starts the run.
pub type Skills = Arc<std::collections::HashMap<String, Workflow>>;

/// Runs `workflow` with `params` on `driver`, emitting events, until it ends or `cancel`.
pub async fn run<D: Driver>(
    workflow: &Workflow,
    params: &Params,
    driver: &mut D,
    events: UnboundedSender<Event>,
    cancel: Cancel,
    options: RunOptions,
) -> RunReport {
    let mut run = Run::new(workflow, params.clone(), options, events, Instant::now());
    run.emit(Event::RunStarted { workflow: workflow.name.clone(), states: workflow.states.len() });
    let end = tokio::select! {
        result = run.execute(driver) => match result {
            Ok(never) => match never {},
            Err(end) => end,
        },
        () = cancel.cancelled() => End::Cancelled(cancel.message()),
    };
    // Observations still in flight belong to this run's record, but a page that stopped
    // answering must not hold the run's end hostage.
    run.drain_observations().await;
    run.finish(end)
}

/// Why the loop stopped, short of success.
pub(crate) enum End {
    Terminal {
        state: String,
        outcome: TerminalOutcome,
        message: String,
    },
    Failed(Failure),
    /// With the message saying why.
    Cancelled(String),
}

/// What the run does next. Each step of the loop turns one plan into the next.
pub(crate) enum Plan {
    /// Recognise the page. `handled` is the state whose actions just ran and may keep
    /// matching for a while (a continuous state, or one verified by its expectations).
    Recognise { handled: Option<(usize, Instant, Signals)> },
    /// Enter `state` as a new step and run its actions from `from`.
    Enter { state: usize, from: usize, attempt: u32, resume: Option<Resume> },
    /// Run the rest of the current step's actions (after a healed or skipped one).
    Continue { state: usize, from: usize, attempt: u32, resume: Option<Resume> },
    /// Wait for the effect of `state`'s actions.
    Verify { state: usize, attempt: u32, resume: Option<Resume> },
    /// Something failed: run the escalation chain.
    Escalate { failure: Failure, context: Context },
    /// Perform a reviewer's corrective actions, then recognise the page.
    Correct { actions: Vec<Action> },
}

/// The state an interrupt covered, and its retry count: verification resumes there.
pub(crate) type Resume = (usize, u32);

/// Where a failure happened, for the escalation chain.
#[derive(Default)]
pub(crate) struct Context {
    pub state: Option<usize>,
    /// The failed action's index and error.
    pub action: Option<(usize, DriverError)>,
    pub attempt: u32,
    pub resume: Option<Resume>,
}

impl Context {
    pub fn state(state: usize, attempt: u32, resume: Option<Resume>) -> Self {
        Self { state: Some(state), attempt, resume, action: None }
    }
}

pub(crate) struct Run {
    /// The workflow as written, with the states a reviewer or the model added: bound anew
    /// (into `bound` and `display`) whenever a variable is set.
    pub template: Workflow,
    pub bound: Workflow,
    pub display: Workflow,
    /// Compiled from `bound`; rebuilt when a reviewer adds a state or a variable is set.
    pub matcher: Option<Matcher>,
    /// The run's parameters, and its variables as extracted so far.
    pub params: Params,
    /// The variables' values as extracted, for the run's report (secrets masked).
    pub outputs: IndexMap<String, serde_json::Value>,
    pub options: RunOptions,
    pub events: UnboundedSender<Event>,
    pub started: Instant,
    pub steps: u32,
    pub actions: crate::act::Tally,
    /// How many skills deep this run is (0: the workflow itself).
    pub depth: u32,
    pub entries: u32,
    pub visits: Vec<u32>,
    pub breakers: Breakers,
    /// Whether the page was seen to change since the last action (see `Breakers::acted`):
    /// set by every read, which takes `&self`, and by a variable read anew.
    pub(crate) page: PageWatch,
    observations: JoinSet<()>,
    /// The recording of the step entered last: the one a reader of the run needs most.
    last_observation: Option<tokio::task::Id>,
    /// With a goal: the states the run expects to pass through, from the current one.
    pub route: Vec<String>,
    /// The situations the model was asked about (see `escalate::advice_key`).
    pub advised: std::collections::HashSet<String>,
    /// The model's last resolution, until the run shows whether it worked.
    pub(crate) pending_advice: Option<crate::escalate::PendingAdvice>,
    /// The page as read when the state about to be entered was recognised: entering it
    /// need not read the page again (a round trip between seeing a target and acting).
    pub(crate) recognised_on: Option<Signals>,
    /// The state entered last.
    pub(crate) entered_last: Option<usize>,
}

pub(crate) fn secs(s: f64) -> Duration {
    Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX)
}

/// `from + after`, saturating: a timeout too large for an `Instant` (validation accepts any
/// finite number of seconds) means "never" rather than a panic.
pub(crate) fn deadline(from: Instant, after: Duration) -> Instant {
    from.checked_add(after).unwrap_or_else(|| from + Duration::from_secs(30 * 365 * 86_400))
}

impl Run {
    /// A run of `workflow` that has not started yet (a skill's, with its caller's clock).
    pub(crate) fn new(
        workflow: &Workflow,
        params: Params,
        options: RunOptions,
        events: UnboundedSender<Event>,
        started: Instant,
    ) -> Self {
        let bound = workflow.bound(&params, false);
        Run {
            template: workflow.clone(),
            outputs: IndexMap::new(),
            breakers: Breakers::new(&bound.config.breakers, bound.states.len()),
            page: PageWatch::default(),
            visits: vec![0; bound.states.len()],
            entries: 0,
            matcher: None,
            bound,
            display: workflow.bound(&params, true),
            params,
            options,
            events,
            started,
            steps: 0,
            actions: Default::default(),
            depth: 0,
            observations: JoinSet::new(),
            last_observation: None,
            route: Vec::new(),
            advised: std::collections::HashSet::new(),
            pending_advice: None,
            recognised_on: None,
            entered_last: None,
        }
    }

    pub fn emit(&self, event: Event) {
        // A closed receiver means nobody listens any more; the run itself goes on.
        let _ = self.events.send(event);
    }

    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    pub fn matcher(&self) -> &Matcher {
        self.matcher.as_ref().expect("compiled before the loop starts")
    }

    /// The state the page is in, of the states that match it (`Matcher::top`). Several
    /// states of the page (interrupts aside) end the run when the workflow does not allow
    /// that, wherever the run sees them: looking for a state, verifying one, re-observing.
    pub(crate) fn top_state(&self, matched: &[usize]) -> Result<Option<usize>, End> {
        let matcher = self.matcher();
        let pages: Vec<usize> = matched.iter().copied().filter(|&i| !matcher.is_interrupt(i)).collect();
        if pages.len() > 1 && !self.bound.config.allow_multiple_states {
            let states = pages.iter().map(|&i| self.name(i)).collect();
            return Err(End::Failed(Failure::Ambiguous { states }));
        }
        Ok(matcher.top(matched))
    }

    pub fn name(&self, state: usize) -> String {
        self.bound.states[state].name.clone()
    }

    /// Loops until the run ends; every way out is an `End`, terminal states included.
    pub(crate) async fn execute<D: Driver>(&mut self, driver: &mut D) -> Result<Infallible, End> {
        self.matcher =
            Some(Matcher::new(&self.bound, &self.params).map_err(|error| End::Failed(Failure::Setup { error }))?);
        let mut plan = Plan::Recognise { handled: None };
        loop {
            plan = match plan {
                Plan::Recognise { handled } => self.recognise(driver, handled).await?,
                Plan::Enter { state, from, attempt, resume } => {
                    let signals = match self.recognised_on.take() {
                        Some(signals) => Some(signals),
                        None => self.read_now(driver).await?,
                    };
                    match signals {
                        Some(signals) => self.step(driver, &signals, state, from, attempt, resume).await?,
                        // A page too busy to answer is recognised again once it does.
                        None => Plan::Recognise { handled: None },
                    }
                }
                Plan::Continue { state, from, attempt, resume } => {
                    self.act(driver, state, from, attempt, resume).await?
                }
                Plan::Verify { state, attempt, resume } => self.verify(driver, state, attempt, resume).await?,
                Plan::Escalate { failure, context } => self.escalate(driver, failure, context).await?,
                Plan::Correct { actions } => self.correct(driver, actions).await?,
            };
        }
    }

    /// Waits until the page is a state and returns the plan to enter it.
    async fn recognise<D: Driver>(
        &mut self,
        driver: &mut D,
        handled: Option<(usize, Instant, Signals)>,
    ) -> Result<Plan, End> {
        let config = self.bound.config.clone();
        let transition = secs(config.transition_period);
        // The page as last read (`None`: it did not answer), and as it last answered.
        let mut seen = self.read_now(driver).await?;
        let mut signals = Signals::default();
        let mut heard = false;
        let mut unrecognised = Unrecognised::default();
        // Whether any read since the handled state's actions showed another page: a target
        // that went and came back (a new round) looks the same as one that stayed.
        let mut moved = false;
        loop {
            let answered = seen.take().map(|page| signals = page).is_some();
            heard |= answered;
            if answered && let Some((_, _, settled)) = &handled {
                moved |= signals != *settled;
            }
            let matcher = self.matcher();
            // A page too busy to answer shows no state: `no_states_timeout` bounds the wait.
            let matched = if answered { matcher.matching(&signals) } else { Vec::new() };
            let now = Instant::now();
            let Some(current) = self.top_state(&matched)? else {
                // A state that fails only on element checks may have had its elements renamed.
                if answered && self.heal_unrecognised(driver, &mut unrecognised, &signals).await? {
                    seen = self.read_now(driver).await?;
                    continue;
                }
                let deadline = deadline(unrecognised.since(now), self.no_state_patience());
                if now >= deadline {
                    let failure = self.no_state(heard.then_some(&signals));
                    return Ok(Plan::Escalate { failure, context: Context::default() });
                }
                seen = self.read(driver, &signals, transition.min(deadline - now), deadline).await?;
                continue;
            };
            unrecognised.end();
            if let Some((previous, done_at, _)) = &handled
                && *previous == current
            {
                let state = &self.bound.states[current];
                // Still in the state just handled: wait for the page to move on.
                let wait_until = if state.continuous {
                    // A continuous state passes again once per transition period, or as soon
                    // as the page changes.
                    if moved { now } else { deadline(*done_at, transition) }
                } else {
                    let stuck_at = deadline(*done_at, secs(config.state_timeout));
                    if now >= stuck_at {
                        let failure = Failure::Stuck { state: state.name.clone(), seconds: config.state_timeout };
                        return Ok(Plan::Escalate { failure, context: Context::state(current, 0, None) });
                    }
                    stuck_at
                };
                if now < wait_until {
                    seen = self.read(driver, &signals, transition.min(wait_until - now), wait_until).await?;
                    continue;
                }
            }
            self.recognised_on = Some(signals);
            return Ok(Plan::Enter { state: current, from: 0, attempt: 0, resume: None });
        }
    }

    /// How long no state may match: `no_states_timeout`, but with prompt-only states and a
    /// model to synthesise them, only until the page has had time to settle.
    fn no_state_patience(&self) -> Duration {
        let timeout = secs(self.bound.config.no_states_timeout);
        if self.options.advisor.is_some() && self.display.states.iter().any(|s| s.awaits_synthesis()) {
            timeout.min(SYNTHESIS_PATIENCE)
        } else {
            timeout
        }
    }

    /// The "no state matched" failure for the page as `signals` show it (`None`: the page
    /// did not answer once while the run waited).
    pub fn no_state(&self, signals: Option<&Signals>) -> Failure {
        let Some(signals) = signals else {
            let seconds = self.bound.config.no_states_timeout;
            return Failure::NoState {
                seconds,
                url: String::new(),
                title: String::new(),
                closest: Vec::new(),
                silent: true,
            };
        };
        let mut closest = self.matcher().diagnose(signals, 3);
        for check in closest.iter_mut().flat_map(|d| d.failing.iter_mut()) {
            *check = self.params.redact(check);
        }
        Failure::NoState {
            seconds: self.bound.config.no_states_timeout,
            url: crate::event::recorded(&self.params.redact(&signals.url)),
            title: crate::event::recorded(&self.params.redact(&signals.title)),
            closest,
            silent: false,
        }
    }

    /// Counts a state entry against the step budget and the breakers; a tripped breaker
    /// becomes an escalation.
    pub(crate) fn count_entry(&mut self, state: usize) -> Result<Option<Plan>, End> {
        self.entries += 1;
        let limit = self.bound.config.recursion_limit;
        if self.entries > limit {
            self.tripped("steps", self.entries, limit, None);
            return Err(End::Failed(Failure::RecursionLimit { limit }));
        }
        self.visits[state] += 1;
        self.entered_last = Some(state);
        let interrupt = self.matcher().is_interrupt(state);
        Ok(self.breakers.entered(state, interrupt).map(|trip| self.trip(trip, state)))
    }

    /// Reports a tripped breaker and plans the escalation.
    pub fn trip(&self, trip: crate::breakers::Trip, state: usize) -> Plan {
        let name = Some(self.name(state));
        self.tripped(trip.breaker, trip.count, trip.limit, name.clone());
        let failure =
            Failure::Breaker { breaker: trip.breaker.to_owned(), count: trip.count, limit: trip.limit, state: name };
        Plan::Escalate { failure, context: Context::state(state, 0, None) }
    }

    pub fn tripped(&self, breaker: &str, count: u32, limit: u32, state: Option<String>) {
        tracing::info!(breaker, count, limit, "circuit breaker tripped");
        self.emit(Event::BreakerTripped { breaker: breaker.to_owned(), count, limit, state });
    }

    /// Runs `state`'s actions from `from` and plans what follows them.
    pub(crate) async fn act<D: Driver>(
        &mut self,
        driver: &mut D,
        state: usize,
        from: usize,
        attempt: u32,
        resume: Option<Resume>,
    ) -> Result<Plan, End> {
        let (outcome, performed) = self.action_run(Some(state), from).execute(driver, self.matcher()).await;
        for crate::act::Performed { index, element } in performed {
            let targeted = self.bound.states[state].actions[index].target().is_some();
            // Only actions on elements are compared, so only they take the page's change:
            // a key pressed between two reads of a value must not hide that it moved.
            let page_changed = targeted && self.page.acted();
            if let Some(trip) = self.breakers.acted(state, index, targeted.then_some(element.as_deref()), page_changed)
            {
                return Ok(self.trip(trip, state));
            }
        }
        match outcome {
            Ok(StateActions::Preempted) => Ok(Plan::Recognise { handled: None }),
            Ok(StateActions::Extracted { index, into, value }) => {
                self.set_variable(&into, value)?;
                self.went_on(driver, state, index, attempt, resume).await
            }
            Ok(StateActions::Skill { index }) => match self.use_skill(driver, state, index).await? {
                Ok(()) => self.went_on(driver, state, index, attempt, resume).await,
                Err(error) => Ok(self.action_failed(state, index, error, attempt, resume)),
            },
            Ok(StateActions::Completed) => self.acted(driver, state, attempt, resume).await,
            Err(DriverErrorAt { error: DriverError::Browser(e), .. }) => {
                Err(End::Failed(Failure::Driver { error: self.params.redact_message(&e) }))
            }
            Err(DriverErrorAt { index, error }) => Ok(self.action_failed(state, index, error, attempt, resume)),
        }
    }

    /// Action `index` of `state` was done: the next one runs, or the state's actions are over.
    async fn went_on<D: Driver>(
        &mut self,
        driver: &mut D,
        state: usize,
        index: usize,
        attempt: u32,
        resume: Option<Resume>,
    ) -> Result<Plan, End> {
        if index + 1 < self.bound.states[state].actions.len() {
            return Ok(Plan::Continue { state, from: index + 1, attempt, resume });
        }
        self.acted(driver, state, attempt, resume).await
    }

    /// Action `index` of `state` failed: the escalation chain takes over.
    fn action_failed(
        &mut self,
        state: usize,
        index: usize,
        error: DriverError,
        attempt: u32,
        resume: Option<Resume>,
    ) -> Plan {
        let failure = Failure::Action {
            state: self.name(state),
            index,
            action: self.display.states[state].actions[index].kind().to_owned(),
            error: self.params.redact_message(&error.to_string()),
        };
        if let Some(trip) = self.breakers.failed() {
            self.tripped(trip.breaker, trip.count, trip.limit, Some(self.name(state)));
        }
        Plan::Escalate {
            failure,
            context: Context { state: Some(state), action: Some((index, error)), attempt, resume },
        }
    }

    /// What follows a state's actions run to the end: the run ends in a terminal state,
    /// passes again through a continuous one, or verifies that the page moved on.
    async fn acted<D: Driver>(
        &mut self,
        driver: &mut D,
        state: usize,
        attempt: u32,
        resume: Option<Resume>,
    ) -> Result<Plan, End> {
        let s = &self.bound.states[state];
        // The message as displayed: it may name variables, and must not show a secret.
        if let Some(terminal) = &self.display.states[state].terminal {
            let message = terminal.message.clone();
            return Err(End::Terminal { state: s.name.clone(), outcome: terminal.outcome, message });
        }
        if s.continuous {
            // A page too busy to say whether it moved on passes the state again once it
            // answers, as a page that changed does.
            let handled = self.read_now(driver).await?.map(|signals| (state, Instant::now(), signals));
            return Ok(Plan::Recognise { handled });
        }
        Ok(Plan::Verify { state, attempt, resume })
    }

    /// The actions of `state` (or, with `None`, a reviewer's corrections) ready to run.
    pub fn action_run(&self, state: Option<usize>, from: usize) -> ActionRun<'_> {
        let (name, actions, display) = match state {
            Some(i) => (
                self.bound.states[i].name.as_str(),
                &self.bound.states[i].actions[..],
                &self.display.states[i].actions[..],
            ),
            None => (CORRECTION, &[][..], &[][..]),
        };
        ActionRun {
            step: self.steps,
            state_index: state,
            state: name,
            actions,
            display,
            from,
            unset: state.map(|i| self.unset_references(i)).unwrap_or_default(),
            config: &self.bound.config,
            params: &self.params,
            events: &self.events,
            started: self.started,
            tally: &self.actions,
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
            End::Cancelled(message) => (RunStatus::Cancelled, None, None, message, None),
        };
        let report = RunReport {
            status,
            end_state,
            outcome,
            message,
            failure,
            duration: self.options.began.unwrap_or(self.started).elapsed(),
            steps: self.steps,
            actions: self.actions.get(),
            outputs: self.outputs.clone(),
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
            outputs: report.outputs.clone(),
        });
        report
    }
}

/// An action's failure and its index within the state.
pub(crate) struct DriverErrorAt {
    pub index: usize,
    pub error: DriverError,
}
