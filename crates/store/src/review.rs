//! The review queue, healing memory and kept workflow versions. A waiting run and the
//! person resolving its review are different processes: they meet in these tables.

use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use statewright_engine::{EscalationRequest, LocatedCheck, LocatorMemory, Resolution};
use statewright_workflow::{Check, Target, TargetField};

use crate::review_list::{SUMMARY_COLUMNS, summary};
use crate::{Error, Result, ReviewSummary, Store, now_ms};

/// One review read whole, as `statewright review show` and the app's review panel show it:
/// what the queue lists of it, its screenshot, and the request it was opened with.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewItem {
    #[serde(flatten)]
    pub summary: ReviewSummary,
    /// A path under the store's folder.
    pub screenshot: Option<String>,
    /// The failure, what was tried, the pending action, the page, states and suggestions.
    pub request: EscalationRequest,
}

/// A locator healed during a run: a proposed change to the workflow.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Healed {
    /// The step it happened in; none for runs recorded before steps were kept.
    pub step: Option<u32>,
    pub state: String,
    pub index: usize,
    /// Which of the action's elements: its `target`, or a drag's `to`.
    pub field: TargetField,
    pub from: Target,
    pub to: Target,
}

/// An element check healed during a run: a proposed change to the workflow.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct HealedCheck {
    pub step: Option<u32>,
    pub state: String,
    pub index: usize,
    pub from: Check,
    pub to: Check,
}

/// State, index, and two JSON columns (targets or checks) of a locators table.
type HealRow = (String, usize, String, String);

/// Step, state, index, the action's field (`target` for checks), what was and what healed it.
type HealedRow<T> = (Option<u32>, String, usize, TargetField, T, T);

/// A summary's columns, then the screenshot and the request (its last two).
fn item_columns() -> String {
    format!("{SUMMARY_COLUMNS}, r.screenshot, r.request")
}

/// A review's row as stored; its request is read apart from the row, so that a request
/// this build cannot read is an error about that one review, naming it.
fn item(row: &rusqlite::Row) -> rusqlite::Result<Result<ReviewItem>> {
    let summary = summary(row)?;
    let text: String = row.get(15)?;
    Ok(match serde_json::from_str(&text) {
        Ok(request) => Ok(ReviewItem { screenshot: row.get(14)?, summary, request }),
        Err(e) => Err(Error::UnreadableReview { id: summary.id, detail: e.to_string() }),
    })
}

impl Store {
    /// Puts a run's escalation in the queue and marks the run `needs_human_review`.
    pub fn open_review(&self, run_id: &str, request: &EscalationRequest) -> Result<i64> {
        let screenshot = self.review_screenshot(request)?;
        let tx = self.immediate()?;
        let id = self.insert_review(&tx, run_id, request, screenshot, None)?;
        tx.execute("UPDATE runs SET status = 'needs_human_review' WHERE id = ?1", params![run_id])
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(id)
    }

    /// Puts a fix the model found (and the run verified) in the queue as a proposal.
    pub(crate) fn propose(
        &self,
        tx: &rusqlite::Connection,
        run_id: &str,
        model: &str,
        request: &EscalationRequest,
        resolution: &Resolution,
    ) -> Result<i64> {
        let screenshot = self.review_screenshot(request)?;
        self.insert_review(tx, run_id, request, screenshot, Some((model, resolution)))
    }

    /// Keeps the screenshot of the page a review is about, if it has one.
    fn review_screenshot(&self, request: &EscalationRequest) -> Result<Option<String>> {
        match request.observation.as_ref().and_then(|o| o.screenshot.as_ref()) {
            Some(image) => Ok(Some(self.put_blob(image, crate::write::image_ext(image))?)),
            None => Ok(None),
        }
    }

