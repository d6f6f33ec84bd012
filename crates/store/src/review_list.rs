//! The review queue as a list: each review without its request (the page it saw, its
//! elements, what was tried), which only the one review shown needs. After months of use
//! the queue holds thousands of closed reviews of a megabyte each; the app polls the list
//! every few seconds, so it is every open review and only the latest closed ones.

use rusqlite::params;
use serde::Serialize;
use statewright_engine::{Failure, Resolution};

use crate::{Result, Store};

/// One review as a list shows it: no page, no request beyond its failure.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ReviewSummary {
    pub id: i64,
    pub run_id: String,
    pub workflow: String,
    /// The workflow file the run was started from, where a fix can be saved.
    pub workflow_path: Option<String>,
    pub step: Option<u32>,
    pub state: Option<String>,
    /// `open`, `resolved` or `cancelled`; a proposal ends `approved` or `rejected`.
    pub status: String,
    pub created_ms: i64,
    pub resolved_ms: Option<i64>,
    pub reason: String,
    pub failure: Failure,
    pub resolution: Option<Resolution>,
    /// Where the fix was saved, if it was.
    pub saved_to: Option<String>,
    /// The model that proposed `resolution`, or `None` for a run waiting for a person.
    pub proposed_by: Option<String>,
}

/// The review queue as the app shows it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ReviewList {
    /// Every open review, then the latest closed ones, each newest first.
    pub reviews: Vec<ReviewSummary>,
    /// Closed reviews (resolved, cancelled, approved or rejected) in the store: more than
    /// `reviews` holds when older ones were left out.
    pub closed: u64,
}

/// The columns of a summary, all before the request in the row: a poll reads no request
/// (with the page's elements, up to megabytes), nor the overflow pages it spills onto.
pub(crate) const SUMMARY_COLUMNS: &str = "r.id, r.run_id, runs.workflow, runs.workflow_path, r.step, r.state,
     r.status, r.created_ms, r.resolved_ms, r.reason, r.failure, r.resolution, r.saved_to, r.proposed_by";

/// A summary from the first columns of `row`, in the order of [`SUMMARY_COLUMNS`].
pub(crate) fn summary(row: &rusqlite::Row) -> rusqlite::Result<ReviewSummary> {
    // NULL where migration 0014 found the request unreadable: the review is still listed (and
    // can be cancelled), not the whole queue lost to one bad row.
    let failure: Option<String> = row.get(10)?;
    let failure = match failure.as_deref().map(serde_json::from_str) {
        Some(Ok(failure)) => failure,
        Some(Err(e)) => unreadable(&e.to_string()),
        None => unreadable("its request was not JSON when the store was upgraded"),
    };
    let resolution: Option<String> = row.get(11)?;
    Ok(ReviewSummary {
        id: row.get(0)?,
        run_id: row.get(1)?,
        workflow: row.get(2)?,
        workflow_path: row.get(3)?,
        step: row.get(4)?,
        state: row.get(5)?,
        status: row.get(6)?,
        created_ms: row.get(7)?,
        resolved_ms: row.get(8)?,
        reason: row.get(9)?,
        failure,
        resolution: resolution.and_then(|r| serde_json::from_str(&r).ok()),
        saved_to: row.get(12)?,
        proposed_by: row.get(13)?,
    })
}

/// The failure shown for a review whose stored failure cannot be read.
fn unreadable(why: &str) -> Failure {
    Failure::Review { error: format!("this review's failure cannot be read: {why}") }
}

impl Store {
    /// Every open review, then the `closed_limit` latest closed ones, each newest first, with
    /// how many are closed in all.
    pub fn review_list(&self, closed_limit: usize) -> Result<ReviewList> {
        // One statement, one snapshot: a review closed between two would be listed twice.
        let from = "FROM review_items r JOIN runs ON runs.id = r.run_id";
        let sql = format!(
            "SELECT * FROM (SELECT {SUMMARY_COLUMNS} {from} WHERE r.status = 'open')
             UNION ALL
             SELECT * FROM (SELECT {SUMMARY_COLUMNS} {from} WHERE r.status != 'open' ORDER BY r.id DESC LIMIT ?1)"
        );
        let limit = i64::try_from(closed_limit).unwrap_or(i64::MAX);
        let mut reviews = self.rows(&sql, params![limit], summary)?;
        // What a person must act on first, however old.
        reviews.sort_by_key(|r| (r.status != "open", std::cmp::Reverse(r.id)));
        // All rows less the open ones, both counted from an index, not row by row.
        let closed: i64 = self
            .conn
            .query_row(
                "SELECT (SELECT count(*) FROM review_items) - (SELECT count(*) FROM review_items WHERE status = 'open')",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        Ok(ReviewList { reviews, closed: closed.max(0) as u64 })
    }

    /// A run's reviews, oldest first.
    pub fn run_reviews(&self, run_id: &str) -> Result<Vec<ReviewSummary>> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM review_items r JOIN runs ON runs.id = r.run_id
             WHERE r.run_id = ?1 ORDER BY r.id"
        );
        self.rows(&sql, params![run_id], summary)
    }
}
