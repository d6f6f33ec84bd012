//! `statewright runs`: list, show, export and prune the runs in the run store.

use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use statewright_runner::export::Images;
use statewright_store::{Error, PruneBy, RunDetail, RunFilter, STATUSES, Store};

use crate::exit;
use crate::out::one_line;
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct RunsArgs {
    #[command(flatten)]
    store: StoreArgs,
    #[command(subcommand)]
    command: RunsCommand,
}

#[derive(Subcommand)]
enum RunsCommand {
    /// List runs, newest first.
    List {
        /// Only runs of this workflow (its name).
        #[arg(long)]
        workflow: Option<String>,
        /// Only runs with this status.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(STATUSES))]
        status: Option<String>,
        /// At most this many runs.
        #[arg(long)]
        limit: Option<usize>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Show a run's state trace: each state entered, its checks, actions, timings and errors.
    Show {
        /// A run id, or a unique prefix of one.
        run: String,
        /// Print JSON on stdout (with each step's page text and elements).
        #[arg(long)]
        json: bool,
    },
    /// Write a run as a trajectory folder: timeline.json, action_timeline.json, step-NNN.png/json.
    /// A folder that is there and not empty is refused (exit 2) unless --force, and then unless
    /// it is an earlier export, which is replaced whole.
    Export {
        /// A run id, or a unique prefix of one.
        run: String,
        /// The folder to write (made if it is not there).
        dir: PathBuf,
        /// Replace the earlier export in DIR (only a folder `runs export` wrote: nothing else in it).
        #[arg(long)]
        force: bool,
    },
    /// Delete old runs, their run folders and the screenshots nothing references any more.
    #[command(group(clap::ArgGroup::new("which").required(true).args(["keep", "before"])))]
    Prune {
        /// Keep the N most recent runs.
        #[arg(long, value_name = "N")]
        keep: Option<usize>,
        /// Delete runs started before DATE: YYYY-MM-DD (from midnight UTC) or RFC 3339, with Z or
        /// an offset such as +05:00 (UTC without either).
        #[arg(long, value_name = "DATE")]
        before: Option<String>,
    },
}

fn fail(e: &Error) -> u8 {
    errln!("statewright: {e}");
    if e.is_callers() { exit::INVALID } else { exit::FAILED }
}

pub fn runs(args: RunsArgs) -> u8 {
    let db = args.store.db_path();
    // Reading commands do not create a store that does not exist.
    if !db.exists() {
        return match &args.command {
            RunsCommand::List { json: true, .. } => {
                outln!("[]");
                exit::SUCCEEDED
            }
            RunsCommand::List { .. } => {
                errln!("no runs recorded in {}", db.display());
                exit::SUCCEEDED
            }
            RunsCommand::Show { run, .. } | RunsCommand::Export { run, .. } => fail(&Error::UnknownRun(run.clone())),
            RunsCommand::Prune { .. } => {
                outln!("pruned 0 runs and 0 files");
                exit::SUCCEEDED
            }
        };
    }
    let store = match Store::open(&db) {
        Ok(store) => store,
        Err(e) => return fail(&e),
    };
    let result = match args.command {
        RunsCommand::List { workflow, status, limit, json } => {
            list(&store, RunFilter { workflow, status, limit }, json)
        }
        RunsCommand::Show { run, json } => show(&store, &run, json),
        RunsCommand::Export { run, dir, force } => export(&store, &run, &dir, force),
        RunsCommand::Prune { keep, before } => prune(&store, keep, before.as_deref(), &args.store.runs_dir),
    };
    match result {
        Ok(code) => code,
        Err(e) => fail(&e),
    }
}

fn time(ms: i64) -> String {
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms.max(0) as u64)).to_string()
}

fn seconds(ms: i64) -> String {
    format!("{:.2}s", ms as f64 / 1000.0)
}