    /// A review's row, for a run waiting for a person or (`proposal`: the model and its
    /// fix) a model's proposal: its failure written beside the request, for the list.
    fn insert_review(
        &self,
        tx: &rusqlite::Connection,
        run_id: &str,
        request: &EscalationRequest,
        screenshot: Option<String>,
        proposal: Option<(&str, &Resolution)>,
    ) -> Result<i64> {
        let failure = serde_json::to_value(&request.failure)?;
        let kind = failure["kind"].as_str().unwrap_or("unknown").to_owned();
        let (model, resolution) = match proposal {
            Some((model, resolution)) => (Some(model), Some(serde_json::to_string(resolution)?)),
            None => (None, None),
        };
        tx.execute(
            "INSERT INTO review_items (run_id, step, state, kind, reason, failure, request, screenshot, created_ms,
                                       resolution, proposed_by)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                run_id,
                request.step,
                request.state,
                kind,
                request.reason,
                failure.to_string(),
                serde_json::to_string(request)?,
                screenshot,
                now_ms(),
                resolution,
                model
            ],
        )
        .map_err(|e| self.err(e))?;
        Ok(tx.last_insert_rowid())
    }

    /// Closes an open proposal: `approved` (its fix saved into `saved_to`) or `rejected`.
    pub fn decide_proposal(&self, id: i64, approved: bool, saved_to: Option<&str>) -> Result<()> {
        let item = self.review(id)?.summary;
        if item.proposed_by.is_none() {
            return Err(Error::NotAProposal(id));
        }
        let status = if approved { "approved" } else { "rejected" };
        let changed = self
            .conn
            .execute(
                "UPDATE review_items SET status = ?2, resolved_ms = ?3, saved_to = ?4 WHERE id = ?1 AND status = 'open'",
                params![id, status, now_ms(), saved_to],
            )
            .map_err(|e| self.err(e))?;
        if changed == 0 {
            return Err(Error::ReviewClosed { id, status: item.status });
        }
        Ok(())
    }

    /// A run's open proposals, oldest first.
    pub fn proposals(&self, run_id: &str) -> Result<Vec<ReviewItem>> {
        let sql = format!(
            "SELECT {} FROM review_items r JOIN runs ON runs.id = r.run_id
             WHERE r.run_id = ?1 AND r.status = 'open' AND r.proposed_by IS NOT NULL ORDER BY r.id",
            item_columns()
        );
        self.rows(&sql, params![run_id], item)?.into_iter().collect()
    }

    /// Reviews without their requests, newest first; only open ones unless `all`.
    pub fn review_summaries(&self, all: bool) -> Result<Vec<ReviewSummary>> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM review_items r JOIN runs ON runs.id = r.run_id
             WHERE ?1 OR r.status = 'open' ORDER BY r.id DESC"
        );
        self.rows(&sql, params![all], summary)
    }

    /// Gives `each` every review whole, newest first, one at a time (only open ones unless
    /// `all`): after months of use the store holds thousands of closed reviews of up to a
    /// megabyte each, which are never all in memory at once. A review whose request cannot
    /// be read is given as its error, and the others still follow.
    pub fn each_review(&self, all: bool, mut each: impl FnMut(Result<ReviewItem>)) -> Result<()> {
        let sql = format!(
            "SELECT {} FROM review_items r JOIN runs ON runs.id = r.run_id
             WHERE ?1 OR r.status = 'open' ORDER BY r.id DESC",
            item_columns()
        );
        let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.err(e))?;
        let mut rows = stmt.query(params![all]).map_err(|e| self.err(e))?;
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            each(item(row).map_err(|e| self.err(e))?);
        }
        Ok(())
    }

    pub fn review(&self, id: i64) -> Result<ReviewItem> {
        let sql =
            format!("SELECT {} FROM review_items r JOIN runs ON runs.id = r.run_id WHERE r.id = ?1", item_columns());
        self.conn
            .query_row(&sql, params![id], item)
            .optional()
            .map_err(|e| self.err(e))?
            .ok_or(Error::UnknownReview(id))?
    }

    /// Resolves an open review of a run that is still waiting, and sets the run running.
    pub fn resolve_review(&self, id: i64, resolution: &Resolution, saved_to: Option<&str>) -> Result<()> {
        let item = self.review(id)?.summary;
        if item.proposed_by.is_some() {
            return Err(Error::IsAProposal(id));
        }
        if item.status != "open" {
            return Err(Error::ReviewClosed { id, status: item.status });
        }
        if !self.is_recording(&item.run_id) {
            return Err(Error::RunNotWaiting { id, run_id: item.run_id });
        }
        let tx = self.immediate()?;
        let changed = tx
            .execute(
                "UPDATE review_items SET status = 'resolved', resolved_ms = ?2, resolution = ?3, saved_to = ?4
                 WHERE id = ?1 AND status = 'open'",
                params![id, now_ms(), serde_json::to_string(resolution)?, saved_to],
            )
            .map_err(|e| self.err(e))?;
        if changed == 0 {
            return Err(Error::ReviewClosed { id, status: "resolved".into() });
        }
        tx.execute("UPDATE runs SET status = 'running' WHERE id = ?1", params![item.run_id])
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(())
    }

    /// The resolution of review `id`, once it has one.
    pub fn review_resolution(&self, id: i64) -> Result<Option<Resolution>> {
        let row: Option<(String, Option<String>)> = self
            .conn
            .query_row("SELECT status, resolution FROM review_items WHERE id = ?1", params![id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()
            .map_err(|e| self.err(e))?;
        match row {
            None => Err(Error::UnknownReview(id)),
            Some((_, Some(resolution))) => Ok(Some(serde_json::from_str(&resolution)?)),
            Some(_) => Ok(None),
        }
    }

    /// Closes a run's open reviews without an answer (the run gave up waiting or ended).
    pub fn cancel_reviews(&self, run_id: &str) -> Result<()> {
        self.conn
            .execute(
                "UPDATE review_items SET status = 'cancelled', resolved_ms = ?2
                 WHERE run_id = ?1 AND status = 'open' AND proposed_by IS NULL",
                params![run_id, now_ms()],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// The locators recorded for `workflow`'s actions and element checks, for healing.
    pub fn locators(&self, workflow: &str) -> Result<LocatorMemory> {
        let mut memory = LocatorMemory::default();
        let sql = "SELECT state, idx, field, target, alternatives FROM locators WHERE workflow = ?1";
        let rows = self.rows(sql, params![workflow], |r| {
            let text = |i: usize| r.get::<_, String>(i);
            Ok((text(0)?, r.get::<_, i64>(1)? as usize, text(2)?, text(3)?, text(4)?))
        })?;
        for (state, index, field, target, alternatives) in rows {
            // A row this build cannot read is skipped: healing is a help, not a duty.
            if let (Some(field), Ok(target), Ok(alternatives)) =
                (TargetField::from_name(&field), serde_json::from_str(&target), serde_json::from_str(&alternatives))
            {
                memory.insert(&state, index, field, target, alternatives);
            }
        }
        let sql = "SELECT state, idx, check_json, alternatives FROM check_locators WHERE workflow = ?1";
        for (state, index, check, alternatives) in self.heal_rows(sql, workflow)? {
            if let (Ok(check), Ok(alternatives)) = (serde_json::from_str(&check), serde_json::from_str(&alternatives)) {
                memory.insert_check(&state, index, check, alternatives);
            }
        }
        Ok(memory)
    }

    /// The element checks healed during a run, in the order they were healed.
    pub fn healed_checks(&self, run_id: &str) -> Result<Vec<HealedCheck>> {
        let rows = self.healed_rows(HealedTable::Checks, run_id)?.into_iter();
        Ok(rows.map(|(step, state, index, _, from, to)| HealedCheck { step, state, index, from, to }).collect())
    }

    /// The locators healed during a run, in the order they were healed.
    pub fn healed(&self, run_id: &str) -> Result<Vec<Healed>> {
        let rows = self.healed_rows(HealedTable::Locators(TargetField::Target), run_id)?.into_iter();
        Ok(rows.map(|(step, state, index, field, from, to)| Healed { step, state, index, field, from, to }).collect())
    }

    /// A run's rows of `healed` or `healed_checks`: step, state, index, the action's field
    /// (for locators), what was and what healed it.
    fn healed_rows<T: DeserializeOwned>(&self, table: HealedTable, run_id: &str) -> Result<Vec<HealedRow<T>>> {
        let (name, from, to) = table.columns();
        let field = if matches!(table, HealedTable::Locators(_)) { "field" } else { "'target'" };
        let sql =
            format!("SELECT step, state, idx, {field}, {from}, {to} FROM {name} WHERE run_id = ?1 ORDER BY at_ms");
        let rows = self.rows(&sql, params![run_id], |r| {
            let text = |i: usize| r.get::<_, String>(i);
            Ok((r.get::<_, Option<u32>>(0)?, text(1)?, r.get::<_, i64>(2)? as usize, text(3)?, text(4)?, text(5)?))
        })?;
        let parse = |(step, state, index, field, from, to): (Option<u32>, String, usize, String, String, String)| {
            let field = TargetField::from_name(&field).unwrap_or_default();
            Ok((step, state, index, field, serde_json::from_str(&from)?, serde_json::from_str(&to)?))
        };
        rows.into_iter().map(parse).collect()
    }

    /// The rows of a locators table: state, index and two JSON columns.
    fn heal_rows(&self, sql: &str, key: &str) -> Result<Vec<HealRow>> {
        self.rows(sql, params![key], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as usize, r.get::<_, String>(2)?, r.get::<_, String>(3)?))
        })
    }

    /// The workflow file a run was started from, if it recorded one.
    pub fn workflow_path(&self, run_id: &str) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT workflow_path FROM runs WHERE id = ?1", params![run_id], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(e))?
            .ok_or_else(|| Error::UnknownRun(run_id.to_owned()))
    }

    /// Keeps a workflow file's content before a saved fix replaces it; returns its version id.
    pub fn keep_workflow_version(&self, path: &str, json: &str, reason: &str) -> Result<i64> {
        self.conn
            .execute(
                "INSERT INTO workflow_versions (path, json, saved_ms, reason) VALUES (?1, ?2, ?3, ?4)",
                params![path, json, now_ms(), reason],
            )
            .map_err(|e| self.err(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The kept versions of a workflow file: `(id, saved_ms, reason, json)`, oldest first.
    pub fn workflow_versions(&self, path: &str) -> Result<Vec<(i64, i64, String, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, saved_ms, reason, json FROM workflow_versions WHERE path = ?1 ORDER BY id")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![path], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>().map_err(|e| self.err(e))
    }
}

/// Records what the event stream says about healing: alternatives of each element of an
/// action (per workflow, for later runs) and locators healed in this run.
pub(crate) fn record_locators(
    tx: &rusqlite::Connection,
    run_id: &str,
    (state, index, field): (&str, usize, TargetField),
    target: &Target,
    alternatives: &[Target],
) -> rusqlite::Result<()> {
    let target = serde_json::to_string(target).unwrap_or_default();
    let alternatives = serde_json::to_string(alternatives).unwrap_or_default();
    tx.prepare_cached(
        "INSERT OR REPLACE INTO locators (workflow, state, idx, field, target, alternatives, updated_ms)
         SELECT workflow, ?2, ?3, ?4, ?5, ?6, ?7 FROM runs WHERE id = ?1",
    )?
    .execute(params![run_id, state, index as i64, field.name(), target, alternatives, now_ms()])?;
    Ok(())
}

pub(crate) fn record_check_locators(
    tx: &rusqlite::Connection,
    run_id: &str,
    state: &str,
    checks: &[LocatedCheck],
) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT OR REPLACE INTO check_locators (workflow, state, idx, check_json, alternatives, updated_ms)
         SELECT workflow, ?2, ?3, ?4, ?5, ?6 FROM runs WHERE id = ?1",
    )?;
    for c in checks {
        let check = serde_json::to_string(&c.check).unwrap_or_default();
        let alternatives = serde_json::to_string(&c.alternatives).unwrap_or_default();
        insert.execute(params![run_id, state, c.index as i64, check, alternatives, now_ms()])?;
    }
    Ok(())
}

