//! What a caller asks for: which workflow, with which values, in which browser, recorded
//! where, and who answers when the run gets stuck.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use statewright_engine::Advisor;
use statewright_workflow::Workflow;

/// Where the workflow comes from.
pub enum WorkflowSource {
    /// A native or CliGent file, loaded and validated by the runner.
    File(PathBuf),
    /// A workflow already in memory (compiled, synthesised, a skill), with the file it
    /// belongs to when fixes may be saved into one.
    Loaded { workflow: Box<Workflow>, path: Option<PathBuf> },
}

/// The browser a run drives (started only when the workflow has page checks or actions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Browser {
    /// A fresh Chromium with a fresh profile.
    Launch { headed: bool },
    /// A running browser's DevTools endpoint (a local Chrome, a grid); the run opens its
    /// own page there.
    Attach { cdp_url: String },
}

/// Serve the bundled demo site on a free loopback port and pass its address as `site`.
#[derive(Debug, Clone, Default)]
pub struct DemoSite {
    /// A drift file whose text rewrites the site is served with.
    pub drift: Option<PathBuf>,
}

/// Who answers when the escalation chain reaches a person.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReviewPolicy {
    /// Put a review in the store's queue and wait (`None`: for as long as it takes).
    Wait { timeout: Option<Duration> },
    /// Never ask: the run fails with what the rest of the chain could not resolve.
    Never,
}

pub struct RunRequest {
    pub workflow: WorkflowSource,
    /// `NAME=VALUE` pairs as given; a user's `site` wins over the demo site's address.
    pub params: Vec<(String, String)>,
    pub browser: Browser,
    pub demo_site: Option<DemoSite>,
    /// Where run folders go; the store defaults to `statewright.db` inside it.
    pub runs_dir: PathBuf,
    pub db: Option<PathBuf>,
    pub review: ReviewPolicy,
    /// The model the escalation chain's LLM stage asks (`None`: the stage is skipped).
    pub llm: Option<statewright_llm::LlmConfig>,
    /// Another LLM stage instead of the configured model's (tests, embedders).
    pub advisor: Option<Arc<dyn Advisor>>,
    /// Carry on from the state the page is in: in an attached browser, drive the tab that
    /// is already open rather than a new one (`run --resume`, `goto`).
    pub resume: bool,
    /// Go to this state instead of to a terminal one: the run plans its way there over the
    /// known transitions and ends when the state is recognised (`goto`).
    pub goal: Option<String>,
    /// Where the skills that `use_skill` actions name are (default: `skills/` beside the
    /// workflow's folder, or inside it).
    pub skills_dir: Option<PathBuf>,
}

impl RunRequest {
    /// A headless run of `workflow` recorded under `runs_dir`, waiting for reviews.
    pub fn new(workflow: WorkflowSource, runs_dir: impl Into<PathBuf>) -> Self {
        Self {
            workflow,
            params: Vec::new(),
            browser: Browser::Launch { headed: false },
            demo_site: None,
            runs_dir: runs_dir.into(),
            db: None,
            review: ReviewPolicy::Wait { timeout: None },
            llm: None,
            advisor: None,
            resume: false,
            goal: None,
            skills_dir: None,
        }
    }

    pub fn db_path(&self) -> PathBuf {
        self.db.clone().unwrap_or_else(|| statewright_store::Store::default_path(&self.runs_dir))
    }
}
