//! Batch runs (`statewright batch`): a workflow run once per row of data, the row's columns
//! as parameters, at most `concurrency` runs at a time, each a run like any other (stored,
//! reviewable: one that waits for a person waits in the queue while the others go on).
//!
//! The results table (row, status, end state, duration, run id, message) is rewritten after
//! every row, as CSV and as JSON, so an interrupted batch loses nothing; run again, a batch
//! skips the rows that already succeeded with the same values. Secret columns are masked in
//! the table.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statewright_engine::{CancellationToken, RunStatus};
use statewright_workflow::Workflow;
use statewright_workflow::params::MASK;
use tokio::sync::{Semaphore, mpsc};

use crate::error::RunError;
use crate::request::RunRequest;
use crate::rows::{Row, csv_field};

pub struct BatchRequest {
    pub workflow: Workflow,
    pub rows: Vec<Row>,
    /// Runs at a time (at least 1).
    pub concurrency: usize,
    /// The results table: this CSV file, and the same with `.json`.
    pub results: PathBuf,
}

/// One row's outcome, as the results table holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RowResult {
    /// 1-based, in the data file's order.
    pub row: usize,
    /// The row's values, secret ones masked.
    pub values: IndexMap<String, String>,
    /// `succeeded`, `failed`, `cancelled`, or `error` (the run could not start).
    pub status: String,
    pub end_state: Option<String>,
    pub duration_ms: u64,
    pub run_id: Option<String>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BatchReport {
    pub total: usize,
    pub succeeded: usize,
    pub failed: usize,
    /// Rows that had succeeded in an earlier go, not run again.
    pub skipped: usize,
    pub results_csv: PathBuf,
    pub results_json: PathBuf,
    pub rows: Vec<RowResult>,
}

/// What the shell hears: a row started (with its run id), or done.
pub trait BatchObserver: Send {
    fn started(&mut self, row: usize, run_id: &str);
    fn finished(&mut self, result: &RowResult, done: usize, total: usize);
}

enum Progress {
    Started(usize, String),
    Finished(RowResult),
}

/// A run request for one row, with the parameter defaults every row starts from; the row's
/// values are laid over them here.
pub type RequestFor = dyn Fn() -> Result<RunRequest, String> + Send + Sync;

/// Runs every row not already done.
pub async fn run_batch(
    request: BatchRequest,
    request_for: Arc<RequestFor>,
    cancel: CancellationToken,
    observer: &mut dyn BatchObserver,
) -> Result<BatchReport, RunError> {
    check_columns(&request.workflow, &request.rows)?;
    let json_path = request.results.with_extension("json");
    let secret = |column: &str| request.workflow.parameters.get(column).is_some_and(|p| p.secret);
    let masked = |row: &Row| -> IndexMap<String, String> {
        row.values.iter().map(|(k, v)| (k.clone(), if secret(k) { MASK.to_owned() } else { v.clone() })).collect()
    };
    let earlier = earlier_results(&json_path)?;
    let mut results: Vec<Option<RowResult>> = vec![None; request.rows.len()];
    let mut pending = Vec::new();
    for (i, row) in request.rows.iter().enumerate() {
        match earlier.get(&(i + 1)) {
            Some(done) if done.status == "succeeded" && done.values == masked(row) => results[i] = Some(done.clone()),
            _ => pending.push((i, row.clone())),
        }
    }
    let skipped = results.iter().flatten().count();
    let total = request.rows.len();

    let slots = Arc::new(Semaphore::new(request.concurrency.max(1)));
    let (tx, mut rx) = mpsc::unbounded_channel();
    for (i, row) in pending {
        let (slots, request_for, tx, cancel) = (slots.clone(), request_for.clone(), tx.clone(), cancel.clone());
        let values = masked(&row);
        tokio::spawn(async move {
            let result = tokio::select! {
                permit = slots.acquire_owned() => {
                    let _permit = permit;
                    run_row(i, &row, values.clone(), &*request_for, cancel, &tx).await
                }
                () = cancel.cancelled() => RowResult {
                    row: i + 1, values, status: "cancelled".into(), end_state: None, duration_ms: 0,
                    run_id: None, message: "the batch was stopped before this row ran".into(),
                },
            };
            let _ = tx.send(Progress::Finished(result));
        });
    }
    drop(tx);
    let mut done = skipped;
    write_table(&request.results, &json_path, &results)?;
    while let Some(progress) = rx.recv().await {
        match progress {
            Progress::Started(row, run_id) => observer.started(row, &run_id),
            Progress::Finished(result) => {
                done += 1;
                observer.finished(&result, done, total);
                let index = result.row - 1;
                results[index] = Some(result);
                write_table(&request.results, &json_path, &results)?;
            }
        }
    }
    let rows: Vec<RowResult> = results.into_iter().flatten().collect();
    Ok(BatchReport {
        total,
        succeeded: rows.iter().filter(|r| r.status == "succeeded").count(),
        failed: rows.iter().filter(|r| r.status != "succeeded").count(),
        skipped,
        results_csv: request.results,
        results_json: json_path,
        rows,
    })
}