/// A locator or element check a run healed, into `healed` or `healed_checks`.
pub(crate) fn record_healed<T: Serialize>(
    tx: &rusqlite::Connection,
    table: HealedTable,
    run_id: &str,
    (step, state, index): (u32, &str, usize),
    from: &T,
    to: &T,
) -> rusqlite::Result<()> {
    let (name, from_column, to_column) = table.columns();
    let (from, to) = (serde_json::to_string(from).unwrap_or_default(), serde_json::to_string(to).unwrap_or_default());
    let (state, index, at) = (state, index as i64, now_ms());
    match table {
        HealedTable::Locators(field) => {
            let sql = format!(
                "INSERT OR REPLACE INTO {name} (run_id, state, idx, field, {from_column}, {to_column}, at_ms, step)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
            );
            tx.prepare_cached(&sql)?.execute(params![run_id, state, index, field.name(), from, to, at, step])?
        }
        HealedTable::Checks => {
            let sql = format!(
                "INSERT OR REPLACE INTO {name} (run_id, state, idx, {from_column}, {to_column}, at_ms, step)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
            );
            tx.prepare_cached(&sql)?.execute(params![run_id, state, index, from, to, at, step])?
        }
    };
    Ok(())
}

/// Where a heal is kept: one of an action's locators (which of its elements), or an element
/// check.
pub(crate) enum HealedTable {
    Locators(TargetField),
    Checks,
}

impl HealedTable {
    /// The table, and its columns for what was and what healed it.
    fn columns(&self) -> (&'static str, &'static str, &'static str) {
        match self {
            HealedTable::Locators(_) => ("healed", "from_target", "to_target"),
            HealedTable::Checks => ("healed_checks", "from_check", "to_check"),
        }
    }
}

pub(crate) fn record_escalation(
    tx: &rusqlite::Connection,
    run_id: &str,
    step: u32,
    state: Option<&str>,
    reason: &str,
    request: &Value,
    response: &Value,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO escalations (run_id, step, state, reason, request, response, created_ms, resolved_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
    )?
    .execute(params![run_id, step, state, reason, request.to_string(), response.to_string(), now_ms()])?;
    Ok(())
}
