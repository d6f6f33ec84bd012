//! `statewright agent`: a run driven by the model towards a goal, one checked step at a
//! time; stored like any run, so `statewright compile RUN` makes it a workflow.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use statewright_runner::agent::{AgentObserver, AgentRequest, run_agent};
use statewright_runner::{Browser, Failure, ReviewPolicy, RunErrorKind, RunStatus};

use crate::exit;
use crate::run::{parse_param, parse_seconds};

#[derive(Args)]
pub struct AgentArgs {
    /// What to get done, in words ("buy two kettles and tell me the order number").
    #[arg(long)]
    goal: String,
    /// The first page; `{{NAME}}` in it is filled from --param. Only its site may be visited.
    #[arg(long)]
    url: String,
    /// The most steps the model may take.
    #[arg(long, default_value_t = 25)]
    max_steps: u32,
    /// A value the model may type as `{{NAME}}` (names with password, token, secret, pin or
    /// api_key are secret: the model never sees them, and only password fields take them).
    #[arg(short, long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// Show the browser window.
    #[arg(long)]
    headed: bool,
    /// Drive a new tab of the browser at this DevTools endpoint instead of launching one.
    #[arg(long, value_name = "URL")]
    cdp_url: Option<String>,
    /// Serve the bundled demo site on loopback and pass its address as `site`.
    #[arg(long)]
    demo_site: bool,
    #[arg(long, value_name = "URL")]
    llm_url: Option<String>,
    #[arg(long, value_name = "NAME")]
    llm_model: Option<String>,
    /// Give up waiting for a person after this many seconds when the model is stuck: the run
    /// fails with that reason and the command exits with 3.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    review_timeout: Option<Duration>,
    /// Never wait for a person: when the model is stuck the run fails (unattended runs).
    #[arg(long, conflicts_with = "review_timeout")]
    no_review: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
    #[arg(long, env = "STATEWRIGHT_RUNS_DIR", default_value = "runs")]
    runs_dir: PathBuf,
    #[arg(long, env = "STATEWRIGHT_DB", value_name = "FILE")]
    db: Option<PathBuf>,
}

struct Progress;

impl AgentObserver for Progress {
    fn started(&mut self, run_id: &str, url: &str) {
        eprintln!("statewright agent {run_id} · {url}");
    }

    fn step(&mut self, n: u32, what: &str) {
        eprintln!("  {n:>3}. {what}");
    }
}

pub async fn agent_cmd(args: AgentArgs) -> u8 {
    let overrides = statewright_llm::Overrides { url: args.llm_url.clone(), model: args.llm_model.clone() };
    let llm = match statewright_llm::LlmConfig::resolve(&overrides) {
        Ok(Some(config)) => config,
        Ok(None) => {
            eprintln!("statewright: an agent run needs a model: give --llm-url and --llm-model (see the README)");
            return exit::INVALID;
        }
        Err(e) => {
            eprintln!("statewright: {e}");
            return exit::INVALID;
        }
    };
    let browser = match args.cdp_url.clone() {
        Some(cdp_url) => Browser::Attach { cdp_url },
        None => Browser::Launch { headed: args.headed },
    };
    let request = AgentRequest {
        goal: args.goal.clone(),
        url: args.url.clone(),
        params: args.params.clone(),
        browser,
        demo_site: args.demo_site,
        runs_dir: args.runs_dir.clone(),
        db: args.db.clone(),
        max_steps: args.max_steps.max(1),
        llm,
        review: if args.no_review { ReviewPolicy::Never } else { ReviewPolicy::Wait { timeout: args.review_timeout } },
        listener: None,
    };
    let cancel = crate::interrupt::cancelled_on_interrupt();
    match run_agent(request, cancel, &mut Progress).await {
        Ok(summary) => {
            if args.json {
                println!("{}", serde_json::to_string_pretty(&summary).unwrap_or_default());
            }
            let mark = if summary.status == RunStatus::Succeeded { "✓" } else { "✗" };
            eprintln!(
                "{mark} {}: {} · {} steps · {} actions · {} LLM calls · {} tokens",
                format!("{:?}", summary.status).to_lowercase(),
                summary.message,
                summary.steps,
                summary.actions,
                summary.llm_calls,
                summary.llm_tokens
            );
            eprintln!(
                "  run folder: {} (make it a workflow: statewright compile {})",
                summary.run_dir.display(),
                summary.run_id
            );
            match (summary.status, &summary.failure) {
                (RunStatus::Succeeded, _) => exit::SUCCEEDED,
                (RunStatus::Failed, Some(Failure::ReviewTimeout { .. })) => exit::REVIEW_TIMEOUT,
                (RunStatus::Failed, _) => exit::FAILED,
                (RunStatus::Cancelled, _) => exit::INTERRUPTED,
            }
        }
        Err(e) => {
            eprintln!("statewright: {e}");
            match e.kind {
                RunErrorKind::Invalid => exit::INVALID,
                RunErrorKind::Environment => exit::FAILED,
            }
        }
    }
}
