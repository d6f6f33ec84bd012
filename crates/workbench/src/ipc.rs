//! The types the front end sends and receives. Their TypeScript is generated from these
//! definitions (see [`crate::bindings`]); change them here, never in `ui/src/bindings.ts`.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statewright_workflow::{Diagnostic, Workflow};

/// One file of the workflows folder.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct WorkflowEntry {
    /// The file name inside the folder, e.g. `demo-shop.json`; how the UI names the file.
    pub id: String,
    /// The workflow's own name (the file stem when the file cannot be read).
    pub name: String,
    pub states: u32,
    pub modified_ms: i64,
    /// Why the file cannot be opened in the editor, if it cannot.
    pub error: Option<String>,
    /// A file of the skills folder (its id starts with `skills/`).
    pub skill: bool,
}

/// A workflow or skill file in the trash (deleted from the app, restorable).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TrashEntry {
    /// Its name in the trash, e.g. `1718000000000-demo-shop.json` (behind `skills/` for a
    /// skill); how the UI asks to restore it.
    pub id: String,
    /// The id it had, which restoring gives back: `demo-shop.json`.
    pub original: String,
    /// The workflow's own name (the file stem when the file has none).
    pub name: String,
    /// When it was deleted, in milliseconds since the epoch.
    pub deleted_ms: i64,
    pub skill: bool,
}

/// A workflow file as the editor opens it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct OpenedWorkflow {
    pub id: String,
    /// `None` when the file is not a workflow at all (the diagnostics say why).
    pub workflow: Option<Workflow>,
    /// The SHA-256 of the file's bytes, handed back on save to detect changes by others.
    pub hash: String,
    /// The validator's findings (errors and warnings), positioned by JSON path.
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SaveResult {
    pub hash: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// A file in the workflows folder was written, created or removed by anyone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WorkflowChange {
    pub id: String,
    pub removed: bool,
}

/// What the UI asks for when it starts a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunRequest {
    /// The workflow's id (file name) in the workflows folder.
    pub workflow: String,
    /// Parameter values by name; secrets travel here once and are masked everywhere after.
    pub params: IndexMap<String, String>,
    pub headed: bool,
    /// Serve the bundled demo site and pass its address as the `site` parameter.
    pub demo_site: bool,
    /// Attach to a running browser's DevTools endpoint instead of launching one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cdp_url: Option<String>,
    /// Carry on from the state the page is in (in an attached browser, its open tab).
    #[serde(default)]
    pub resume: bool,
    /// Go to this state (*Go here*): the run ends when it is recognised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
}

/// *Run with a goal*: the model drives a browser towards `goal`, one checked step at a time
/// (`statewright agent`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AgentRunRequest {
    /// What to get done, in words.
    pub goal: String,
    /// The first page; `{{NAME}}` in it is filled from `params`.
    pub url: String,
    /// Values the model may type as `{{NAME}}`; secret ones it never sees.
    pub params: IndexMap<String, String>,
    pub headed: bool,
    /// Serve the bundled demo site as `{{site}}`.
    pub demo_site: bool,
    /// The most steps the model may take (default 25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u32>,
}

/// *Batch…*: the workflow run once per row of a data file (`statewright batch`), or *Run
/// with a goal…*'s task file, the model run once per task (`statewright agent --tasks`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BatchRequest {
    /// What runs once per row.
    pub each: BatchOf,
    /// The rows: a CSV file with a header line, JSON Lines (`.jsonl`) or a JSON array
    /// (`.json`); the results table is written beside it (`orders.results.csv`).
    pub data: String,
    /// Parameter values for every row; a row's own values win.
    pub params: IndexMap<String, String>,
    /// Runs at a time (at most 16; default 2, or with a pool all it takes), never more than
    /// the pool takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u32>,
    pub demo_site: bool,
    /// Show the browser windows (only for browsers launched per row).
    pub headed: bool,
    /// Where the rows' browsers come from (default: one launched per row).
    #[serde(default)]
    pub browsers: BatchBrowsers,
    /// Seconds a row's run may take before it is stopped and its row ends `timed_out`
    /// (none: no limit), as `--run-timeout`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_timeout: Option<f64>,
}

/// What a batch runs once per row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BatchOf {
    /// The workflow with this id (file name) in the workflows folder, the row's columns its
    /// parameters.
    Workflow { workflow: String },
    /// The model set under *Model…*, towards each task's goal from its first page, at most
    /// `max_steps` steps each (default 25); the rows are read as a task file.
    Goals {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_steps: Option<u32>,
    },
}

impl Default for BatchOf {
    fn default() -> Self {
        BatchOf::Workflow { workflow: String::new() }
    }
}

