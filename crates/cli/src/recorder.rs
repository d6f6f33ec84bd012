//! The run folder: `runs/<run_id>/` with `timeline.json` (one entry per action, in the
//! spirit of seed 003's `action_timeline.json`), and per step a PNG screenshot and a JSON
//! observation (URL, title, visible text, interactive elements), as in seed 004.
//!
//! Every event is also written to the run store (`runs/statewright.db`, see
//! `statewright-store`), in its own transaction.
//!
//! Each event is written to disk before it is printed (persist, then notify), and the
//! timeline is rewritten atomically after every step, so a crash leaves a readable folder.
//! The recorder runs on a blocking thread: the store's connection never meets an `.await`.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::{Value, json};
use statewright_engine::Event;
use statewright_store::{Error, NewRun, RunHandle, Store};
use statewright_workflow::{Params, Workflow};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::progress::Progress;

pub struct Recorder {
    dir: PathBuf,
    header: Value,
    steps: Vec<Value>,
    timeline: Vec<Value>,
    /// Screenshot file of each step, once observed.
    screenshots: HashMap<u32, String>,
    progress: Progress,
    store: Store,
    run: RunHandle,
}

fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

/// A sortable, unique run id: `20261122-051233-3f9a`.
fn new_run_id() -> String {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
    let digits: String = stamp.chars().filter(char::is_ascii_digit).collect();
    let (date, time) = digits.split_at(8.min(digits.len()));
    format!("{date}-{time}-{:04x}", fastrand::u16(..))
}

/// The workflow as run, as JSON, with the defaults of secret parameters masked.
fn workflow_as_run(workflow: &Workflow, params: &Params) -> Result<String, String> {
    let mut value = serde_json::to_value(workflow).map_err(|e| e.to_string())?;
    let masked = params.masked_values();
    if let Some(Value::Object(declared)) = value.get_mut("parameters") {
        for (name, declaration) in declared.iter_mut() {
            let secret = workflow.parameters.get(name).is_some_and(|p| p.secret);
            if secret && declaration.get("default").is_some() {
                declaration["default"] = json!(masked.get(name).cloned().unwrap_or_else(|| "********".into()));
            }
        }
    }
    Ok(value.to_string())
}

impl Recorder {
    pub fn run_id(&self) -> &str {
        self.run.id()
    }

    /// The locators earlier runs of `workflow` recorded, for healing.
    pub fn locators(&self, workflow: &str) -> Result<statewright_engine::LocatorMemory, String> {
        self.store.locators(workflow).map_err(|e| e.to_string())
    }

    /// Opens the store at `db` and records the run's start there, then creates its folder.
    pub fn create(
        runs_dir: &Path,
        db: &Path,
        workflow: &Workflow,
        params: &Params,
        browser: &str,
        workflow_path: &Path,
    ) -> Result<Self, String> {
        let workflow_path = std::path::absolute(workflow_path).unwrap_or_else(|_| workflow_path.to_path_buf());
        let workflow_path = workflow_path.to_string_lossy();
        let store = Store::open(db).map_err(|e| e.to_string())?;
        let masked = params.masked_values();
        let parameters = json!(masked);
        let workflow_json = workflow_as_run(workflow, params)?;
        // Ids carry 16 random bits per second: on the rare clash with another run, draw again.
        let mut attempt = 0;
        let (run_id, run) = loop {
            let run_id = new_run_id();
            let started = store.start_run(&NewRun {
                id: &run_id,
                workflow_name: &workflow.name,
                workflow_json: &workflow_json,
                parameters: &parameters,
                browser,
                workflow_path: Some(&workflow_path),
            });
            match started {
                Ok(run) => break (run_id, run),
                Err(e @ (Error::Sqlite { .. } | Error::Io { .. })) if attempt < 3 => {
                    tracing::debug!("cannot start run {run_id}: {e}; trying another id");
                    attempt += 1;
                }
                Err(e) => return Err(e.to_string()),
            }
        };
        let dir = runs_dir.join(&run_id);
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let header = json!({
            "run_id": run_id,
            "workflow": workflow.name,
            "task_description": workflow.description,
            "parameters": parameters,
            "browser": browser,
            "started_at": now(),
        });
        let progress = Progress::new(&run_id, &workflow.name, browser, &dir);
        let recorder = Self {
            dir,
            header,
            steps: Vec::new(),
            timeline: Vec::new(),
            screenshots: HashMap::new(),
            progress,
            store,
            run,
        };
        recorder.write_timeline(None).map_err(|e| format!("cannot write the timeline: {e}"))?;
        Ok(recorder)
    }

    /// Records a run that never started (e.g. the browser did not launch).
    pub fn abort(self, error: &str) {
        let end = json!({"status": "failed", "message": error, "finished_at": now()});
        if let Err(e) = self.write_timeline(Some(end)) {
            tracing::warn!("cannot write the timeline: {e}");
        }
        if let Err(e) = self.store.abort_run(self.run, error) {
            tracing::warn!("cannot record the run in the store: {e}");
        }
    }