fn list(store: &Store, filter: RunFilter, json: bool) -> Result<u8, Error> {
    let runs = store.list_runs(&filter)?;
    if json {
        outln!("{}", serde_json::to_string(&runs)?);
        return Ok(exit::SUCCEEDED);
    }
    if runs.is_empty() {
        errln!("no runs");
        return Ok(exit::SUCCEEDED);
    }
    outln!(
        "{:<21} {:<18} {:<20} {:<24} {:>9} {:>5} {:>7}  END STATE",
        "RUN",
        "STATUS",
        "WORKFLOW",
        "STARTED",
        "DURATION",
        "STEPS",
        "ACTIONS"
    );
    for r in runs {
        outln!(
            "{:<21} {:<18} {:<20} {:<24} {:>9} {:>5} {:>7}  {}",
            r.id,
            r.status,
            one_line(&r.workflow),
            time(r.started_ms),
            r.duration_ms.map(seconds).unwrap_or_else(|| "-".into()),
            r.steps,
            r.actions,
            one_line(r.end_state.as_deref().unwrap_or("-")),
        );
    }
    Ok(exit::SUCCEEDED)
}

fn show(store: &Store, prefix: &str, json: bool) -> Result<u8, Error> {
    let id = store.resolve_run(prefix)?;
    let detail = store.run_detail(&id, json)?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&detail)?);
    } else {
        out!("{}", render(&detail));
    }
    Ok(exit::SUCCEEDED)
}

