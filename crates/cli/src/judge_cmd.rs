//! `statewright judge`: the model grades the answers of `agent --tasks`, as a benchmark's
//! auto-evaluator does, and the results table gets a verdict per task and a score.

use std::path::PathBuf;

use clap::Args;
use statewright_runner::batch::RowResult;
use statewright_runner::judge::{JudgeObserver, JudgeRequest, UNJUDGED, judge_results};

use crate::batch_cmd::failed;
use crate::exit;
use crate::model_args::ModelArgs;
use crate::out::one_line;
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct JudgeArgs {
    /// The results table `agent --tasks` wrote (TASKS.results.json, or the .csv beside it).
    results: PathBuf,
    /// How many of each run's last screenshots the model is shown.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10))]
    screenshots: u32,
    /// Calls to the model at a time.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=32))]
    concurrency: u32,
    /// Judge again the tasks an earlier go judged.
    #[arg(long)]
    again: bool,
    #[command(flatten)]
    model: ModelArgs,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    store: StoreArgs,
}

struct Progress;

impl JudgeObserver for Progress {
    fn judged(&mut self, row: &RowResult, done: usize, total: usize) {
        let id = row.values.get("id").map_or_else(|| row.row.to_string(), |id| one_line(id).into_owned());
        // Every task the judge hears of has a judgement, if only that it has none.
        let Some(j) = &row.judged else { return };
        // The model's reason, one line per task whatever it wrote.
        let reason = one_line(&j.reason);
        match j.verdict.as_str() {
            UNJUDGED => errln!("[{done}/{total}] ? {id}: {reason} (the next go asks again)"),
            verdict => {
                let mark = if verdict == "success" { "✓" } else { "✗" };
                errln!("[{done}/{total}] {mark} {id}: {verdict} — {reason}");
            }
        }
    }
}

pub async fn judge_cmd(args: JudgeArgs) -> u8 {
    match judge(&args).await {
        Ok(code) => code,
        Err((code, message)) => {
            errln!("statewright: {message}");
            code
        }
    }
}

async fn judge(args: &JudgeArgs) -> Result<u8, (u8, String)> {
    let llm = args.model.required("judging").map_err(|e| (exit::INVALID, e))?;
    let request = JudgeRequest {
        results: args.results.clone(),
        db: args.store.db_path(),
        llm,
        screenshots: args.screenshots as usize,
        concurrency: args.concurrency as usize,
        again: args.again,
    };
    let cancel = crate::interrupt::cancelled_on_interrupt();
    let report = judge_results(request, cancel, &mut Progress).await.map_err(failed)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    }
    let score = report.score.map_or_else(|| "no tasks".to_owned(), |s| format!("score {:.1}%", s * 100.0));
    errln!(
        "{score}: {} success, {} not success, {} without a verdict, of {} · {} model calls · {} tokens · ${:.4}",
        report.success,
        report.not_success,
        report.unjudged,
        report.total,
        report.llm_calls,
        report.llm_tokens,
        report.llm_cost
    );
    errln!("  verdicts in {} and {}", report.results_csv.display(), report.results_json.display());
    Ok(if report.interrupted {
        exit::INTERRUPTED
    } else if report.success == report.total {
        exit::SUCCEEDED
    } else {
        exit::FAILED
    })
}
