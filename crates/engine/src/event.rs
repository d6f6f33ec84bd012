//! The typed events a run emits, in order. Consumers (the CLI's recorder and printer, the
//! app's run viewer) see nothing else of the engine.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statewright_workflow::{Action, Check, Outcome as TerminalOutcome, Target, TargetField};

use crate::driver::{Artifact, Observation};
use crate::review::{EscalationRequest, ModelCall, Resolution};

/// How much of a page's address or title a record keeps (Chromium keeps a title's first
/// 4,096): a page may make either megabytes long, and every step would keep them again.
const RECORDED_CHARS: usize = 4096;

/// A page's address or title as the record keeps it, after its secrets are masked.
pub(crate) fn recorded(text: &str) -> String {
    crate::act::clip(text, RECORDED_CHARS)
}

/// An element check of a state, and the other locators that found its element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LocatedCheck {
    /// The check's index among its state's checks.
    pub index: usize,
    pub check: Check,
    pub alternatives: Vec<Target>,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Succeeded,
    Failed,
    Cancelled,
}

/// Why a run failed, with what is needed to understand it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    /// A terminal state with outcome `failure` was reached.
    FailureState { state: String, message: String },
    /// A non-continuous state kept matching after its actions, for `state_timeout`.
    Stuck { state: String, seconds: f64 },
    /// A state's actions ran `attempts` times and the run never moved on (`verify_timeout`).
    NotVerified { state: String, attempts: u32, seconds: f64 },
    /// A circuit breaker tripped: `count` passed its `limit`.
    Breaker { breaker: String, count: u32, limit: u32, state: Option<String> },
    /// Nobody resolved the review in time.
    ReviewTimeout { review_id: i64, seconds: f64 },
    /// The review queue failed.
    Review { error: String },
    /// A reviewer stopped the run.
    Aborted { reason: String },
    /// No state matched for `no_states_timeout`. `silent`: the page did not answer once in
    /// that time (a script kept it busy), so `url`, `title` and `closest` are empty.
    NoState {
        seconds: f64,
        url: String,
        title: String,
        closest: Vec<Diagnosis>,
        #[serde(default)]
        silent: bool,
    },
    /// Several states matched and `allow_multiple_states` is false.
    Ambiguous { states: Vec<String> },
    /// More state entries than `recursion_limit`.
    RecursionLimit { limit: u32 },
    /// An action failed (after waiting for its target, where it has one).
    Action { state: String, index: usize, action: String, error: String },
    /// The browser failed.
    Driver { error: String },
    /// The workflow cannot run as bound (e.g. a parameter made a pattern invalid).
    Setup { error: String },
    /// The run store could not keep the run (a full disk, say): the run was stopped.
    Record { error: String },
    /// A run with a goal (`goto`) is in a state from which no known transition leads there.
    NoRoute { from: String, to: String },
}

/// Why one state did not match: which of its checks failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Diagnosis {
    pub state: String,
    pub passed: usize,
    pub total: usize,
    pub failing: Vec<String>,
}

/// The result of one check when a state was entered.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CheckResult {
    pub check: String,
    pub passed: bool,
}

