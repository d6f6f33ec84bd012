//! `statewright run`: load, bind parameters, start the browser (and the demo site when
//! asked), run the engine, record the run folder, report.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use serde_json::json;
use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_demo::SiteServer;
use statewright_desktop::X11Desktop;
use statewright_engine::{CancellationToken, Failure, Reviewer, RunOptions, RunStatus};
use statewright_store::StoreReviewer;
use statewright_workflow::{Params, load_file};
use statewright_world::{World, needs};

use crate::exit;
use crate::recorder::Recorder;

#[derive(Args)]
pub struct RunArgs {
    /// The workflow file (native or CliGent JSON).
    file: PathBuf,
    /// A parameter value, NAME=VALUE (repeatable).
    #[arg(short, long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// Show the browser window.
    #[arg(long)]
    headed: bool,
    /// Attach to a running browser's DevTools endpoint instead of launching one.
    #[arg(long, value_name = "URL")]
    cdp_url: Option<String>,
    /// Serve the bundled demo site on loopback and pass its address as the `site` parameter.
    #[arg(long)]
    demo_site: bool,
    /// With --demo-site: serve it with this drift file's rewrites (see `demo-site --drift`).
    #[arg(long, value_name = "FILE", requires = "demo_site")]
    drift: Option<PathBuf>,
    /// Where run folders go.
    #[arg(long, env = "STATEWRIGHT_RUNS_DIR", default_value = "runs")]
    runs_dir: PathBuf,
    /// The run store (default: statewright.db in the runs folder).
    #[arg(long, env = "STATEWRIGHT_DB", value_name = "FILE")]
    db: Option<PathBuf>,
    /// Print one JSON summary on stdout at the end.
    #[arg(long)]
    json: bool,
    /// Give up waiting for a human review after this many seconds: the run fails with that
    /// reason and the command exits with 3. Without it, a run waits for as long as it takes.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    review_timeout: Option<Duration>,
    /// Never wait for a person: a failure the rest of the escalation chain cannot resolve
    /// ends the run (for unattended runs).
    #[arg(long, conflicts_with = "review_timeout")]
    no_review: bool,
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .and_then(|n| Duration::try_from_secs_f64(n).ok())
        .ok_or_else(|| format!("expected a number of seconds, got `{s}`"))
}

fn parse_param(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.trim().to_owned(), v.to_owned()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| format!("expected NAME=VALUE, got `{s}`"))
}

pub async fn run(args: RunArgs) -> u8 {
    let loaded = match load_file(&args.file) {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            return exit::INVALID;
        }
    };
    for warning in &loaded.warnings.0 {
        eprintln!("{warning}");
    }
    let workflow = loaded.workflow;
    let mut supplied = args.params.clone();
    // The demo server must outlive the run; it stops when dropped.
    let _site = if args.demo_site {
        if !workflow.parameters.contains_key("site") {
            eprintln!("statewright: --demo-site sets the `site` parameter, but {} declares none", args.file.display());
            return exit::INVALID;
        }
        let site = match crate::workflow_cmds::site(None, args.drift.as_deref()) {
            Ok(site) => site,
            Err(e) => {
                eprintln!("statewright: {e}");
                return exit::INVALID;
            }
        };
        match SiteServer::start(site, 0).await {
            Ok(server) => {
                if !supplied.iter().any(|(k, _)| k == "site") {
                    supplied.push(("site".into(), server.url()));
                }
                Some(server)
            }
            Err(e) => {
                eprintln!("statewright: cannot serve the demo site: {e}");
                return exit::FAILED;
            }
        }
    } else {
        None
    };
    let params = match Params::bind(&workflow, &supplied) {
        Ok(params) => params,
        Err(e) => {
            eprintln!("statewright: {e}");
            return exit::INVALID;
        }
    };

    let options = LaunchOptions {
        headed: args.headed,
        cdp_url: args.cdp_url.clone(),
        executable: None,
        viewport: (workflow.config.viewport.width, workflow.config.viewport.height),
    };
    let needs = needs(&workflow);
    let page = if args.cdp_url.is_some() {
        "attached browser"
    } else if args.headed {
        "headed Chromium"
    } else {
        "headless Chromium"
    };
    let browser = match (needs.browser, needs.desktop) {
        (false, _) => "desktop".to_owned(),
        (true, false) => page.to_owned(),
        (true, true) => format!("{page} + desktop"),
    };
    let db = args.db.clone().unwrap_or_else(|| statewright_store::Store::default_path(&args.runs_dir));
    let recorder = match Recorder::create(&args.runs_dir, &db, &workflow, &params, &browser, &args.file) {
        Ok(recorder) => recorder,
        Err(e) => {
            eprintln!("statewright: cannot record the run under {}: {e}", args.runs_dir.display());
            return exit::FAILED;
        }
    };
    // The desktop is connected only for workflows that use it (a clear error without X).
    let desktop = if needs.desktop {
        match X11Desktop::connect().await {
            Ok(desktop) => Some(desktop),
            Err(e) => {
                eprintln!("statewright: {e}");
                recorder.abort(&e.to_string());
                return exit::FAILED;
            }
        }
    } else {
        None
    };
    let chrome = if needs.browser {
        match ChromeDriver::start(&options).await {
            Ok(driver) => Some(driver),
            Err(e) => {
                eprintln!("statewright: {e}");
                recorder.abort(&e.to_string());
                return exit::FAILED;
            }
        }
    } else {
        None
    };
    let mut driver = World::new(chrome, desktop);

    let cancel = CancellationToken::new();
    let on_interrupt = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_interrupt.cancel();
        }
    });
    let options = match run_options(&args, &db, &recorder, &workflow.name) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("statewright: {e}");
            return exit::FAILED;
        }
    };
    let (events_tx, events_rx) = tokio::sync::mpsc::unbounded_channel();
    let record = tokio::spawn(recorder.consume(events_rx));
    let report = statewright_engine::run(&workflow, &params, &mut driver, events_tx, cancel, options).await;
    driver.close().await;
    let run_dir = match record.await {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("statewright: the run recorder failed: {e}");
            return exit::FAILED;
        }
    };

    if args.json {
        let summary = json!({
            "run_id": run_dir.file_name().map(|n| n.to_string_lossy().into_owned()),
            "workflow": workflow.name,
            "status": report.status,
            "end_state": report.end_state,
            "outcome": report.outcome,
            "message": report.message,
            "failure": report.failure,
            "duration_ms": report.duration.as_millis() as u64,
            "steps": report.steps,
            "actions": report.actions,
            "llm_calls": 0,
            "llm_tokens": 0,
            "run_dir": run_dir,
        });
        println!("{summary}");
    }
    match (report.status, &report.failure) {
        (RunStatus::Succeeded, _) => exit::SUCCEEDED,
        (RunStatus::Failed, Some(Failure::ReviewTimeout { .. })) => exit::REVIEW_TIMEOUT,
        (RunStatus::Failed, _) => exit::FAILED,
        (RunStatus::Cancelled, _) => exit::INTERRUPTED,
    }
}

/// The locators recorded by earlier runs of this workflow, and the review queue.
fn run_options(args: &RunArgs, db: &Path, recorder: &Recorder, workflow: &str) -> Result<RunOptions, String> {
    let run_id = recorder.run_id();
    let locators = recorder.locators(workflow)?;
    let reviewer: Option<Arc<dyn Reviewer>> = if args.no_review {
        None
    } else {
        Some(Arc::new(StoreReviewer::open(db, run_id, args.review_timeout).map_err(|e| e.to_string())?))
    };
    Ok(RunOptions { locators, advisor: None, reviewer })
}
