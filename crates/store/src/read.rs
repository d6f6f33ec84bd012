//! Reading runs back.

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;
use serde_json::Value;

use crate::{Error, Result, Store};

#[derive(Debug, Clone, Default)]
pub struct RunFilter {
    pub workflow: Option<String>,
    pub status: Option<String>,
    pub limit: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RunSummary {
    pub id: String,
    pub workflow: String,
    pub workflow_hash: String,
    pub parameters: Value,
    pub browser: String,
    pub status: String,
    pub outcome: Option<String>,
    pub end_state: Option<String>,
    pub message: Option<String>,
    pub failure: Option<Value>,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
    pub duration_ms: Option<i64>,
    pub steps: i64,
    pub actions: i64,
    pub llm_calls: i64,
    pub llm_tokens: i64,
    /// US dollars the model calls cost, from the configured prices.
    pub llm_cost: f64,
    /// The run's variables as last extracted (secret ones masked): `{}` when none.
    pub outputs: Value,
    /// Locators and element checks the run healed.
    pub heals: i64,
    /// Times a state's actions ran again because they were not verified.
    pub retries: i64,
    /// Reviews the run asked for or a model proposed, open or closed.
    pub reviews: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PageRecord {
    pub url: String,
    pub title: String,
    pub text: String,
    pub elements: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StepRecord {
    pub step: u32,
    pub state: String,
    pub state_index: i64,
    pub visit: u32,
    pub elapsed_ms: i64,
    pub entered_ms: i64,
    pub url: String,
    pub checks: Value,
    pub screenshot: Option<String>,
    pub page_title: Option<String>,
    /// Only when asked for (`with_pages`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<PageRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ActionRecord {
    pub seq: i64,
    pub step: u32,
    pub state: String,
    pub index: i64,
    pub kind: String,
    pub args: Option<Value>,
    pub detail: Option<String>,
    pub error: Option<String>,
    pub by_state: Option<String>,
    pub elapsed_ms: Option<i64>,
    pub duration_ms: Option<i64>,
    pub attempts: Option<i64>,
    pub at_ms: i64,
    pub artifact_name: Option<String>,
    pub artifact_path: Option<String>,
    /// Other ways to find the element acted on, most stable first (targets, as JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternatives: Option<Value>,
    /// What an `extract` read into its variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RunDetail {
    pub run: RunSummary,
    pub steps: Vec<StepRecord>,
    pub actions: Vec<ActionRecord>,
    /// The LLM stage's calls, in order.
    pub model_calls: Vec<ModelCallRecord>,
    /// Locators and element checks healed, in order: proposed changes to the workflow.
    pub healed: Vec<crate::Healed>,
    pub healed_checks: Vec<crate::HealedCheck>,
    /// A state's actions run again, in order.
    pub retries: Vec<RetryRecord>,
    /// Tabs actions opened, which the run went on in, in order.
    pub tabs_opened: Vec<TabOpenedRecord>,
    /// The run's reviews, in order, without their pages.
    pub reviews: Vec<crate::ReviewSummary>,
}

/// An action opened a tab and the run went on in it (a `tab_opened` event).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TabOpenedRecord {
    pub step: u32,
    pub state: String,
    pub index: usize,
    /// Masked as the event was.
    pub url: String,
}

/// A state's actions run again because they were not verified (a `retrying` event).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RetryRecord {
    pub step: u32,
    pub state: String,
    pub attempt: u32,
    pub max: u32,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ModelCallRecord {
    pub step: u32,
    pub state: Option<String>,
    #[serde(flatten)]
    pub call: statewright_engine::ModelCall,
}

const RUN_COLUMNS: &str =
    "id, workflow, workflow_hash, parameters, browser, status, outcome, end_state, message, failure,
     started_ms, finished_ms, duration_ms,
     CASE WHEN status = 'running' THEN (SELECT count(*) FROM steps WHERE run_id = runs.id) ELSE step_count END,
     CASE WHEN status = 'running' THEN (SELECT count(*) FROM actions WHERE run_id = runs.id AND kind != 'preempted')
          ELSE action_count END,
     llm_calls, llm_tokens, llm_cost, outputs,
     (SELECT count(*) FROM healed WHERE run_id = runs.id) + (SELECT count(*) FROM healed_checks WHERE run_id = runs.id),
     (SELECT count(*) FROM retries WHERE run_id = runs.id),
     (SELECT count(*) FROM review_items WHERE run_id = runs.id)";

fn json_col(row: &Row, i: usize) -> rusqlite::Result<Option<Value>> {
    let text: Option<String> = row.get(i)?;
    Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
}

/// A step's page from its columns `page_title, page_url, page_text, elements` starting at
/// `first`; a step without a page URL kept none.
fn page_from_row(row: &Row, first: usize) -> rusqlite::Result<Option<PageRecord>> {
    let Some(url) = row.get::<_, Option<String>>(first + 1)? else { return Ok(None) };
    Ok(Some(PageRecord {
        url,
        title: row.get::<_, Option<String>>(first)?.unwrap_or_default(),
        text: row.get::<_, Option<String>>(first + 2)?.unwrap_or_default(),
        elements: json_col(row, first + 3)?.unwrap_or(Value::Null),
    }))
}

fn run_from_row(row: &Row) -> rusqlite::Result<RunSummary> {
    Ok(RunSummary {
        id: row.get(0)?,
        workflow: row.get(1)?,
        workflow_hash: row.get(2)?,
        parameters: json_col(row, 3)?.unwrap_or(Value::Null),
        browser: row.get(4)?,
        status: row.get(5)?,
        outcome: row.get(6)?,
        end_state: row.get(7)?,
        message: row.get(8)?,
        failure: json_col(row, 9)?,
        started_ms: row.get(10)?,
        finished_ms: row.get(11)?,
        duration_ms: row.get(12)?,
        steps: row.get(13)?,
        actions: row.get(14)?,
        llm_calls: row.get(15)?,
        llm_tokens: row.get(16)?,
        llm_cost: row.get(17)?,
        outputs: json_col(row, 18)?.unwrap_or_else(|| Value::Object(Default::default())),
        heals: row.get(19)?,
        retries: row.get(20)?,
        reviews: row.get(21)?,
    })
}

impl Store {
    /// Runs, newest first.
    pub fn list_runs(&self, filter: &RunFilter) -> Result<Vec<RunSummary>> {
        let sql = format!(
            "SELECT {RUN_COLUMNS} FROM runs
             WHERE (?1 IS NULL OR workflow = ?1) AND (?2 IS NULL OR status = ?2)
             ORDER BY started_ms DESC, id DESC LIMIT ?3"
        );
        let limit = filter.limit.map(|l| l as i64).unwrap_or(-1);
        self.rows(&sql, params![filter.workflow, filter.status, limit], run_from_row)
    }

    /// The full id of the run whose id is, or starts with, `prefix`.
    pub fn resolve_run(&self, prefix: &str) -> Result<String> {
        if prefix.is_empty() {
            return Err(Error::UnknownRun(String::new()));
        }
        let exact: Option<String> = self
            .conn
            .query_row("SELECT id FROM runs WHERE id = ?1", [prefix], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(e))?;
        if let Some(id) = exact {
            return Ok(id);
        }
        let matches =
            self.rows("SELECT id FROM runs WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id LIMIT 6", [prefix], |r| {
                r.get::<_, String>(0)
            })?;
        match matches.len() {
            0 => Err(Error::UnknownRun(prefix.to_owned())),
            1 => Ok(matches.into_iter().next().expect("one")),
            _ => Err(Error::AmbiguousRun { prefix: prefix.to_owned(), matches }),
        }
    }

    /// One run.
    pub fn run(&self, id: &str) -> Result<RunSummary> {
        let sql = format!("SELECT {RUN_COLUMNS} FROM runs WHERE id = ?1");
        self.conn
            .query_row(&sql, [id], run_from_row)
            .optional()
            .map_err(|e| self.err(e))?
            .ok_or_else(|| Error::UnknownRun(id.to_owned()))
    }

    /// A run with its steps and actions in order; `with_pages` adds each step's page text
    /// and element snapshot.
    pub fn run_detail(&self, id: &str, with_pages: bool) -> Result<RunDetail> {
        let run = self.run(id)?;
        let page_cols = if with_pages { "page_url, page_text, elements" } else { "NULL, NULL, NULL" };
        let sql = format!(
            "SELECT step, state, state_index, visit, elapsed_ms, entered_ms, url, checks, screenshot, page_title, {page_cols}
             FROM steps WHERE run_id = ?1 ORDER BY step"
        );
        let steps = self.rows(&sql, [id], |row| {
            let page_title: Option<String> = row.get(9)?;
            let page = page_from_row(row, 9)?;
            Ok(StepRecord {
                step: row.get(0)?,
                state: row.get(1)?,
                state_index: row.get(2)?,
                visit: row.get(3)?,
                elapsed_ms: row.get(4)?,
                entered_ms: row.get(5)?,
                url: row.get(6)?,
                checks: json_col(row, 7)?.unwrap_or(Value::Null),
                screenshot: row.get(8)?,
                page_title,
                page,
            })
        })?;
        let actions = self.rows(
            "SELECT seq, step, state, idx, kind, args, detail, error, by_state, elapsed_ms, duration_ms, attempts,
                    at_ms, artifact_name, artifact_path, alternatives, value
             FROM actions WHERE run_id = ?1 ORDER BY seq",
            [id],
            |row| {
                Ok(ActionRecord {
                    seq: row.get(0)?,
                    step: row.get(1)?,
                    state: row.get(2)?,
                    index: row.get(3)?,
                    kind: row.get(4)?,
                    args: json_col(row, 5)?,
                    detail: row.get(6)?,
                    error: row.get(7)?,
                    by_state: row.get(8)?,
                    elapsed_ms: row.get(9)?,
                    duration_ms: row.get(10)?,
                    attempts: row.get(11)?,
                    at_ms: row.get(12)?,
                    artifact_name: row.get(13)?,
                    artifact_path: row.get(14)?,
                    alternatives: json_col(row, 15)?,
                    value: json_col(row, 16)?,
                })
            },
        )?;
        let model_calls = self.rows(
            "SELECT step, state, model, prompt_chars, prompt_tokens, completion_tokens, latency_ms, cost, answer,
                    accepted, error
             FROM model_calls WHERE run_id = ?1 ORDER BY id",
            [id],
            |row| {
                Ok(ModelCallRecord {
                    step: row.get(0)?,
                    state: row.get(1)?,
                    call: statewright_engine::ModelCall {
                        model: row.get(2)?,
                        prompt_chars: row.get::<_, i64>(3)?.max(0) as u64,
                        prompt_tokens: row.get::<_, i64>(4)?.max(0) as u64,
                        completion_tokens: row.get::<_, i64>(5)?.max(0) as u64,
                        latency_ms: row.get::<_, i64>(6)?.max(0) as u64,
                        cost: row.get(7)?,
                        answer: row.get(8)?,
                        accepted: row.get(9)?,
                        error: row.get(10)?,
                    },
                })
            },
        )?;
        let (healed, healed_checks) = (self.healed(id)?, self.healed_checks(id)?);
        let (retries, tabs_opened, reviews) = (self.retries(id)?, self.tabs_opened(id)?, self.run_reviews(id)?);
        Ok(RunDetail { run, steps, actions, model_calls, healed, healed_checks, retries, tabs_opened, reviews })
    }

    /// One step's page (its text and element snapshot), for a viewer that lists a run's
    /// steps without them: a long run's pages are tens of megabytes. `None` when the run has
    /// no such step or the step kept no page.
    pub fn step_page(&self, id: &str, step: u32) -> Result<Option<PageRecord>> {
        self.run(id)?;
        let pages = self.rows(
            "SELECT page_title, page_url, page_text, elements FROM steps WHERE run_id = ?1 AND step = ?2",
            rusqlite::params![id, step],
            |row| page_from_row(row, 0),
        )?;
        Ok(pages.into_iter().next().flatten())
    }

    fn retries(&self, id: &str) -> Result<Vec<RetryRecord>> {
        self.rows(
            "SELECT step, state, attempt, max, reason FROM retries WHERE run_id = ?1 ORDER BY step, attempt",
            [id],
            |row| {
                let (step, state, attempt, max, reason) =
                    (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?);
                Ok(RetryRecord { step, state, attempt, max, reason })
            },
        )
    }

    fn tabs_opened(&self, id: &str) -> Result<Vec<TabOpenedRecord>> {
        self.rows("SELECT step, state, idx, url FROM tabs_opened WHERE run_id = ?1 ORDER BY step, idx", [id], |row| {
            let (step, state, index, url) = (row.get(0)?, row.get(1)?, row.get::<_, i64>(2)?, row.get(3)?);
            Ok(TabOpenedRecord { step, state, index: index.max(0) as usize, url })
        })
    }
}