    /// Consumes the run's events until the channel closes; returns the run folder. The
    /// work happens on a blocking thread (SQLite and file writes).
    pub async fn consume(self, events: UnboundedReceiver<Event>) -> PathBuf {
        tokio::task::spawn_blocking(move || self.consume_blocking(events)).await.expect("the recorder thread panicked")
    }

    fn consume_blocking(mut self, mut events: UnboundedReceiver<Event>) -> PathBuf {
        while let Some(first) = events.blocking_recv() {
            // Events that arrived together go to the store in one transaction.
            let mut batch = vec![first];
            while batch.len() < 64
                && let Ok(event) = events.try_recv()
            {
                batch.push(event);
            }
            if let Err(e) = self.store.record_all(&mut self.run, &batch) {
                tracing::warn!("cannot record the run in {}: {e}", self.store.path().display());
            }
            for event in &batch {
                if let Err(e) = self.record(event) {
                    tracing::warn!("cannot record the run in {}: {e}", self.dir.display());
                }
            }
            for event in &batch {
                self.progress.show(event);
            }
        }
        self.dir
    }

    fn record(&mut self, event: &Event) -> io::Result<()> {
        match event {
            Event::StateEntered { step, state, state_index, visit, elapsed_ms, url, checks } => {
                self.steps.push(json!({
                    "step": step, "state": state, "state_index": state_index, "visit": visit,
                    "elapsed_ms": elapsed_ms, "timestamp": now(), "url": url, "checks": checks,
                    "screenshot": Value::Null,
                }));
                self.write_timeline(None)
            }
            Event::Observed { step, observation } => {
                let base = format!("step-{step:03}");
                if let Some(png) = &observation.screenshot {
                    std::fs::write(self.dir.join(format!("{base}.png")), png.as_slice())?;
                    self.screenshots.insert(*step, format!("{base}.png"));
                    if let Some(entry) = self.steps.iter_mut().find(|s| s["step"] == json!(step)) {
                        entry["screenshot"] = json!(format!("{base}.png"));
                    }
                    for entry in self.timeline.iter_mut().filter(|e| e["step"] == json!(step)) {
                        entry["screenshot"] = json!(format!("{base}.png"));
                    }
                }
                let observation = serde_json::to_vec_pretty(observation).map_err(io::Error::other)?;
                std::fs::write(self.dir.join(format!("{base}.json")), observation)?;
                self.write_timeline(None)
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
                artifact,
                ..
            } => {
                if let Some(artifact) = artifact {
                    std::fs::write(self.dir.join(&artifact.filename), artifact.bytes.as_slice())?;
                }
                let mut args = serde_json::to_value(action).map_err(io::Error::other)?;
                if let Some(map) = args.as_object_mut() {
                    map.remove("type");
                }
                self.timeline.push(json!({
                    "action_step": self.timeline.len() + 1,
                    "timestamp": now(),
                    "action_type": "state_action",
                    "action": action.kind(),
                    "args": args,
                    "element_label": detail,
                    "state": state,
                    "step": step,
                    "index": index,
                    "elapsed_ms": elapsed_ms,
                    "duration_ms": duration_ms,
                    "attempts": attempts,
                    "error": error,
                    "screenshot": self.screenshots.get(step),
                }));
                self.write_timeline(None)
            }
            Event::ActionPreempted { step, state, index, by_state, reason } => {
                self.timeline.push(json!({
                    "action_step": self.timeline.len() + 1,
                    "timestamp": now(),
                    "action_type": "preempted",
                    "state": state, "step": step, "index": index,
                    "by_state": by_state, "error": reason,
                }));
                self.write_timeline(None)
            }
            Event::RunFinished { status, end_state, outcome, message, failure, duration_ms, steps, actions } => {
                let end = json!({
                    "status": status, "end_state": end_state, "outcome": outcome, "message": message,
                    "failure": failure, "duration_ms": duration_ms, "step_count": steps,
                    "action_count": actions, "llm_calls": 0, "finished_at": now(),
                });
                self.write_timeline(Some(end))
            }
            // The run folder keeps steps and actions; the store keeps the rest.
            _ => Ok(()),
        }
    }

    /// Rewrites `timeline.json` through a temporary file and a rename, so readers never see
    /// half a file.
    fn write_timeline(&self, end: Option<Value>) -> io::Result<()> {
        let mut doc = self.header.clone();
        doc["status"] = json!("running");
        if let Some(Value::Object(end)) = end {
            for (k, v) in end {
                doc[k] = v;
            }
        }
        doc["steps"] = json!(self.steps);
        doc["timeline"] = json!(self.timeline);
        let tmp = self.dir.join(".timeline.json.tmp");
        std::fs::write(&tmp, serde_json::to_vec_pretty(&doc).map_err(io::Error::other)?)?;
        std::fs::rename(tmp, self.dir.join("timeline.json"))
    }
}
