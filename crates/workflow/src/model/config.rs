//! Executor knobs, escalation and circuit breakers: a workflow's `config`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Executor knobs. Durations are in seconds, as in CliGent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// When several states match at once: true picks the first, false fails the run.
    pub allow_multiple_states: bool,
    /// Longest wait between two evaluations of the states when the page reports no change.
    pub transition_period: f64,
    /// How long no state may match before the run fails.
    pub no_states_timeout: f64,
    /// Pause between two actions of a state.
    pub action_period: f64,
    /// How long a non-continuous state may keep matching after its actions ran.
    pub state_timeout: f64,
    /// How long an element action waits for its target to become actionable.
    pub action_timeout: f64,
    /// The most state entries one run may make: the run's step budget.
    pub recursion_limit: u32,
    /// Browser viewport used for new pages.
    pub viewport: Viewport,
    /// How long, after a state's actions, the run has to show that it moved on (one of the
    /// state's `next` states, or its `expect` checks) before the actions are retried.
    pub verify_timeout: f64,
    /// How many times a state's actions are retried when they were not verified.
    pub max_retries: u32,
    /// What is tried, in order, when a state fails (not verified after its retries, an
    /// action that cannot be done, no state recognised, a breaker tripped).
    pub escalation: Vec<EscalationStage>,
    /// Limits that stop a run going round in circles.
    pub breakers: Breakers,
    /// What happens to a fix the model found that got a run going: `review` (a proposal a
    /// person approves or rejects) or `auto` (saved into the workflow file at once).
    pub model_fixes: ModelFixes,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModelFixes {
    #[default]
    Review,
    Auto,
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
    pub state_entries: u32,
    /// Times any one action is performed in a run.
    pub action_attempts: u32,
    /// Times in a row the same element is acted on with no new state reached in between.
    pub same_target: u32,
    /// Times a cycle of states (A → B → A → B …) repeats with no new state reached.
    pub cycles: u32,
    /// Failures in a row (unverified states, failed actions) before retries are skipped
    /// and the run escalates at once.
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
            model_fixes: ModelFixes::Review,
        }
    }
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
