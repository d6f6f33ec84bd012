//! The states each stored run of a workflow entered, in order: what the graph analysis
//! (observed transitions, their times, states that matched but lost) is computed from.

use rusqlite::params;

use crate::{Result, Store};

/// One state entered by a stored run.
#[derive(Debug, Clone, PartialEq)]
pub struct StateVisit {
    pub state: String,
    pub elapsed_ms: u64,
    /// Lower-priority states that matched the same page.
    pub also_matched: Vec<String>,
}

/// The most runs read for one workflow's evidence, newest first: enough to see every
/// transition a workflow takes, bounded so `validate` stays fast on a large store.
pub const MAX_EVIDENCE_RUNS: usize = 500;

impl Store {
    /// The states entered by the newest stored runs of `workflow` (by name), one list per run.
    pub fn state_visits(&self, workflow: &str) -> Result<Vec<Vec<StateVisit>>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT s.run_id, s.state, s.elapsed_ms, s.also_matched
                 FROM (SELECT id FROM runs WHERE workflow = ?1 ORDER BY started_ms DESC LIMIT ?2) r
                 JOIN steps s ON s.run_id = r.id
                 ORDER BY s.run_id, s.step",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![workflow, MAX_EVIDENCE_RUNS as i64], |row| {
                let also: Option<String> = row.get(3)?;
                Ok((
                    row.get::<_, String>(0)?,
                    StateVisit {
                        state: row.get(1)?,
                        elapsed_ms: row.get::<_, i64>(2)?.max(0) as u64,
                        // A value this version did not write is no evidence, not an error.
                        also_matched: also.and_then(|a| serde_json::from_str(&a).ok()).unwrap_or_default(),
                    },
                ))
            })
            .map_err(|e| self.err(e))?;
        let mut runs: Vec<Vec<StateVisit>> = Vec::new();
        let mut current: Option<String> = None;
        for row in rows {
            let (run, visit) = row.map_err(|e| self.err(e))?;
            if current.as_deref() != Some(run.as_str()) {
                current = Some(run);
                runs.push(Vec::new());
            }
            runs.last_mut().expect("pushed").push(visit);
        }
        Ok(runs)
    }
}
