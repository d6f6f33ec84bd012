//! `statewright batch`: a workflow run once per row of a CSV or JSON Lines file, a few at a
//! time, with a progress line per row and a results table that a second go resumes from.
//! The runs launch their own browsers, or attach to a pool of running ones. `statewright
//! agent --tasks` runs its goals the same way, with the same flags ([`BatchFlags`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use statewright_runner::batch::{
    BatchObserver, BatchReport, BatchRequest, Each, RowResult, default_results, run_batch, time_limit,
};
use statewright_runner::pool::{BrowserPool, Endpoint, read_pool_file};
use statewright_runner::rows::{Nested, read_rows};
use statewright_runner::{Cancel, RunError, RunErrorKind};

use crate::exit;
use crate::out::one_line;
use crate::run::{RunFlags, parse_seconds};

#[derive(Args)]
pub struct BatchArgs {
    /// The workflow file.
    file: PathBuf,
    /// The rows: a CSV file with a header line, JSON Lines (.jsonl) or a JSON array (.json);
    /// each column is a parameter of the workflow (the --param values are the defaults for
    /// every row).
    #[arg(long, value_name = "FILE")]
    data: PathBuf,
    #[command(flatten)]
    batch: BatchFlags,
    #[command(flatten)]
    flags: RunFlags,
}

/// How a batch runs its rows: how many at a time, in which browsers, its results table.
#[derive(Args)]
pub struct BatchFlags {
    /// Runs at a time. Default: 2, or with a pool as many as its endpoints take (never more).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Runs at a time on each --cdp-url endpoint, or each shared browser (default 1).
    #[arg(long, value_name = "N")]
    per_endpoint: Option<usize>,
    /// A pool file, {"endpoints": [{"cdp_url": "ws://…", "max_runs": 2}, …]}: the runs attach
    /// to these browsers (with any --cdp-url) instead of launching their own.
    #[arg(long, value_name = "FILE", conflicts_with = "headed")]
    pool: Option<PathBuf>,
    /// Launch N headless Chromiums once for the whole batch and run every row in a page of
    /// one of them (--per-endpoint at a time each), instead of a browser per row.
    #[arg(long, value_name = "N", conflicts_with_all = ["headed", "cdp_url", "pool"])]
    shared_browsers: Option<usize>,
    /// The results table (CSV; the same name with .json beside it). Default: the data
    /// file's name with .results.csv.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Stop a row's run that takes longer than this many seconds (launch to end, waiting
    /// for a review included): its row ends `timed_out` and the others go on.
    #[arg(long, value_name = "SECONDS", value_parser = parse_limit)]
    run_timeout: Option<Duration>,
}

/// `--run-timeout`'s seconds, checked as the window's *Time limit* is.
fn parse_limit(s: &str) -> Result<Duration, String> {
    parse_seconds(s).and_then(|seconds| time_limit(seconds.as_secs_f64()))
}

impl BatchFlags {
    /// Whether any is given (they mean nothing to a single run).
    pub fn any(&self) -> bool {
        self.concurrency.is_some()
            || self.per_endpoint.is_some()
            || self.pool.is_some()
            || self.shared_browsers.is_some()
            || self.out.is_some()
            || self.run_timeout.is_some()
    }

    /// The browsers of --shared-browsers, or the endpoints of --pool and `cdp_urls`; none:
    /// each run launches its own browser.
    pub fn pool(&self, cdp_urls: &[String]) -> Result<BrowserPool, String> {
        let per_endpoint = self.per_endpoint.unwrap_or(1);
        if per_endpoint == 0 || self.shared_browsers == Some(0) {
            return Err("--per-endpoint and --shared-browsers take at least 1".into());
        }
        if let Some(browsers) = self.shared_browsers {
            return Ok(BrowserPool::Shared { browsers, max_runs: per_endpoint });
        }
        if self.per_endpoint.is_some() && cdp_urls.is_empty() {
            return Err("--per-endpoint is for --cdp-url or --shared-browsers (a pool file gives max_runs)".into());
        }
        let mut endpoints = match &self.pool {
            Some(file) => read_pool_file(file).map_err(|e| e.message)?,
            None => Vec::new(),
        };
        for url in cdp_urls {
            endpoints.push(Endpoint::new(url, per_endpoint).map_err(|e| e.message)?);
        }
        Ok(if endpoints.is_empty() { BrowserPool::Launch } else { BrowserPool::Endpoints(endpoints) })
    }

