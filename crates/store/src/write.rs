//! Recording runs: one short `BEGIN IMMEDIATE` transaction per event.

use std::fs::File;
use std::path::PathBuf;

use rusqlite::{OptionalExtension, params};
use serde_json::Value;
use sha2::{Digest, Sha256};
use statewright_engine::{Event, RunStatus};
use statewright_workflow::TargetField;

use crate::review::HealedTable;
use crate::{Error, Result, Store, now_ms, try_lock};

/// What is known of a run when it starts.
pub struct NewRun<'a> {
    pub id: &'a str,
    pub workflow_name: &'a str,
    /// The workflow as run, as JSON (stored once per distinct content).
    pub workflow_json: &'a str,
    /// Parameter values with secrets already masked.
    pub parameters: &'a Value,
    pub browser: &'a str,
    /// The file the workflow was loaded from, where reviewed fixes can be saved.
    pub workflow_path: Option<&'a str>,
}

/// A run being recorded. Holds the run's lock file for its lifetime: dropping it without
/// recording `RunFinished` leaves the run to be marked `interrupted`.
pub struct RunHandle {
    id: String,
    lock: Option<(File, PathBuf)>,
    next_seq: i64,
}

impl RunHandle {
    pub fn id(&self) -> &str {
        &self.id
    }
}

impl Drop for RunHandle {
    fn drop(&mut self) {
        if let Some((file, path)) = self.lock.take() {
            let _ = std::fs::remove_file(path);
            drop(file);
        }
    }
}

/// Runs a statement from the connection's statement cache.
fn exec(conn: &rusqlite::Connection, sql: &str, params: impl rusqlite::Params) -> rusqlite::Result<usize> {
    conn.prepare_cached(sql)?.execute(params)
}

fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

fn status_name(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Succeeded => "succeeded",
        RunStatus::Failed => "failed",
        RunStatus::Cancelled => "cancelled",
    }
}

/// Where the store keeps a file with these bytes, relative to its root:
/// `screens/ab/abcdef….ext`, named by content hash. Lets a live viewer name a step's
/// screenshot as soon as the step is recorded.
pub fn blob_path(bytes: &[u8], ext: &str) -> String {
    let hash = sha256_hex(bytes);
    format!("screens/{}/{hash}.{ext}", &hash[..2])
}

/// The file extension of an image, from its first bytes: drivers may capture PNG, JPEG or
/// WebP, and the store keeps what they give (compressed captures are not re-encoded).
pub fn image_ext(bytes: &[u8]) -> &'static str {
    match bytes {
        [0xFF, 0xD8, 0xFF, ..] => "jpg",
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => "webp",
        _ => "png",
    }
}

/// Where the store keeps a screenshot with these bytes (see [`blob_path`]).
pub fn screenshot_path(bytes: &[u8]) -> String {
    blob_path(bytes, image_ext(bytes))
}