// `ActionFinished` is the largest by some hundred bytes. Events are made one at a time and
// moved once through a channel, beside screenshots of tens of kilobytes: boxing its action
// would buy nothing and cost every `match` on it.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    RunStarted {
        workflow: String,
        states: usize,
    },
    /// The engine recognised a state and is about to run its actions.
    StateEntered {
        step: u32,
        state: String,
        state_index: usize,
        /// How many times this state has been entered in this run, this one included.
        visit: u32,
        elapsed_ms: u64,
        url: String,
        checks: Vec<CheckResult>,
        /// Other states whose checks also held on this page and lost on priority: the
        /// evidence `validate` uses to find states that can never win.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        also_matched: Vec<String>,
    },
    /// The page as it was when the step began (arrives asynchronously, before `RunFinished`).
    Observed {
        step: u32,
        #[serde(flatten)]
        observation: Observation,
    },
    ActionStarted {
        step: u32,
        state: String,
        index: usize,
        /// The action with parameters filled in and secrets masked.
        action: Action,
    },
    ActionFinished {
        step: u32,
        state: String,
        index: usize,
        action: Action,
        elapsed_ms: u64,
        duration_ms: u64,
        /// How many times the target was looked for before acting (1 = at once).
        attempts: u32,
        detail: Option<String>,
        error: Option<String>,
        /// Other locators of the element acted on (see `Outcome::alternatives`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        alternatives: Vec<Target>,
        /// Other locators of the element a `drag` let go on (see `Outcome::to_alternatives`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        to_alternatives: Vec<Target>,
        #[serde(skip)]
        artifact: Option<Artifact>,
        /// What an `extract` stored in its variable (masked when it shows a secret).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<serde_json::Value>,
    },
    /// An action opened a tab and the run went on in it (right after its `ActionFinished`).
    TabOpened {
        step: u32,
        state: String,
        index: usize,
        /// The new tab's address, its query values and credentials masked.
        url: String,
    },
    /// An action's target was blocked and another state took over the page (a popup, say):
    /// the rest of this state's actions are skipped and the engine follows the new state.
    ActionPreempted {
        step: u32,
        state: String,
        index: usize,
        by_state: String,
        reason: String,
    },
    /// The run moved on after a state's actions: `via` is `next` (a listed next state),
    /// `expect` (the state's own expectations hold), `change` (any other state, for a state
    /// with neither) or `unlisted` (a state not in its `next`).
    Verified {
        step: u32,
        state: String,
        via: String,
        next_state: Option<String>,
    },
    /// A state's actions were not verified and run again.
    Retrying {
        step: u32,
        state: String,
        attempt: u32,
        max: u32,
        reason: String,
    },
    /// A run with a goal planned its way there from `from`: the states it expects to pass
    /// through, the goal included. `replanned` when the page landed off the previous route.
    RoutePlanned {
        step: u32,
        from: String,
        to: String,
        route: Vec<String>,
        /// The expected time, from the stored runs' transition times.
        cost_ms: u64,
        replanned: bool,
    },
    /// An interrupt state showed up over `interrupted`; the run resumes it afterwards.
    InterruptEntered {
        step: u32,
        state: String,
        interrupted: Option<String>,
    },
    /// An action's own target found nothing; a recorded alternative found the element.
    Healed {
        step: u32,
        state: String,
        index: usize,
        /// Which of the action's elements was healed: its `target`, or a drag's `to`.
        #[serde(default)]
        field: TargetField,
        from: Target,
        to: Target,
    },
    /// Other ways to find the elements a recognised state's element checks found, recorded
    /// on the state's first entry so that a later run can heal those checks.
    ChecksLocated {
        step: u32,
        state: String,
        checks: Vec<LocatedCheck>,
    },
    /// A state was not recognised only because an element check found nothing; a recorded
    /// alternative found the element, and the check now uses it (a proposed change).
    CheckHealed {
        step: u32,
        state: String,
        index: usize,
        from: Check,
        to: Check,
    },
    BreakerTripped {
        breaker: String,
        count: u32,
        limit: u32,
        state: Option<String>,
    },
    /// The LLM stage called the model (once per call, retries and refused answers included).
    ModelCalled {
        step: u32,
        state: Option<String>,
        #[serde(flatten)]
        call: ModelCall,
    },
    /// The model's resolution got the run going (a state past the one it was asked about
    /// was reached): the fix is proposed for the workflow, to be approved by a person.
    AdviceWorked {
        step: u32,
        model: String,
        resolution: Resolution,
        /// What the model was shown (the page, the failure), for the reviewer.
        request: Box<EscalationRequest>,
    },
    /// One stage of the escalation chain ran; `outcome` says what came of it.
    Escalated {
        step: u32,
        state: Option<String>,
        stage: String,
        reason: String,
        outcome: String,
        resolved: bool,
    },
    /// The run waits for a person (`statewright review`, or the app's review queue).
    ReviewRequested {
        review_id: i64,
        step: u32,
        state: Option<String>,
        reason: String,
    },
    ReviewResolved {
        review_id: i64,
        resolution: Resolution,
    },
    RunFinished {
        status: RunStatus,
        end_state: Option<String>,
        outcome: Option<TerminalOutcome>,
        message: String,
        failure: Option<Failure>,
        duration_ms: u64,
        steps: u32,
        actions: u32,
        /// The run's variables as last extracted (secret ones masked).
        #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
        outputs: IndexMap<String, serde_json::Value>,
    },
}
