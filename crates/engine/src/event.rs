//! The typed events a run emits, in order. Consumers (the CLI's recorder and printer, the
//! app's run viewer) see nothing else of the engine.

use schemars::JsonSchema;
use serde::Serialize;
use statewright_workflow::{Action, Outcome as TerminalOutcome};

use crate::driver::{Artifact, Observation};

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Succeeded,
    Failed,
    Cancelled,
}

/// Why a run failed, with what is needed to understand it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    /// A terminal state with outcome `failure` was reached.
    FailureState { state: String, message: String },
    /// A non-continuous state kept matching after its actions, for `state_timeout`.
    Stuck { state: String, seconds: f64 },
    /// No state matched for `no_states_timeout`.
    NoState { seconds: f64, url: String, title: String, closest: Vec<Diagnosis> },
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
}

/// Why one state did not match: which of its checks failed.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
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
        #[serde(skip)]
        artifact: Option<Artifact>,
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
    RunFinished {
        status: RunStatus,
        end_state: Option<String>,
        outcome: Option<TerminalOutcome>,
        message: String,
        failure: Option<Failure>,
        duration_ms: u64,
        steps: u32,
        actions: u32,
    },
}
