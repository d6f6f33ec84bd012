//! Judging a task file's answers (`statewright judge`), as WebVoyager's auto-evaluator does:
//! for each task whose run succeeded, the model is shown the task, the agent's answer and
//! the run's last screenshots (password fields painted over) and says whether the task was
//! accomplished. A task whose run did not succeed is `not_success` without asking. The
//! verdicts go into the results table beside the answers, each appended to the table's
//! journal as it comes ([`crate::batch::journal`]), so a stopped judge goes on where it was;
//! the score is the share of tasks judged a success.
//! The table is held as a batch holds it ([`crate::batch::lock`]): a judge does not rewrite
//! it under a batch still writing its rows, nor a batch under a judge.

use std::path::{Path, PathBuf};

use futures::StreamExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statewright_engine::{Cancel, ModelUse};
use statewright_llm::judge::{Evidence, Verdict, judge};
use statewright_llm::{Client, LlmConfig};
use statewright_store::Store;

use crate::batch::RowResult;
use crate::batch::journal::Record;
use crate::batch::lock::{ResultsLock, Writer};
use crate::batch::table;
use crate::error::RunError;

/// What the judge said of a task, in its results table row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Judgement {
    /// `success`, `not_success`, or `unjudged` when no verdict could be had (the reason says
    /// why; the next go asks again).
    pub verdict: String,
    pub reason: String,
    /// The model that judged; none when the run's own status decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// The verdict of a task the model gave none for.
pub const UNJUDGED: &str = "unjudged";

