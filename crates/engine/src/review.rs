//! What the engine asks for when it cannot go on by itself, and the answers it accepts.
//!
//! An escalation request goes to an LLM advisor (when one is configured) and then to a
//! person. Both answer with the same typed [`Resolution`]: data from a closed set, never
//! code. Corrective actions are ordinary workflow actions, validated before they run.

use std::future::Future;
use std::pin::Pin;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statewright_workflow::{Action, Check, EscalationStage, State};

use crate::driver::Observation;
use crate::event::Failure;

/// Everything a reviewer needs to understand a stuck run in a minute.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct EscalationRequest {
    pub workflow: String,
    pub step: u32,
    /// The state the run was in, if any.
    pub state: Option<String>,
    pub failure: Failure,
    /// The failure explained in one paragraph.
    pub reason: String,
    /// What the escalation chain tried before asking, in order.
    pub tried: Vec<Tried>,
    /// The action that failed, with secrets masked.
    pub action: Option<PendingAction>,
    /// The page as it is now (screenshot bytes are not serialised; the store keeps them).
    pub observation: Option<Observation>,
    /// The workflow's state names, for "this page is state X".
    pub states: Vec<String>,
    /// Checks that hold on this page, offered for a new state.
    pub suggested_checks: Vec<Check>,
    /// States known only by their prompt, which the model may make concrete from this page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<Unresolved>,
}

/// A state still to be synthesised: its name and what it is, in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Unresolved {
    pub state: String,
    pub prompt: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Tried {
    pub stage: String,
    pub outcome: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PendingAction {
    pub state: String,
    pub index: usize,
    pub action: Action,
}

/// How a person (or an LLM) tells a stuck run to go on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Resolution {
    /// Try again: the failed action, the unverified state's actions, or recognising the page.
    Retry,
    /// Go past the failed action (or accept the unverified state) and carry on.
    Skip,
    /// Perform these actions now, then recognise the page again.
    Actions { actions: Vec<Action> },
    /// This page is the existing state `state`: run its actions.
    DeclareState { state: String },
    /// This page is a new state: add it to the workflow (before `before`, or last) and run it.
    NewState {
        state: Box<State>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<String>,
    },
    /// This page is the prompt-only state `state`: these checks recognise it and these
    /// actions do what its prompt says (from the model; verified by the run before use).
    Synthesized {
        state: String,
        checks: Vec<Check>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        actions: Vec<Action>,
    },
    /// Stop the run as failed.
    Abort {
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
}

impl Resolution {
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Retry => "retry",
            Self::Skip => "skip",
            Self::Actions { .. } => "actions",
            Self::DeclareState { .. } => "declare_state",
            Self::NewState { .. } => "new_state",
            Self::Synthesized { .. } => "synthesized",
            Self::Abort { .. } => "abort",
        }
    }
}

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReviewError {
    /// Nobody answered within the review timeout.
    #[error("no review within {seconds} s (review {review_id})")]
    TimedOut { review_id: i64, seconds: f64 },
    /// The review queue itself failed (the store, say).
    #[error("the review queue failed: {0}")]
    Unavailable(String),
}

/// The human end of the escalation chain: a queue a person answers from elsewhere.
pub trait Reviewer: Send + Sync {
    /// Puts the request in the queue; returns its id.
    fn open(&self, request: EscalationRequest) -> BoxFuture<'_, Result<i64, ReviewError>>;
    /// Waits for the person's answer.
    fn wait(&self, review_id: i64) -> BoxFuture<'_, Result<Resolution, ReviewError>>;
}

/// The LLM step of the chain (filled by the LLM client): advice, or none, and the calls
/// it took to get it (each one goes on the run's record).
pub trait Advisor: Send + Sync {
    fn advise(&self, request: EscalationRequest) -> BoxFuture<'_, Advice>;
}

/// What the advisor came back with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Advice {
    /// A validated resolution, or none (no answer, or none that could be used).
    pub resolution: Option<Resolution>,
    pub calls: Vec<ModelCall>,
    /// What happened, in a few words, for the escalation's outcome.
    pub note: String,
}

/// One call to the model, as the run records it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ModelCall {
    pub model: String,
    /// The prompt's size in characters (text only; the image is counted by the server).
    pub prompt_chars: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub latency_ms: u64,
    /// US dollars, from the configured prices.
    pub cost: f64,
    /// The model's answer (secrets masked, shortened).
    pub answer: String,
    /// Whether the answer was valid and used.
    pub accepted: bool,
    /// Why the call failed or the answer was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What calls to a model came to: how many, their tokens and their cost (US dollars).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ModelUse {
    pub calls: u32,
    pub tokens: u64,
    pub cost: f64,
}

impl ModelUse {
    pub fn count(&mut self, call: &ModelCall) {
        self.calls += 1;
        self.tokens += call.prompt_tokens + call.completion_tokens;
        self.cost += call.cost;
    }
}

/// Which stages a failure can use: healing only helps an action whose element is missing,
/// or a page no state matches because a check's element was renamed; re-observing cannot
/// help a breaker that tripped on a loop.
pub fn applicable(stage: EscalationStage, failure: &Failure) -> bool {
    match stage {
        EscalationStage::Reobserve => !matches!(failure, Failure::Breaker { .. }),
        EscalationStage::Heal => matches!(failure, Failure::Action { .. } | Failure::NoState { .. }),
        EscalationStage::Llm | EscalationStage::Human => true,
    }
}