impl Store {
    /// Records a new run as `running` (with its workflow, deduplicated by content hash) and
    /// takes its lock.
    pub fn start_run(&self, run: &NewRun) -> Result<RunHandle> {
        let lock = match self.lock_path(run.id) {
            Some(path) => {
                let dir = path.parent().expect("locks folder");
                std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                let file = File::options()
                    .create(true)
                    .truncate(false)
                    .read(true)
                    .write(true)
                    .open(&path)
                    .map_err(|e| Error::io(&path, e))?;
                if !try_lock(&file) {
                    return Err(Error::Io {
                        path,
                        source: std::io::Error::other("another process is recording a run with this id"),
                    });
                }
                Some((file, path))
            }
            None => None,
        };
        let handle = RunHandle { id: run.id.to_owned(), lock, next_seq: 1 };
        let hash = sha256_hex(run.workflow_json.as_bytes());
        let now = now_ms();
        let tx = self.immediate()?;
        tx.execute(
            "INSERT OR IGNORE INTO workflows (hash, name, json, first_seen_ms) VALUES (?1, ?2, ?3, ?4)",
            params![hash, run.workflow_name, run.workflow_json, now],
        )
        .map_err(|e| self.err(e))?;
        tx.execute(
            "INSERT INTO runs (id, workflow_hash, workflow, parameters, browser, status, started_ms, workflow_path)
             VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6, ?7)",
            params![run.id, hash, run.workflow_name, run.parameters.to_string(), run.browser, now, run.workflow_path],
        )
        .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(handle)
    }

    /// Records a run that never started (e.g. the browser did not launch) as failed.
    pub fn abort_run(&self, run: RunHandle, message: &str) -> Result<()> {
        self.conn
            .execute(
                "UPDATE runs SET status = 'failed', message = ?2, finished_ms = ?3, duration_ms = ?3 - started_ms
                 WHERE id = ?1",
                params![run.id, message, now_ms()],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Sets a run's status (e.g. `needs_human_review`).
    pub fn set_status(&self, run_id: &str, status: &str) -> Result<()> {
        if !crate::STATUSES.contains(&status) {
            return Err(Error::Io {
                path: self.path.clone(),
                source: std::io::Error::other(format!("unknown run status `{status}`")),
            });
        }
        let n = self
            .conn
            .execute("UPDATE runs SET status = ?2 WHERE id = ?1", params![run_id, status])
            .map_err(|e| self.err(e))?;
        if n == 0 {
            return Err(Error::UnknownRun(run_id.to_owned()));
        }
        Ok(())
    }

    /// Persists one event of the run, in one transaction.
    pub fn record(&self, run: &mut RunHandle, event: &Event) -> Result<()> {
        self.record_all(run, std::slice::from_ref(event))
    }

    /// Persists several events of the run (e.g. those that arrived together), in one
    /// transaction: all or none.
    pub fn record_all(&self, run: &mut RunHandle, events: &[Event]) -> Result<()> {
        let tx = self.immediate()?;
        let seq = run.next_seq;
        for event in events {
            if let Err(e) = self.apply(&tx, run, event) {
                run.next_seq = seq;
                return Err(e);
            }
        }
        tx.commit().map_err(|e| {
            run.next_seq = seq;
            self.err(e)
        })
    }

    fn apply(&self, tx: &rusqlite::Connection, run: &mut RunHandle, event: &Event) -> Result<()> {
        let now = now_ms();
        match event {
            Event::RunStarted { .. }
            | Event::ActionStarted { .. }
            | Event::Verified { .. }
            | Event::InterruptEntered { .. }
            | Event::RoutePlanned { .. }
            | Event::ReviewRequested { .. }
            | Event::ReviewResolved { .. } => Ok(()),
            Event::ModelCalled { step, state, call } => {
                exec(
                    tx,
                    "INSERT INTO model_calls (run_id, step, state, model, prompt_chars, prompt_tokens, completion_tokens,
                                              latency_ms, cost, answer, accepted, error, at_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                    params![
                        run.id,
                        step,
                        state,
                        call.model,
                        call.prompt_chars as i64,
                        call.prompt_tokens as i64,
                        call.completion_tokens as i64,
                        call.latency_ms as i64,
                        call.cost,
                        call.answer,
                        call.accepted,
                        call.error,
                        now
                    ],
                )
                .map_err(|e| self.err(e))?;
                exec(
                    tx,
                    "UPDATE runs SET llm_calls = llm_calls + 1, llm_tokens = llm_tokens + ?2, llm_cost = llm_cost + ?3
                     WHERE id = ?1",
                    params![run.id, (call.prompt_tokens + call.completion_tokens) as i64, call.cost],
                )
                .map_err(|e| self.err(e))?;
                Ok(())
            }
            Event::AdviceWorked { model, resolution, request, .. } => {
                self.propose(tx, &run.id, model, request, resolution)?;
                Ok(())
            }
            Event::Retrying { step, state, attempt, max, reason } => exec(
                tx,
                "INSERT OR REPLACE INTO retries (run_id, step, state, attempt, max, reason, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![run.id, step, state, attempt, max, reason, now],
            )
            .map(drop)
            .map_err(|e| self.err(e)),
            Event::TabOpened { step, state, index, url } => exec(
                tx,
                "INSERT OR REPLACE INTO tabs_opened (run_id, step, state, idx, url, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![run.id, step, state, *index as i64, url, now],
            )
            .map(drop)
            .map_err(|e| self.err(e)),
            Event::Healed { step, state, index, field, from, to } => {
                let table = HealedTable::Locators(*field);
                crate::review::record_healed(tx, table, &run.id, (*step, state, *index), from, to)
                    .map_err(|e| self.err(e))
            }
            Event::ChecksLocated { state, checks, .. } => {
                crate::review::record_check_locators(tx, &run.id, state, checks).map_err(|e| self.err(e))
            }
            Event::CheckHealed { step, state, index, from, to } => {
                crate::review::record_healed(tx, HealedTable::Checks, &run.id, (*step, state, *index), from, to)
                    .map_err(|e| self.err(e))
            }
            Event::Escalated { step, state, stage, reason, outcome, resolved } => crate::review::record_escalation(
                tx,
                &run.id,
                *step,
                state.as_deref(),
                reason,
                &serde_json::json!({ "stage": stage }),
                &serde_json::json!({ "outcome": outcome, "resolved": resolved }),
            )
            .map_err(|e| self.err(e)),
            Event::BreakerTripped { breaker, count, limit, state } => crate::review::record_escalation(
                tx,
                &run.id,
                0,
                state.as_deref(),
                &format!("circuit breaker `{breaker}` tripped ({count} > {limit})"),
                &serde_json::json!({ "breaker": breaker, "count": count, "limit": limit }),
                &Value::Null,
            )
            .map_err(|e| self.err(e)),
            Event::StateEntered { step, state, state_index, visit, elapsed_ms, url, checks, also_matched } => {
                let checks = serde_json::to_string(checks)?;
                let also_matched =
                    if also_matched.is_empty() { None } else { Some(serde_json::to_string(also_matched)?) };
                exec(
                    tx,
                    "INSERT OR REPLACE INTO steps (run_id, step, state, state_index, visit, elapsed_ms, entered_ms, url,
                                                   checks, also_matched)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    params![
                        run.id,
                        step,
                        state,
                        *state_index as i64,
                        visit,
                        *elapsed_ms as i64,
                        now,
                        url,
                        checks,
                        also_matched
                    ],
                )
                .map_err(|e| self.err(e))?;
                Ok(())
            }
            Event::Observed { step, observation } => {
                let elements = serde_json::to_string(&observation.elements)?;
                // The file is written inside the transaction, so `prune` (which holds the
                // write lock while collecting garbage) never sees it unreferenced.
                let screenshot = match &observation.screenshot {
                    Some(image) => Some(self.put_blob(image, image_ext(image))?),
                    None => None,
                };
                exec(
                    tx,
                    "UPDATE steps SET screenshot = ?3, page_url = ?4, page_title = ?5, page_text = ?6, elements = ?7
                     WHERE run_id = ?1 AND step = ?2",
                    params![run.id, step, screenshot, observation.url, observation.title, observation.text, elements],
                )
                .map_err(|e| self.err(e))?;
                Ok(())
            }
            Event::ActionFinished {
                step,
                state,
                index,
                action,
                elapsed_ms,
                duration_ms,
                attempts,
                detail,
                error,
                alternatives,
                to_alternatives,
                artifact,
                value,
            } => {
                for (field, alternatives) in [(TargetField::Target, alternatives), (TargetField::To, to_alternatives)] {
                    if let Some(target) = action.target_in(field)
                        && !alternatives.is_empty()
                    {
                        crate::review::record_locators(tx, &run.id, (state, *index, field), target, alternatives)
                            .map_err(|e| self.err(e))?;
                    }
                }
                let mut args = serde_json::to_value(action)?;
                if let Some(map) = args.as_object_mut() {
                    map.remove("type");
                }
                let seq = run.next_seq;
                let (artifact_name, artifact_path) = match artifact {
                    Some(a) => {
                        let ext = std::path::Path::new(&a.filename)
                            .extension()
                            .and_then(|e| e.to_str())
                            .filter(|e| e.len() <= 8 && e.chars().all(|c| c.is_ascii_alphanumeric()))
                            .unwrap_or("bin");
                        (Some(a.filename.clone()), Some(self.put_blob(&a.bytes, ext)?))
                    }
                    None => (None, None),
                };
                exec(
                    tx,
                    "INSERT INTO actions (run_id, seq, step, state, idx, kind, args, detail, error, elapsed_ms,
                                          duration_ms, attempts, at_ms, artifact_name, artifact_path, alternatives, value)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
                    params![
                        run.id,
                        seq,
                        step,
                        state,
                        *index as i64,
                        action.kind(),
                        args.to_string(),
                        detail,
                        error,
                        *elapsed_ms as i64,
                        *duration_ms as i64,
                        attempts,
                        now,
                        artifact_name,
                        artifact_path,
                        (!alternatives.is_empty()).then(|| serde_json::to_string(alternatives)).transpose()?,
                        value.as_ref().map(serde_json::to_string).transpose()?
                    ],
                )
                .map_err(|e| self.err(e))?;
                if let (statewright_workflow::Action::Extract { into, .. }, Some(value)) = (action, value) {
                    record_output(tx, &run.id, into, value).map_err(|e| self.err(e))?;
                }

                run.next_seq += 1;
                Ok(())
            }
            Event::ActionPreempted { step, state, index, by_state, reason } => {
                let seq = run.next_seq;
                exec(
                    tx,
                    "INSERT INTO actions (run_id, seq, step, state, idx, kind, by_state, error, at_ms)
                         VALUES (?1, ?2, ?3, ?4, ?5, 'preempted', ?6, ?7, ?8)",
                    params![run.id, seq, step, state, *index as i64, by_state, reason, now],
                )
                .map_err(|e| self.err(e))?;
                run.next_seq += 1;
                Ok(())
            }
            Event::RunFinished {
                status,
                end_state,
                outcome,
                message,
                failure,
                duration_ms,
                steps,
                actions,
                outputs,
            } => {
                let outcome =
                    outcome.map(serde_json::to_value).transpose()?.and_then(|v| v.as_str().map(str::to_owned));
                let failure = failure.as_ref().map(serde_json::to_string).transpose()?;
                exec(
                    tx,
                    "UPDATE runs SET status = ?2, end_state = ?3, outcome = ?4, message = ?5, failure = ?6,
                             finished_ms = ?7, duration_ms = ?8, step_count = ?9, action_count = ?10
                         WHERE id = ?1",
                    params![
                        run.id,
                        status_name(*status),
                        end_state,
                        outcome,
                        message,
                        failure,
                        now,
                        *duration_ms as i64,
                        steps,
                        actions
                    ],
                )
                .map_err(|e| self.err(e))?;
                // The run's own account of its variables is the last word (a skill's outputs
                // arrive here under the names the caller gave them).
                if !outputs.is_empty() {
                    let outputs = serde_json::to_string(outputs)?;
                    exec(tx, "UPDATE runs SET outputs = ?2 WHERE id = ?1", params![run.id, outputs])
                        .map_err(|e| self.err(e))?;
                }
                Ok(())
            }
        }
    }

    /// Stores `bytes` once under `screens/ab/<sha256>.<ext>`; returns that relative path.
    pub(crate) fn put_blob(&self, bytes: &[u8], ext: &str) -> Result<String> {
        let rel = blob_path(bytes, ext);
        let hash = sha256_hex(bytes);
        match &self.root {
            Some(root) => {
                let path = root.join(&rel);
                if !path.exists() {
                    let dir = path.parent().expect("screens folder");
                    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                    let tmp = dir.join(format!(".{hash}.{}.tmp", std::process::id()));
                    std::fs::write(&tmp, bytes).map_err(|e| {
                        let _ = std::fs::remove_file(&tmp);
                        Error::io(&tmp, e)
                    })?;
                    std::fs::rename(&tmp, &path).map_err(|e| Error::io(&path, e))?;
                }
            }
            None => {
                self.blobs
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .entry(rel.clone())
                    .or_insert_with(|| bytes.to_vec());
            }
        }
        Ok(rel)
    }

    /// The bytes of a stored screenshot or artifact, by its relative path.
    pub fn read_blob(&self, rel: &str) -> Result<Option<Vec<u8>>> {
        match &self.root {
            Some(root) => {
                let path = root.join(rel);
                // Read bounded: a named pipe or a device put in the runs folder is refused,
                // not waited on for ever or read until memory runs out.
                match statewright_workflow::read_input_bytes(
                    &path,
                    "stored file",
                    statewright_workflow::MAX_WRITTEN_BYTES,
                ) {
                    Ok(bytes) => Ok(Some(bytes)),
                    Err(e) if e.missing => Ok(None),
                    Err(e) => Err(Error::io(&path, std::io::Error::other(e.message))),
                }
            }
            None => Ok(self.blobs.lock().unwrap_or_else(|e| e.into_inner()).get(rel).cloned()),
        }
    }

    /// The JSON of a stored workflow, by hash.
    pub fn workflow_json(&self, hash: &str) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT json FROM workflows WHERE hash = ?1", [hash], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(e))
    }
}

/// Sets one of a run's outputs: the variable `name` as last extracted.
fn record_output(
    tx: &rusqlite::Connection,
    run_id: &str,
    name: &str,
    value: &serde_json::Value,
) -> rusqlite::Result<()> {
    let current: Option<String> = tx.query_row("SELECT outputs FROM runs WHERE id = ?1", [run_id], |row| row.get(0))?;
    let mut outputs: serde_json::Map<String, serde_json::Value> =
        current.and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default();
    outputs.insert(name.to_owned(), value.clone());
    let text = serde_json::Value::Object(outputs).to_string();
    tx.execute("UPDATE runs SET outputs = ?2 WHERE id = ?1", params![run_id, text])?;
    Ok(())
}