pub struct JudgeRequest {
    /// The results table of `agent --tasks` (its `.json`, or the `.csv` beside it).
    pub results: PathBuf,
    /// The store the runs are in.
    pub db: PathBuf,
    pub llm: LlmConfig,
    /// The run's last screenshots shown (at least 1).
    pub screenshots: usize,
    /// Calls to the model at a time.
    pub concurrency: usize,
    /// Judge again the tasks an earlier go judged.
    pub again: bool,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct JudgeReport {
    pub total: usize,
    pub success: usize,
    pub not_success: usize,
    /// Tasks with no verdict: the model could not be reached or gave none, or the run is
    /// not in the store. The next go asks again.
    pub unjudged: usize,
    /// `success / total`; none for an empty table.
    pub score: Option<f64>,
    /// This go's calls to the model, their tokens and cost (US dollars).
    pub llm_calls: u32,
    pub llm_tokens: u64,
    pub llm_cost: f64,
    /// Whether the judge was stopped before every task was judged.
    pub interrupted: bool,
    pub results_csv: PathBuf,
    pub results_json: PathBuf,
    pub rows: Vec<RowResult>,
}

/// Hears each task as it is judged (or found judged already).
pub trait JudgeObserver: Send {
    fn judged(&mut self, row: &RowResult, done: usize, total: usize);
}

/// The goal a task's row holds (`agent --tasks` reads every benchmark's name for it as `goal`).
fn goal(row: &RowResult) -> Option<&str> {
    row.values.get(crate::tasks::GOAL).map(String::as_str)
}

pub async fn judge_results(
    request: JudgeRequest,
    cancel: Cancel,
    observer: &mut dyn JudgeObserver,
) -> Result<JudgeReport, RunError> {
    let (csv, json) = (request.results.with_extension("csv"), request.results.with_extension("json"));
    // Held to the end, before the table is read: rows a batch writes meanwhile are not lost.
    let _lock = ResultsLock::take(&csv, Writer::Judge)?;
    let mut rows = read_table(&json)?;
    let client = Client::new(request.llm.clone()).map_err(|e| RunError::invalid("llm", e.to_string()))?;
    // Read from as each task's turn comes (a go over hundreds of tasks does not hold all
    // their screenshots); behind a lock, as the store is not `Sync`.
    let store = std::sync::Mutex::new(open_store(&request.db)?);
    let total = rows.len();
    let mut done = 0;
    // The run's own status decides first; the rest wait for the model.
    let mut asked = Vec::new();
    for (i, row) in rows.iter_mut().enumerate() {
        let keep = !request.again && row.judged.as_ref().is_some_and(|j| j.verdict != UNJUDGED);
        if !keep && row.status == "succeeded" {
            row.judged = None;
            asked.push(Asked {
                i,
                run_id: row.run_id.clone(),
                task: goal(row).unwrap_or_default().to_owned(),
                answer: row.outputs.get("answer").cloned(),
            });
            continue;
        }
        if !keep {
            let reason = format!("the run {}: {}", row.status, row.message);
            row.judged = Some(Box::new(Judgement { verdict: "not_success".into(), reason, model: None }));
        }
        done += 1;
        observer.judged(row, done, total);
    }
    let guess = table::Columns::of(&rows);
    let mut record = Record::start(&csv, &json, &mut rows, &guess)?;
    let mut used = ModelUse::default();
    let shown = request.screenshots.max(1);
    let (client, store) = (&client, &store);
    let mut verdicts = futures::stream::iter(asked)
        .map(|asked| {
            let i = asked.i;
            let evidence = evidence(&store.lock().unwrap_or_else(|e| e.into_inner()), asked, shown);
            async move {
                match evidence {
                    Ok(evidence) => {
                        let (verdict, call) = judge(client, &evidence).await;
                        (i, verdict.ok_or_else(|| call.error.clone().unwrap_or_default()), Some(call))
                    }
                    Err(why) => (i, Err(why), None),
                }
            }
        })
        .buffer_unordered(request.concurrency.max(1));
    let mut interrupted = false;
    loop {
        let next = tokio::select! {
            _ = cancel.cancelled() => { interrupted = true; break; }
            next = verdicts.next() => next,
        };
        let Some((i, verdict, call)) = next else { break };
        if let Some(call) = &call {
            used.count(call);
        }
        let (verdict, reason) = match verdict {
            Ok(Verdict { success, reason }) => (if success { "success" } else { "not_success" }, reason),
            Err(why) => (UNJUDGED, format!("no verdict: {why}")),
        };
        let model = Some(request.llm.model.clone());
        rows[i].judged = Some(Box::new(Judgement { verdict: verdict.into(), reason, model }));
        done += 1;
        observer.judged(&rows[i], done, total);
        record.note(&mut rows, i)?;
        record.catch_up(&mut rows)?;
    }
    drop(verdicts);
    record.finish(&mut rows)?;
    Ok(report(rows, used, interrupted, csv, json))
}

fn read_table(json: &Path) -> Result<Vec<RowResult>, RunError> {
    if !json.exists() {
        let message =
            format!("{}: no results table here (`agent --tasks FILE` writes FILE.results.json)", json.display());
        return Err(RunError::invalid("results", message));
    }
    let rows = table::whole_rows(json)?;
    if let Some(row) = rows.iter().find(|r| goal(r).is_none()) {
        let message = format!(
            "{}: row {} has no goal; the judge reads the results of `agent --tasks`, not of a workflow's batch",
            json.display(),
            row.row
        );
        return Err(RunError::invalid("results", message));
    }
    Ok(rows)
}

fn open_store(db: &Path) -> Result<Store, RunError> {
    if !db.exists() {
        return Err(RunError::invalid(
            "store",
            format!("{}: no run store here (give --runs-dir or --db)", db.display()),
        ));
    }
    Store::open(db).map_err(|e| RunError::store(&e))
}

/// A task the model is asked about: its row's index, run, goal and answer.
struct Asked {
    i: usize,
    run_id: Option<String>,
    task: String,
    answer: Option<serde_json::Value>,
}

/// The task, its answer and the run's last `count` screenshots, oldest first.
fn evidence(store: &Store, asked: Asked, count: usize) -> Result<Evidence, String> {
    let id = asked.run_id.as_deref().ok_or("the row has no run id")?;
    let detail = store.run_detail(id, true).map_err(|e| format!("run {id}: {e}"))?;
    let mut screenshots = Vec::new();
    for step in detail.steps.iter().rev().filter(|s| s.screenshot.is_some()) {
        if screenshots.len() == count {
            break;
        }
        let Some(bytes) = step.screenshot.as_deref().and_then(|rel| store.read_blob(rel).ok().flatten()) else {
            continue;
        };
        let elements = step.page.as_ref().map(|p| p.elements.clone()).unwrap_or_default();
        screenshots.extend(statewright_llm::mark::covered(&bytes, &elements));
    }
    screenshots.reverse();
    let answer = match asked.answer.as_ref().or_else(|| detail.run.outputs.get("answer")) {
        Some(serde_json::Value::String(answer)) => answer.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    Ok(Evidence { task: asked.task, answer, screenshots })
}

/// The report on `rows` as they stand, with this go's model use.
fn report(rows: Vec<RowResult>, used: ModelUse, interrupted: bool, csv: PathBuf, json: PathBuf) -> JudgeReport {
    let said = |verdict: &str| rows.iter().filter(|r| r.judged.as_ref().is_some_and(|j| j.verdict == verdict)).count();
    let (success, not_success) = (said("success"), said("not_success"));
    JudgeReport {
        total: rows.len(),
        success,
        not_success,
        unjudged: rows.len() - success - not_success,
        score: (!rows.is_empty()).then(|| success as f64 / rows.len() as f64),
        llm_calls: used.calls,
        llm_tokens: used.tokens,
        llm_cost: used.cost,
        interrupted,
        results_csv: csv,
        results_json: json,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use indexmap::IndexMap;
    use statewright_llm::config::Settings;

    use super::*;

    struct Quiet;
    impl JudgeObserver for Quiet {
        fn judged(&mut self, _: &RowResult, _: usize, _: usize) {}
    }

    /// Bytes this process has handed to `write` so far.
    fn written() -> u64 {
        let io = std::fs::read_to_string("/proc/self/io").unwrap();
        io.lines().find_map(|l| l.strip_prefix("wchar: ")).unwrap().parse().unwrap()
    }

    #[test]
    fn the_bytes_a_judge_writes_grow_with_its_tasks_not_their_square() {
        let dir = tempfile::tempdir().unwrap();
        let (csv, json) = (dir.path().join("tasks.results.csv"), dir.path().join("tasks.results.json"));
        let tasks = 1_000;
        // Tasks whose runs succeeded but are not in the store: each gets its verdict (none,
        // and why) in the loop a model's verdicts come through, without a model.
        let mut rows: Vec<RowResult> = (1..=tasks)
            .map(|row| {
                let values = IndexMap::from([("goal".to_owned(), format!("find thing {row}"))]);
                RowResult {
                    run_id: Some(format!("gone-{row}")),
                    ..RowResult::new(row, values, "succeeded", String::new())
                }
            })
            .collect();
        table::write_table(&csv, &json, &mut rows, &table::Columns::default()).unwrap();
        let db = dir.path().join("statewright.db");
        drop(Store::open(&db).unwrap());
        let llm = LlmConfig::new("http://127.0.0.1:9/v1", "m", None, &Settings::default()).unwrap();
        let request = JudgeRequest { results: json.clone(), db, llm, screenshots: 1, concurrency: 4, again: false };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();

        let before = written();
        let report = runtime.block_on(judge_results(request, Cancel::new(), &mut Quiet)).unwrap();
        let written = written() - before;

        assert_eq!(report.unjudged, tasks);
        let table = std::fs::read(&json).unwrap();
        let table_rows: Vec<RowResult> = serde_json::from_slice(&table).unwrap();
        assert!(table_rows.iter().all(|r| r.judged.as_ref().is_some_and(|j| j.reason.contains("run gone-"))));
        assert!(!crate::batch::journal::path(&csv).exists(), "the journal goes with the go's end");
        // The tables rewritten at every verdict wrote some 1,000 times the table here.
        let table_bytes = (table.len() + std::fs::metadata(&csv).unwrap().len() as usize) as u64;
        assert!(written < 40 * table_bytes, "{written} bytes written for tables of {table_bytes}");
    }
}
