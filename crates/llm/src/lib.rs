//! The model in the loop, over the OpenAI-compatible chat-completions wire format: the
//! client ([`client`]), where its settings come from ([`config`]), what the model is shown
//! ([`prompt`], [`mark`]), how its answer is read ([`parse`]) and checked ([`answer`]),
//! and the escalation chain's LLM stage built from them ([`LlmAdvisor`]); the goal-driven
//! agent's turns ([`agent`]) and the judge of its answers ([`judge`]).
//!
//! Nothing a model answers runs unless it becomes a typed, validated resolution; page text
//! is fenced as untrusted; secret values never reach a prompt or an image.

pub mod advisor;
pub mod agent;
pub mod answer;
pub mod client;
pub mod config;
pub mod judge;
pub mod mark;
pub mod parse;
pub mod prompt;
#[cfg(feature = "testing")]
pub mod testing;
pub mod wire;

pub use advisor::LlmAdvisor;
pub use client::{ChatReply, ChatRequest, Client, LlmError};
pub use config::{ConfigError, LlmConfig, Overrides, Settings, settings_path};
