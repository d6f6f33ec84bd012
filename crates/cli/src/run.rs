//! `statewright run`: the arguments, a run through the one runner (`statewright-runner`),
//! live progress on stderr, the `--json` summary and the exit code.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use statewright_runner::{
    Browser, DemoSite, Failure, ReviewPolicy, RunErrorKind, RunRequest, RunStatus, RunSummary, WorkflowSource, prepare,
};

use crate::exit;
use crate::model_args::ModelArgs;
use crate::progress::Progress;
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct RunArgs {
    /// The workflow file (native or CliGent JSON).
    file: PathBuf,
    /// Save the states the model synthesised from their prompts into the workflow file at
    /// the end of the run (without it they wait in the review queue for approval).
    #[arg(long)]
    accept_synthesized: bool,
    /// Carry on from the state the page is in instead of from the start: with --cdp-url,
    /// the run drives the tab already open there (a purchase started by hand, say).
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    flags: RunFlags,
}

/// `statewright goto`: a run that ends when it reaches a named state.
#[derive(Args)]
pub struct GotoArgs {
    /// The workflow file.
    file: PathBuf,
    /// The state to go to.
    state: String,
    #[command(flatten)]
    flags: RunFlags,
}

/// What every way of starting a run takes: values, browser, demo site, store, output, review.
#[derive(Args, Clone)]
pub struct RunFlags {
    /// A parameter value, NAME=VALUE (repeatable).
    #[arg(short, long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// Show the browser window.
    #[arg(long)]
    headed: bool,
    /// Attach to a running browser's DevTools endpoint instead of launching one (`batch`:
    /// repeatable, a pool of endpoints).
    #[arg(long, value_name = "URL", conflicts_with = "headed")]
    pub(crate) cdp_url: Vec<String>,
    /// Serve the bundled demo site on loopback and pass its address as the `site` parameter.
    #[arg(long)]
    demo_site: bool,
    /// With --demo-site: serve it with this drift file's rewrites (see `demo-site --drift`).
    #[arg(long, value_name = "FILE", requires = "demo_site")]
    drift: Option<PathBuf>,
    #[command(flatten)]
    store: StoreArgs,
    /// Print one JSON summary on stdout at the end.
    #[arg(long)]
    pub(crate) json: bool,
    /// Give up waiting for a human review after this many seconds: the run fails with that
    /// reason and the command exits with 3. Without it, a run waits for as long as it takes.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    review_timeout: Option<Duration>,
    /// Never wait for a person: a failure the rest of the escalation chain cannot resolve
    /// ends the run (for unattended runs).
    #[arg(long, conflicts_with = "review_timeout")]
    no_review: bool,
    // The model the LLM stage asks; without one the stage is skipped.
    #[command(flatten)]
    model: ModelArgs,
    /// Where the skills that `use_skill` actions name are (default: `skills/` beside the
    /// workflow's folder, or inside it).
    #[arg(long, env = "STATEWRIGHT_SKILLS", value_name = "DIR")]
    skills: Option<PathBuf>,
}

pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .and_then(|n| Duration::try_from_secs_f64(n).ok())
        .ok_or_else(|| format!("expected a number of seconds, got `{s}`"))
}

pub fn parse_param(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.trim().to_owned(), v.to_owned()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| format!("expected NAME=VALUE, got `{s}`"))
}

impl RunFlags {
    pub(crate) fn request(&self, file: &std::path::Path) -> Result<RunRequest, String> {
        crate::display::check(self.headed, crate::display::NOT_HEADED)?;
        let mut request = RunRequest::new(WorkflowSource::File(file.to_owned()), &self.store.runs_dir);
        request.params = self.params.clone();
        request.browser = match self.cdp_url.as_slice() {
            [] => Browser::Launch { headed: self.headed },
            [url] => Browser::Attach { cdp_url: url.clone() },
            _ => return Err("--cdp-url is given once for a run (more than once only to `batch`, as a pool)".into()),
        };
        request.demo_site = self.demo_site.then(|| DemoSite { drift: self.drift.clone() });
        request.db = self.store.db.clone();
        request.skills_dir = self.skills.clone();
        request.review =
            if self.no_review { ReviewPolicy::Never } else { ReviewPolicy::Wait { timeout: self.review_timeout } };
        request.llm = self.model.config()?;
        Ok(request)
    }
}

pub async fn run(args: RunArgs) -> u8 {
    let mut request = match args.flags.request(&args.file) {
        Ok(request) => request,
        Err(e) => return usage(&e),
    };
    request.resume = args.resume;
    execute(request, args.flags.json, args.accept_synthesized).await
}

fn usage(message: &str) -> u8 {
    errln!("statewright: {message}");
    exit::INVALID
}

/// Walks to `state` from wherever the page is: the tab already open with --cdp-url.
pub async fn goto(args: GotoArgs) -> u8 {
    let mut request = match args.flags.request(&args.file) {
        Ok(request) => request,
        Err(e) => return usage(&e),
    };
    request.resume = true;
    request.goal = Some(args.state);
    execute(request, args.flags.json, false).await
}

async fn execute(request: RunRequest, json: bool, accept_synthesized: bool) -> u8 {
    let db = request.db_path();
    let prepared = match prepare(request).await {
        Ok(prepared) => prepared,
        Err(e) => {
            errln!("statewright: {e}");
            return match e.kind {
                RunErrorKind::Invalid => exit::INVALID,
                RunErrorKind::Environment => exit::FAILED,
            };
        }
    };
    for warning in prepared.warnings() {
        errln!("{warning}");
    }
    let progress =
        Progress::new(prepared.id(), &prepared.workflow().name, prepared.browser_label(), prepared.run_dir());
    let cancel = crate::interrupt::cancelled_on_interrupt();
    let auto = prepared.workflow().config.model_fixes == statewright_workflow::ModelFixes::Auto;
    let summary = prepared.execute(cancel, move |event| progress.show(event)).await;
    if auto || accept_synthesized {
        approve_automatically(&db, &summary.run_id, !auto);
    }
    if json {
        outln!("{}", serde_json::to_string(&summary).unwrap_or_default());
    }
    exit_code(&summary)
}

/// `model_fixes: auto` (every fix) or `--accept-synthesized` (synthesised states): the model's
/// fixes from this run go into the workflow file now.
fn approve_automatically(db: &std::path::Path, run_id: &str, synthesized_only: bool) {
    let approve = || -> Result<(), String> {
        let store = statewright_store::Store::open(db).map_err(|e| e.to_string())?;
        for saved in
            statewright_workbench::approve_run_proposals(&store, run_id, synthesized_only).map_err(|e| e.to_string())?
        {
            errln!("saved the model's fix into {} ({})", saved.path, saved.changes.join("; "));
        }
        Ok(())
    };
    if let Err(e) = approve() {
        errln!("statewright: the model's fixes were not saved: {e}");
    }
}

/// The exit code of a finished run, as the README's table gives them.
pub fn exit_code(summary: &RunSummary) -> u8 {
    match (summary.status, &summary.failure) {
        (RunStatus::Succeeded, _) => exit::SUCCEEDED,
        (RunStatus::Failed, Some(Failure::ReviewTimeout { .. })) => exit::REVIEW_TIMEOUT,
        (RunStatus::Failed, _) => exit::FAILED,
        (RunStatus::Cancelled, _) => exit::INTERRUPTED,
    }
}
