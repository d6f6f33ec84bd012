//! The one-object account of a finished run: what `statewright run --json` prints and what
//! the app shows when a run ends.

use std::path::PathBuf;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use statewright_engine::{Failure, RunStatus};
use statewright_workflow::Outcome;

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunSummary {
    pub run_id: String,
    pub workflow: String,
    pub status: RunStatus,
    pub end_state: Option<String>,
    pub outcome: Option<Outcome>,
    pub message: String,
    pub failure: Option<Failure>,
    pub duration_ms: u64,
    pub steps: u32,
    pub actions: u32,
    pub llm_calls: u32,
    pub llm_tokens: u64,
    /// US dollars, from the configured prices.
    pub llm_cost: f64,
    /// The run's variables as last extracted (secret ones masked).
    pub outputs: IndexMap<String, serde_json::Value>,
    /// The run folder, exported from the store at the end.
    pub run_dir: PathBuf,
}
