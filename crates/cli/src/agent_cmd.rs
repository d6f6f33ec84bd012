//! `statewright agent`: a run driven by the model towards a goal, one checked step at a
//! time; stored like any run, so `statewright compile RUN` makes it a workflow. With
//! `--tasks`, a run per task of a file (a benchmark's), as `statewright batch` runs rows.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use statewright_llm::LlmConfig;
use statewright_runner::agent::{AgentObserver, AgentRequest, run_agent};
use statewright_runner::batch::Each;
use statewright_runner::{Browser, Failure, ReviewPolicy, RunErrorKind, RunStatus};

use crate::batch_cmd::{BatchFlags, failed};
use crate::exit;
use crate::model_args::ModelArgs;
use crate::out::one_line;
use crate::run::{parse_param, parse_seconds};
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct AgentArgs {
    /// What to get done, in words ("buy two kettles and tell me the order number").
    #[arg(long, required_unless_present = "tasks", conflicts_with = "tasks")]
    goal: Option<String>,
    /// The first page; `{{NAME}}` in it is filled from --param. Only its site may be visited.
    #[arg(long, required_unless_present = "tasks", conflicts_with = "tasks")]
    url: Option<String>,
    /// A run per task of this file, a few at a time (CSV, JSON Lines or a JSON array): each
    /// task has a goal and a first page, as `goal`/`url` or as WebVoyager (`ques`/`web`),
    /// Online-Mind2Web (`confirmed_task`/`website`) or WebArena (`intent`/`start_url`) write
    /// them; its other fields are values. The results table has each model's answer.
    #[arg(long, value_name = "FILE")]
    tasks: Option<PathBuf>,
    #[command(flatten)]
    batch: BatchFlags,
    /// The most steps the model may take (1 to 500).
    #[arg(long, default_value_t = AgentRequest::DEFAULT_MAX_STEPS,
          value_parser = clap::value_parser!(u32).range(1..=AgentRequest::MOST_STEPS as i64))]
    max_steps: u32,
    /// A value the model may type as `{{NAME}}` (names with password, token, secret, pin or
    /// api_key are secret: the model never sees them, and only password fields take them).
    #[arg(short, long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// Show the browser window.
    #[arg(long)]
    headed: bool,
    /// Drive a new tab of the browser at this DevTools endpoint instead of launching one
    /// (with --tasks: repeatable, a pool of endpoints).
    #[arg(long, value_name = "URL", conflicts_with = "headed")]
    cdp_url: Vec<String>,
    /// Serve the bundled demo site on loopback and pass its address as `site`.
    #[arg(long)]
    demo_site: bool,
    #[command(flatten)]
    model: ModelArgs,
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
    #[command(flatten)]
    store: StoreArgs,
}

struct Progress;

impl AgentObserver for Progress {
    fn started(&mut self, run_id: &str, url: &str) {
        errln!("statewright agent {run_id} · {url}");
    }

    fn step(&mut self, n: u32, what: &str) {
        // The model's step, told on the one line it has.
        errln!("  {n:>3}. {}", one_line(what));
    }
}

pub async fn agent_cmd(args: AgentArgs) -> u8 {
    if let Err(message) = crate::display::check(args.headed, crate::display::NOT_HEADED) {
        errln!("statewright: {message}");
        return exit::INVALID;
    }
    let llm = match args.model.required("an agent run") {
        Ok(llm) => llm,
        Err(message) => {
            errln!("statewright: {message}");
            return exit::INVALID;
        }
    };
    if let Some(tasks) = &args.tasks {
        return match run_tasks(&args, tasks, llm).await {
            Ok(code) => code,
            Err((code, message)) => {
                errln!("statewright: {message}");
                code
            }
        };
    }
    if args.batch.any() {
        errln!(
            "statewright: --concurrency, --per-endpoint, --pool, --shared-browsers, --out and --run-timeout are for --tasks"
        );
        return exit::INVALID;
    }
    let browser = match args.cdp_url.as_slice() {
        [] => Browser::Launch { headed: args.headed },
        [cdp_url] => Browser::Attach { cdp_url: cdp_url.clone() },
        _ => {
            errln!("statewright: --cdp-url more than once is for --tasks (a pool of endpoints)");
            return exit::INVALID;
        }
    };
    let mut request = request(&args, llm);
    (request.goal, request.url, request.browser) =
        (args.goal.clone().unwrap_or_default(), args.url.clone().unwrap_or_default(), browser);
    let cancel = crate::interrupt::cancelled_on_interrupt();
    match run_agent(request, cancel, &mut Progress).await {
        Ok(summary) => {
            if args.json {
                outln!("{}", serde_json::to_string_pretty(&summary).unwrap_or_default());
            }
            let mark = if summary.status == RunStatus::Succeeded { "✓" } else { "✗" };
            // A cancelled run's message already begins with its status ("cancelled: …").
            let status = format!("{:?}", summary.status).to_lowercase();
            let message = summary.message.strip_prefix(&format!("{status}: ")).unwrap_or(&summary.message);
            let said = if message.is_empty() || message == status { status } else { format!("{status}: {message}") };
            errln!(
                "{mark} {said} · {} steps · {} actions · {} LLM calls · {} tokens",
                summary.steps,
                summary.actions,
                summary.llm_calls,
                summary.llm_tokens
            );
            errln!(
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
            errln!("statewright: {e}");
            match e.kind {
                RunErrorKind::Invalid => exit::INVALID,
                RunErrorKind::Environment => exit::FAILED,
            }
        }
    }
}

/// The request every run starts from; its goal and first page are the caller's to set.
fn request(args: &AgentArgs, llm: LlmConfig) -> AgentRequest {
    AgentRequest {
        params: args.params.clone(),
        browser: Browser::Launch { headed: args.headed },
        demo_site: args.demo_site,
        db: args.store.db.clone(),
        review: if args.no_review { ReviewPolicy::Never } else { ReviewPolicy::Wait { timeout: args.review_timeout } },
        ..AgentRequest::new(llm, &args.store.runs_dir).with_max_steps(Some(args.max_steps))
    }
}

/// A run per task of the file, as `statewright batch` runs rows.
async fn run_tasks(args: &AgentArgs, file: &std::path::Path, llm: LlmConfig) -> Result<u8, (u8, String)> {
    let pool = args.batch.pool(&args.cdp_url).map_err(|e| (exit::INVALID, e))?;
    let tasks = statewright_runner::tasks::read_tasks(file).map_err(failed)?;
    args.batch.run(Each::goals(request(args, llm)), tasks, file, pool, args.json).await
}