/// The human trace of a run: a line per fact, each field from data (names, URLs, titles,
/// messages, the page's labels) made [`one_line`].
fn render(d: &RunDetail) -> String {
    use std::fmt::Write;
    let r = &d.run;
    let mut out = String::new();
    let _ = writeln!(out, "run {} · {} · {}", r.id, one_line(&r.workflow), r.status);
    let _ = writeln!(
        out,
        "started {}{} · {} steps · {} actions · {}",
        time(r.started_ms),
        r.duration_ms.map(|ms| format!(" · took {}", seconds(ms))).unwrap_or_default(),
        r.steps,
        r.actions,
        r.browser
    );
    if let Some(params) = r.parameters.as_object().filter(|p| !p.is_empty()) {
        let list: Vec<String> = params
            .iter()
            .map(|(k, v)| {
                format!("{}={}", one_line(k), one_line(&v.as_str().map(str::to_owned).unwrap_or(v.to_string())))
            })
            .collect();
        let _ = writeln!(out, "parameters {}", list.join(" "));
    }
    if let Some(end) = &r.end_state {
        let _ = writeln!(
            out,
            "end state {}{}",
            one_line(end),
            r.outcome.as_ref().map(|o| format!(" ({o})")).unwrap_or_default()
        );
    }
    if let Some(message) = r.message.as_ref().filter(|m| !m.is_empty()) {
        let _ = writeln!(out, "message {}", one_line(message));
    }
    if let Some(failure) = &r.failure {
        let _ = writeln!(out, "failure {}", one_line(&failure.to_string()));
    }
    if r.llm_calls > 0 {
        let _ = writeln!(out, "model {} call(s) · {} tokens · ${:.4}", r.llm_calls, r.llm_tokens, r.llm_cost);
    }
    if r.retries > 0 {
        let _ = writeln!(out, "retried a state's actions {} time(s)", r.retries);
    }
    if r.heals > 0 {
        let _ = writeln!(
            out,
            "healed {} locator(s) or check(s): `review save-healed {}` writes them into the workflow",
            r.heals, r.id
        );
    }
    for (name, value) in r.outputs.as_object().into_iter().flatten() {
        let _ = writeln!(out, "output {} = {value}", one_line(name));
    }
    let mut actions = d.actions.iter().peekable();
    for step in &d.steps {
        let _ = writeln!(
            out,
            "\n#{:<3} +{:<8} {} (visit {}) {}",
            step.step,
            seconds(step.elapsed_ms),
            one_line(&step.state),
            step.visit,
            one_line(&step.url)
        );
        if let Some(title) = step.page_title.as_ref().filter(|t| !t.is_empty()) {
            let _ = writeln!(out, "     title {}", one_line(title));
        }
        for check in step.checks.as_array().into_iter().flatten() {
            let mark = if check["passed"] == json!(true) { "✓" } else { "✗" };
            let _ = writeln!(out, "     {mark} {}", one_line(check["check"].as_str().unwrap_or_default()));
        }
        // As the progress lines said them.
        for h in d.healed.iter().filter(|h| h.step == Some(step.step)) {
            let show = |t| serde_json::to_string(t).unwrap_or_default();
            let (action, of) = (h.index + 1, h.field.suffix());
            let _ = writeln!(out, "     healed action {action}{of}: {} → {}", show(&h.from), show(&h.to));
        }
        for h in d.healed_checks.iter().filter(|h| h.step == Some(step.step)) {
            let show = statewright_engine::matcher::describe;
            let _ = writeln!(out, "     healed check {}: {} → {}", h.index + 1, show(&h.from), show(&h.to));
        }
        for c in d.model_calls.iter().filter(|c| c.step == step.step) {
            let verdict = match (&c.call.error, c.call.accepted) {
                (Some(error), _) => format!("refused: {}", one_line(error)),
                (None, true) => "used".to_owned(),
                (None, false) => "not used".to_owned(),
            };
            let _ = writeln!(
                out,
                "     model {} · {} ms · {} tokens · {verdict} · {}",
                c.call.model,
                c.call.latency_ms,
                c.call.prompt_tokens + c.call.completion_tokens,
                c.call.answer.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
        while let Some(a) = actions.next_if(|a| a.step <= step.step) {
            if a.kind == "preempted" {
                let _ = writeln!(
                    out,
                    "     ⇢ action {} preempted by {}: {}",
                    a.index + 1,
                    one_line(a.by_state.as_deref().unwrap_or("?")),
                    one_line(a.error.as_deref().unwrap_or(""))
                );
                continue;
            }
            let args = a.args.as_ref().map(Value::to_string).unwrap_or_default();
            let _ = writeln!(
                out,
                "     {}. {} {} · {}{}{}",
                a.index + 1,
                a.kind,
                args,
                a.duration_ms.map(|ms| format!("{ms} ms")).unwrap_or_default(),
                a.attempts.filter(|n| *n > 1).map(|n| format!(" · {n} attempts")).unwrap_or_default(),
                a.detail.as_ref().map(|d| format!(" · {}", one_line(d))).unwrap_or_default()
            );
            if let Some(value) = &a.value {
                let _ = writeln!(out, "        = {value}");
            }
            if let Some(error) = &a.error {
                let _ = writeln!(out, "        ✗ {}", one_line(error));
            }
        }
        for t in d.tabs_opened.iter().filter(|t| t.step == step.step) {
            let url = crate::out::safe(&t.url);
            let _ = writeln!(out, "     ⧉ action {} opened a tab; the run went on in it, at {url}", t.index + 1);
        }
        for r in d.retries.iter().filter(|r| r.step == step.step) {
            let _ = writeln!(out, "     ↻ retry {}/{}: {}", r.attempt, r.max, one_line(&r.reason));
        }
    }
    out
}

fn export(store: &Store, prefix: &str, dir: &Path, force: bool) -> Result<u8, Error> {
    let id = store.resolve_run(prefix)?;
    let occupied = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
    if occupied && !force {
        errln!(
            "statewright: {} is not empty: export into a new or empty folder, or give --force to write over it",
            dir.display()
        );
        return Ok(exit::INVALID);
    }
    if occupied {
        // --force replaces an earlier export, whole; a folder of anything else is left alone.
        if let Err(why) = statewright_runner::export::an_export(dir) {
            errln!(
                "statewright: {} is not an earlier export ({why}): --force replaces only a folder a `runs export` \
                 wrote; export into a new or empty folder",
                dir.display()
            );
            return Ok(exit::INVALID);
        }
        statewright_runner::export::replace(store, &id, dir, Images::Png)?;
    } else {
        statewright_runner::export::export(store, &id, dir, Images::Png)?;
    }
    errln!("exported run {id} to {}", dir.display());
    Ok(exit::SUCCEEDED)
}

fn prune(store: &Store, keep: Option<usize>, before: Option<&str>, runs_dir: &Path) -> Result<u8, Error> {
    let by = match (keep, before) {
        (Some(n), _) => PruneBy::Keep(n),
        (None, Some(date)) => match PruneBy::before(date) {
            Some(by) => by,
            None => {
                errln!("statewright: --before expects a date such as 2026-01-31 or 2026-01-31T12:00:00Z, got `{date}`");
                return Ok(exit::INVALID);
            }
        },
        (None, None) => unreachable!("clap requires --keep or --before"),
    };
    let report = store.prune_in(by, runs_dir)?;
    outln!("pruned {} runs and {} files", report.runs, report.files);
    Ok(exit::SUCCEEDED)
}