async fn run_row(
    i: usize,
    row: &Row,
    values: IndexMap<String, String>,
    request_for: &RequestFor,
    cancel: CancellationToken,
    tx: &mpsc::UnboundedSender<Progress>,
) -> RowResult {
    let failed = |message: String| RowResult {
        row: i + 1,
        values: values.clone(),
        status: "error".into(),
        end_state: None,
        duration_ms: 0,
        run_id: None,
        message,
    };
    let mut run = match request_for() {
        Ok(run) => run,
        Err(e) => return failed(e),
    };
    // The row's values win over the defaults.
    run.params.retain(|(k, _)| !row.values.contains_key(k));
    run.params.extend(row.values.iter().map(|(k, v)| (k.clone(), v.clone())));
    let prepared = match crate::prepare(run).await {
        Ok(prepared) => prepared,
        Err(e) => return failed(e.message),
    };
    let _ = tx.send(Progress::Started(i + 1, prepared.id().to_owned()));
    let summary = prepared.execute(cancel, |_| {}).await;
    RowResult {
        row: i + 1,
        values,
        status: status_name(summary.status).into(),
        end_state: summary.end_state,
        duration_ms: summary.duration_ms,
        run_id: Some(summary.run_id),
        message: summary.message,
    }
}

fn status_name(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Succeeded => "succeeded",
        RunStatus::Failed => "failed",
        RunStatus::Cancelled => "cancelled",
    }
}

/// The results table's default place: `orders.csv` → `orders.results.csv` beside it.
pub fn default_results(data: &Path) -> PathBuf {
    let stem = data.file_stem().and_then(|s| s.to_str()).unwrap_or("batch");
    data.with_file_name(format!("{stem}.results.csv"))
}

/// Every column must be a parameter of the workflow: a misspelt column would otherwise be
/// a run per row that fails the same way.
pub fn check_columns(workflow: &Workflow, rows: &[Row]) -> Result<(), RunError> {
    for row in rows {
        if let Some(column) = row.values.keys().find(|k| !workflow.parameters.contains_key(*k)) {
            let declared: Vec<&str> = workflow.parameters.keys().map(String::as_str).collect();
            return Err(RunError::invalid(
                "data",
                format!(
                    "line {}: `{column}` is not a parameter of workflow `{}` (it has: {})",
                    row.line,
                    workflow.name,
                    declared.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// The results of an earlier go, by row; none when there was none.
fn earlier_results(path: &Path) -> Result<HashMap<usize, RowResult>, RunError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(RunError::environment("results", format!("cannot read {}: {e}", path.display()))),
    };
    let rows: Vec<RowResult> = serde_json::from_str(&text).map_err(|e| {
        RunError::invalid(
            "results",
            format!("{}: not a results table of statewright batch ({e}); move it away to start afresh", path.display()),
        )
    })?;
    Ok(rows.into_iter().map(|r| (r.row, r)).collect())
}

/// Both tables, each replaced through a rename so a reader never sees half of one.
fn write_table(csv: &Path, json: &Path, results: &[Option<RowResult>]) -> Result<(), RunError> {
    let rows: Vec<&RowResult> = results.iter().flatten().collect();
    // The data's columns, in the order they first appear.
    let mut columns: Vec<&String> = Vec::new();
    for key in rows.iter().flat_map(|r| r.values.keys()) {
        if !columns.contains(&key) {
            columns.push(key);
        }
    }
    let mut text = String::from("row,status,end_state,duration_ms,run_id,message");
    columns.iter().for_each(|c| text.push_str(&format!(",{}", csv_field(c))));
    text.push('\n');
    for r in &rows {
        let fixed = [
            r.row.to_string(),
            r.status.clone(),
            r.end_state.clone().unwrap_or_default(),
            r.duration_ms.to_string(),
            r.run_id.clone().unwrap_or_default(),
            r.message.clone(),
        ];
        let values = columns.iter().map(|c| r.values.get(*c).cloned().unwrap_or_default());
        let fields: Vec<String> = fixed.into_iter().chain(values).map(|f| csv_field(&f)).collect();
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    let json_text = serde_json::to_string_pretty(&rows).unwrap_or_default();
    for (path, content) in [(csv, text), (json, json_text)] {
        let tmp = path.with_extension("tmp~");
        std::fs::write(&tmp, content)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| RunError::environment("results", format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}
