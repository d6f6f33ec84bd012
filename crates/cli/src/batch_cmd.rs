//! `statewright batch`: a workflow run once per row of a CSV or JSON Lines file, a few at a
//! time, with a progress line per row and a results table that a second go resumes from.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use statewright_runner::batch::{BatchObserver, BatchRequest, RowResult, default_results, run_batch};
use statewright_runner::rows::read_rows;
use statewright_runner::{RunError, RunErrorKind};

use crate::exit;
use crate::run::RunFlags;

#[derive(Args)]
pub struct BatchArgs {
    /// The workflow file.
    file: PathBuf,
    /// The rows: a CSV file with a header line, or JSON Lines (.jsonl); each column is a
    /// parameter of the workflow (the --param values are the defaults for every row).
    #[arg(long, value_name = "FILE")]
    data: PathBuf,
    /// Runs at a time.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// The results table (CSV; the same name with .json beside it). Default: the data
    /// file's name with .results.csv.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    flags: RunFlags,
}

struct Progress;

impl BatchObserver for Progress {
    fn started(&mut self, row: usize, run_id: &str) {
        eprintln!("  row {row}: run {run_id} started");
    }

    fn finished(&mut self, r: &RowResult, done: usize, total: usize) {
        let mark = if r.status == "succeeded" { "✓" } else { "✗" };
        let seconds = r.duration_ms as f64 / 1000.0;
        let end = r.end_state.as_deref().map(|s| format!(" at {s}")).unwrap_or_default();
        eprintln!("[{done}/{total}] {mark} row {}: {}{end} · {seconds:.1} s · {}", r.row, r.status, r.message);
    }
}

pub async fn batch(args: BatchArgs) -> u8 {
    match go(&args).await {
        Ok(code) => code,
        Err((code, message)) => {
            eprintln!("statewright: {message}");
            code
        }
    }
}

fn failed(e: RunError) -> (u8, String) {
    let code = match e.kind {
        RunErrorKind::Invalid => exit::INVALID,
        RunErrorKind::Environment => exit::FAILED,
    };
    (code, e.message)
}

async fn go(args: &BatchArgs) -> Result<u8, (u8, String)> {
    // The flags are checked once, before any row runs.
    args.flags.request(&args.file).map_err(|e| (exit::INVALID, e))?;
    let workflow = statewright_workflow::load_file(&args.file).map_err(|d| (exit::INVALID, d.to_string()))?.workflow;
    let rows = read_rows(&args.data).map_err(failed)?;
    let results = args.out.clone().unwrap_or_else(|| default_results(&args.data));
    let request = BatchRequest { workflow, rows, concurrency: args.concurrency.max(1), results };
    let flags = args.flags.clone();
    let file = args.file.clone();
    let request_for = Arc::new(move || flags.request(&file));
    eprintln!("statewright batch · {} rows · {} at a time", request.rows.len(), request.concurrency);
    let cancel = crate::interrupt::cancelled_on_interrupt();
    let report = run_batch(request, request_for, cancel.clone(), &mut Progress).await.map_err(failed)?;
    if args.flags.json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    }
    eprintln!(
        "{} succeeded, {} failed{} · results: {} (and {})",
        report.succeeded,
        report.failed,
        if report.skipped > 0 { format!(", {} skipped (done before)", report.skipped) } else { String::new() },
        report.results_csv.display(),
        report.results_json.display()
    );
    Ok(match () {
        _ if cancel.is_cancelled() => exit::INTERRUPTED,
        _ if report.failed > 0 => exit::FAILED,
        _ => exit::SUCCEEDED,
    })
}
