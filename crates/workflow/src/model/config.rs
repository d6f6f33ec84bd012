//! Executor knobs, escalation and circuit breakers: a workflow's `config`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Executor knobs. Durations are in seconds, as in CliGent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// When several states match at once: true picks the first, false fails the run.
    #[serde(skip_serializing_if = "default_allow_multiple_states")]
    pub allow_multiple_states: bool,
    /// Longest wait between two evaluations of the states when the page reports no change.
    #[serde(skip_serializing_if = "default_transition_period")]
    pub transition_period: f64,
    /// How long no state may match before the run fails.
    #[serde(skip_serializing_if = "default_no_states_timeout")]
    pub no_states_timeout: f64,
    /// Pause between two actions of a state.
    #[serde(skip_serializing_if = "default_action_period")]
    pub action_period: f64,
    /// How long a non-continuous state may keep matching after its actions ran.
    #[serde(skip_serializing_if = "default_state_timeout")]
    pub state_timeout: f64,
    /// How long an element action waits for its target to become actionable.
    #[serde(skip_serializing_if = "default_action_timeout")]
    pub action_timeout: f64,
    /// The most state entries one run may make: the run's step budget.
    #[serde(skip_serializing_if = "default_recursion_limit")]
    pub recursion_limit: u32,
    /// Browser viewport used for new pages.
    #[serde(skip_serializing_if = "default_viewport")]
    pub viewport: Viewport,
    /// How long, after a state's actions, the run has to show that it moved on (one of the
    /// state's `next` states, or its `expect` checks) before the actions are retried.
    #[serde(skip_serializing_if = "default_verify_timeout")]
    pub verify_timeout: f64,
    /// How many times a state's actions are retried when they were not verified.
    #[serde(skip_serializing_if = "default_max_retries")]
    pub max_retries: u32,
    /// What is tried, in order, when a state fails (not verified after its retries, an
    /// action that cannot be done, no state recognised, a breaker tripped).
    #[serde(skip_serializing_if = "default_escalation")]
    pub escalation: Vec<EscalationStage>,
    /// Limits that stop a run going round in circles.
    #[serde(skip_serializing_if = "default_breakers")]
    pub breakers: Breakers,
}

/// One step of the escalation chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EscalationStage {
    /// Look again with a fresh snapshot: maybe it worked after all, or another state shows.
    Reobserve,
    /// Find a failed action's element by the other locators recorded when it last worked.
    Heal,
    /// Ask the configured LLM for the next action (skipped when none is configured).
    Llm,
    /// Pause the run in `needs_human_review` until a person resolves it.
    Human,
}

impl EscalationStage {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Reobserve => "reobserve",
            Self::Heal => "heal",
            Self::Llm => "llm",
            Self::Human => "human",
        }
    }
}

/// Circuit breakers: each trips when its count passes its limit, and the run escalates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Breakers {
    /// Entries of any one state (retries included).
    #[serde(skip_serializing_if = "default_state_entries")]
    pub state_entries: u32,
    /// Times any one action is performed in a run.
    #[serde(skip_serializing_if = "default_action_attempts")]
    pub action_attempts: u32,
    /// Times in a row the same element is acted on with no new state reached in between.
    #[serde(skip_serializing_if = "default_same_target")]
    pub same_target: u32,
    /// Times a cycle of states (A → B → A → B …) repeats with no new state reached.
    #[serde(skip_serializing_if = "default_cycles")]
    pub cycles: u32,
    /// Failures in a row (unverified states, failed actions) before retries are skipped
    /// and the run escalates at once.
    #[serde(skip_serializing_if = "default_consecutive_failures")]
    pub consecutive_failures: u32,
}

impl Default for Breakers {
    fn default() -> Self {
        Self { state_entries: 20, action_attempts: 30, same_target: 8, cycles: 4, consecutive_failures: 4 }
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            allow_multiple_states: true,
            transition_period: 0.5,
            no_states_timeout: 30.0,
            action_period: 0.0,
            state_timeout: 30.0,
            action_timeout: 10.0,
            recursion_limit: 100,
            viewport: Viewport::default(),
            verify_timeout: 5.0,
            max_retries: 2,
            escalation: vec![
                EscalationStage::Reobserve,
                EscalationStage::Heal,
                EscalationStage::Llm,
                EscalationStage::Human,
            ],
            breakers: Breakers::default(),
        }
    }
}

// Defaults are not written, so a saved file keeps just the knobs its author set.
fn default_allow_multiple_states(value: &bool) -> bool {
    *value == Config::default().allow_multiple_states
}

fn default_transition_period(value: &f64) -> bool {
    *value == Config::default().transition_period
}

fn default_no_states_timeout(value: &f64) -> bool {
    *value == Config::default().no_states_timeout
}

fn default_action_period(value: &f64) -> bool {
    *value == Config::default().action_period
}

fn default_state_timeout(value: &f64) -> bool {
    *value == Config::default().state_timeout
}

fn default_action_timeout(value: &f64) -> bool {
    *value == Config::default().action_timeout
}

fn default_recursion_limit(value: &u32) -> bool {
    *value == Config::default().recursion_limit
}

fn default_viewport(value: &Viewport) -> bool {
    *value == Config::default().viewport
}

fn default_verify_timeout(value: &f64) -> bool {
    *value == Config::default().verify_timeout
}

fn default_max_retries(value: &u32) -> bool {
    *value == Config::default().max_retries
}

fn default_escalation(value: &[EscalationStage]) -> bool {
    *value == Config::default().escalation
}

fn default_breakers(value: &Breakers) -> bool {
    *value == Config::default().breakers
}

fn default_state_entries(value: &u32) -> bool {
    *value == Breakers::default().state_entries
}

fn default_action_attempts(value: &u32) -> bool {
    *value == Breakers::default().action_attempts
}

fn default_same_target(value: &u32) -> bool {
    *value == Breakers::default().same_target
}

fn default_cycles(value: &u32) -> bool {
    *value == Breakers::default().cycles
}

fn default_consecutive_failures(value: &u32) -> bool {
    *value == Breakers::default().consecutive_failures
}

impl Config {
    pub(crate) fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Viewport {
    pub width: u32,
    pub height: u32,
}

impl Default for Viewport {
    fn default() -> Self {
        Self { width: 1280, height: 800 }
    }
}