    /// Runs the batch of `rows` from `data` with a line per row, and says how it went.
    pub async fn run(
        &self,
        each: Each,
        rows: Vec<statewright_runner::rows::Row>,
        data: &std::path::Path,
        pool: BrowserPool,
        json: bool,
    ) -> Result<u8, (u8, String)> {
        let results = self.out.clone().unwrap_or_else(|| default_results(data));
        let concurrency = pool.runs_at_a_time(self.concurrency);
        let browsers = match &pool {
            BrowserPool::Launch => String::new(),
            BrowserPool::Endpoints(endpoints) => format!(" · {} browser endpoints", endpoints.len()),
            BrowserPool::Shared { browsers, .. } => format!(" · {browsers} shared browsers"),
        };
        let goals = matches!(each, Each::Goal(_));
        let what = if goals { "tasks" } else { "rows" };
        errln!("statewright batch · {} {what} · {concurrency} at a time{browsers}", rows.len());
        let run_timeout = self.run_timeout;
        // The rows only for --json: the tables hold them, and a huge batch's would be gigabytes.
        let request = BatchRequest { each, rows, concurrency, results, pool, run_timeout, report_rows: json };
        let cancel = crate::interrupt::cancelled_on_interrupt();
        let report = run_batch(request, cancel.clone(), &mut Progress).await.map_err(failed)?;
        if json {
            outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
        }
        let code = summarise(&report, &cancel);
        if goals && report.succeeded > 0 {
            errln!("  grade the answers: statewright judge {}", report.results_json.display());
        }
        Ok(code)
    }
}

struct Progress;

impl BatchObserver for Progress {
    fn started(&mut self, row: usize, run_id: &str) {
        errln!("  row {row}: run {run_id} started");
    }

    fn finished(&mut self, r: &RowResult, done: usize, total: usize) {
        let mark = if r.status == "succeeded" { "✓" } else { "✗" };
        let seconds = r.duration_ms as f64 / 1000.0;
        let end = r.end_state.as_deref().map(|s| format!(" at {}", one_line(s))).unwrap_or_default();
        // A task says which it is by its id (a benchmark's, or its row number).
        let which = match r.values.get(statewright_runner::tasks::ID) {
            Some(id) => format!("task {}", one_line(id)),
            None => format!("row {}", r.row),
        };
        // The message holds the row's values (`read {{q}}`): one line, as each row has.
        errln!("[{done}/{total}] {mark} {which}: {}{end} · {seconds:.1} s · {}", r.status, one_line(&r.message));
    }

    fn not_started(&mut self, rows: usize, total: usize) {
        let what = if rows == 1 { "row was" } else { "rows were" };
        errln!("[{total}/{total}] ✗ {rows} {what} not started: cancelled, the batch was stopped first");
    }

    fn endpoint_dead(&mut self, url: &str, reason: &str) {
        errln!("statewright: browser endpoint {url} is dead, its rows go to the others: {reason}");
    }
}

pub async fn batch(args: BatchArgs) -> u8 {
    match go(&args).await {
        Ok(code) => code,
        Err((code, message)) => {
            errln!("statewright: {message}");
            code
        }
    }
}

pub fn failed(e: RunError) -> (u8, String) {
    let code = match e.kind {
        RunErrorKind::Invalid => exit::INVALID,
        RunErrorKind::Environment => exit::FAILED,
    };
    (code, e.message)
}

async fn go(args: &BatchArgs) -> Result<u8, (u8, String)> {
    let pool = args.batch.pool(&args.flags.cdp_url).map_err(|e| (exit::INVALID, e))?;
    // The pool decides each row's browser: the rows' requests are made without it.
    let mut flags = args.flags.clone();
    flags.cdp_url.clear();
    // The flags are checked once, before any row runs.
    flags.request(&args.file).map_err(|e| (exit::INVALID, e))?;
    let workflow = statewright_workflow::load_file(&args.file).map_err(|d| (exit::INVALID, d.to_string()))?.workflow;
    let rows = read_rows(&args.data, Nested::Refused).map_err(failed)?;
    let file = args.file.clone();
    let request_for = Arc::new(move || flags.request(&file));
    args.batch
        .run(Each::Workflow { workflow: Box::new(workflow), request_for }, rows, &args.data, pool, args.flags.json)
        .await
}

/// The endpoints' and the rows' tally on stderr, and the exit code.
fn summarise(report: &BatchReport, cancel: &Cancel) -> u8 {
    for endpoint in &report.endpoints {
        let dead = endpoint.dead.as_deref().map(|why| format!(" · dead: {why}")).unwrap_or_default();
        errln!("  {}: {} rows{dead}", endpoint.url, endpoint.runs);
    }
    errln!(
        "{} succeeded, {} failed{} · results: {} (and {})",
        report.succeeded,
        report.failed,
        if report.skipped > 0 { format!(", {} skipped (done before)", report.skipped) } else { String::new() },
        report.results_csv.display(),
        report.results_json.display()
    );
    match () {
        _ if cancel.is_cancelled() => exit::INTERRUPTED,
        _ if report.failed > 0 => exit::FAILED,
        _ => exit::SUCCEEDED,
    }
}