/// Where a batch's runs get their browsers: `statewright batch`'s `--shared-browsers`,
/// `--cdp-url` with `--per-endpoint`, and `--pool`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BatchBrowsers {
    /// Each run launches its own Chromium and closes it at the end.
    #[default]
    Launch,
    /// `browsers` headless Chromiums launched once for the whole batch, `per_browser` runs
    /// at a time in each (`--shared-browsers N --per-endpoint M`).
    Shared { browsers: u32, per_browser: u32 },
    /// Running browsers' DevTools endpoints (`http://HOST:PORT`, `ws://…`), `per_endpoint`
    /// runs at a time on each, and those of a pool file (each with its own `max_runs`).
    Endpoints {
        cdp_urls: Vec<String>,
        per_endpoint: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pool_file: Option<String>,
    },
}

/// What the window hears of a batch: a row's run started, a row done, a pool endpoint given
/// up on (its URL with credentials masked; its rows go to the others), the batch done (or
/// failed to go on).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BatchMessage {
    Started { row: usize, run_id: String },
    Finished { result: statewright_runner::batch::RowResult, done: usize, total: usize },
    EndpointDead { url: String, reason: String },
    Done { report: statewright_runner::batch::BatchReport },
    Failed { message: String },
}

/// *Judge answers*: a task file's results table (its `.json`), judged by the model set
/// under *Model…* from each run's last `screenshots` (default 3), as `statewright judge`;
/// `again` judges the tasks judged before anew (`--again`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JudgeAnswers {
    pub results: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshots: Option<u32>,
    #[serde(default)]
    pub again: bool,
}

/// What the window hears of a judge: a task's row with its verdict (or none yet), then the
/// report (or why it could not go on).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JudgeMessage {
    Judged { result: statewright_runner::batch::RowResult, done: usize, total: usize },
    Done { report: statewright_runner::judge::JudgeReport },
    Failed { message: String },
}

/// Which past runs to list.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunFilter {
    pub workflow: Option<String>,
    pub status: Option<String>,
    pub limit: Option<u32>,
}

impl From<RunFilter> for statewright_store::RunFilter {
    fn from(f: RunFilter) -> Self {
        statewright_store::RunFilter { workflow: f.workflow, status: f.status, limit: f.limit.map(|n| n as usize) }
    }
}

/// One message of a run's stream, sent once the event is in the run store: the engine's
/// event and, for `observed`, the stored screenshot's path (served over `shot:`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunMessage {
    pub event: statewright_engine::Event,
    pub screenshot: Option<String>,
}

impl RunMessage {
    pub fn new(event: &statewright_engine::Event) -> Self {
        let screenshot = match event {
            statewright_engine::Event::Observed { observation, .. } => {
                observation.screenshot.as_deref().map(|image| statewright_store::screenshot_path(image))
            }
            _ => None,
        };
        Self { event: event.clone(), screenshot }
    }
}

/// What saving a review's fix would change: the unified diff of the workflow file.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct FixPreview {
    pub diff: String,
    pub path: String,
}

/// *Synthesise from this page*: the model's state (a `synthesized` resolution), unsaved, and
/// its checks the stored page could not decide, each with why (a run holds them to the live
/// page), for the person reviewing it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SynthesizedState {
    pub resolution: statewright_engine::Resolution,
    pub undecided: Vec<String>,
}

/// Locators a run healed, saved into its workflow file (or, with `write` off, only diffed).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct HealedSaved {
    pub path: String,
    pub diff: String,
    /// One line per locator replaced.
    pub changes: Vec<String>,
    /// The store's id of the file's previous content, when it was written.
    pub version: Option<i64>,
}

/// The model settings as the app's settings page shows them. The API key never leaves the
/// shell: the page only learns whether one is set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ModelSettings {
    /// The settings file.
    pub path: String,
    /// The OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`; none: no model.
    pub url: Option<String>,
    pub model: Option<String>,
    /// Seconds one call may take.
    pub timeout: Option<f64>,
    pub retries: Option<u32>,
    /// US dollars per million prompt tokens.
    pub input_price: Option<f64>,
    /// US dollars per million completion tokens.
    pub output_price: Option<f64>,
    /// Send screenshots (off for text-only models).
    pub vision: Option<bool>,
    /// A PEM file of certificate authorities trusted besides the system's (https).
    pub ca_cert: Option<String>,
    pub has_api_key: bool,
    /// Environment variables set for the app that override the file.
    pub overridden_by_env: Vec<String>,
}

/// A change to the model settings; `api_key`: `None` keeps the key, `""` removes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ModelSettingsChange {
    pub url: Option<String>,
    pub model: Option<String>,
    pub timeout: Option<f64>,
    pub retries: Option<u32>,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
    pub vision: Option<bool>,
    pub ca_cert: Option<String>,
    pub api_key: Option<String>,
}

/// A demonstration recorded from the app (*Record…*) and compiled into a workflow file.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct RecordedWorkflow {
    /// The workflow file written (or merged into), as a [`WorkflowEntry`] id.
    pub id: String,
    /// The recording's run, in the run store like any run.
    pub run_id: String,
    pub acts: u32,
    pub states: u32,
    pub actions: u32,
    /// Whether the file existed and the recording was merged into it.
    pub merged: bool,
    /// What the compiler noticed (a page it could not tell apart, a missing goal page…).
    pub notes: Vec<String>,
}
