//! Builders and a harness shared by the engine's semantic tests. Workflows are written as
//! `json!` values and go through the real loader (so every test workflow is a valid one);
//! runs happen on the `ScriptedDriver` under paused tokio time, so timings are exact.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use statewright_engine::review::BoxFuture;
use statewright_engine::scripted::{Change, ScriptedDriver};
use statewright_engine::{
    Advisor, Cancel, EscalationRequest, Event, Failure, Resolution, ReviewError, Reviewer, RunOptions, RunReport, run,
};
use statewright_workflow::{Params, Workflow};
use tokio::time::Instant;

/// Where scripted pages start.
pub const URL: &str = "https://app.test/";

/// Longer than any test should take in virtual time: a run still going by then is hung.
const HANG: Duration = Duration::from_secs(3600);

pub fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A workflow with `config` and `states`; name and version are filled in.
pub fn workflow(config: Value, states: Vec<Value>) -> Workflow {
    workflow_from(json!({ "config": config, "states": states }))
}

/// A workflow from a JSON object with at least `states`; name and version are filled in.
/// It goes through `load_str`, so it must pass validation like any real workflow.
pub fn workflow_from(mut value: Value) -> Workflow {
    let object = value.as_object_mut().expect("a workflow is a JSON object");
    object.entry("version").or_insert(json!(1));
    object.entry("name").or_insert(json!("test"));
    match statewright_workflow::load_str(&value.to_string(), "test.json", "test") {
        Ok(loaded) => loaded.workflow,
        Err(diagnostics) => panic!("test workflow is invalid: {diagnostics:?}"),
    }
}

/// A state: a name, its checks and its actions.
pub fn state(name: &str, checks: Value, actions: Value) -> Value {
    json!({ "name": name, "checks": checks, "actions": actions })
}

/// A continuous state.
pub fn continuous(name: &str, checks: Value, actions: Value) -> Value {
    json!({ "name": name, "checks": checks, "actions": actions, "continuous": true })
}

/// A terminal state with outcome `success` and no actions.
pub fn success(name: &str, checks: Value) -> Value {
    json!({ "name": name, "checks": checks, "terminal": { "outcome": "success" } })
}

/// A terminal state that nothing in the test ever shows, to satisfy validation.
pub fn unreachable_end() -> Value {
    success("Unreachable", json!([el("#never-shown")]))
}

/// An element check on a CSS selector.
pub fn el(selector: &str) -> Value {
    json!({ "type": "element", "selector": selector })
}

pub fn not_el(selector: &str) -> Value {
    json!({ "type": "element", "selector": selector, "negate": true })
}

pub fn text(value: &str) -> Value {
    json!({ "type": "text", "value": value })
}

pub fn url_is(value: &str) -> Value {
    json!({ "type": "url", "value": value })
}

pub fn url_starts(value: &str) -> Value {
    json!({ "type": "url", "match": "prefix", "value": value })
}

pub fn click(selector: &str) -> Value {
    json!({ "type": "click", "target": { "css": selector } })
}

pub fn type_into(selector: &str, text: &str) -> Value {
    json!({ "type": "type", "target": { "css": selector }, "text": text })
}

pub fn press(key: &str) -> Value {
    json!({ "type": "press_key", "key": key })
}

pub fn wait(seconds: f64) -> Value {
    json!({ "type": "wait", "seconds": seconds })
}

pub fn show(selector: &str) -> Change {
    Change::ShowElement(selector.into())
}

pub fn hide(selector: &str) -> Change {
    Change::HideElement(selector.into())
}

pub fn show_text(value: &str) -> Change {
    Change::ShowText(value.into())
}

pub fn hide_text(value: &str) -> Change {
    Change::HideText(value.into())
}

pub fn go(url: &str) -> Change {
    Change::Url(url.into())
}

pub fn title(value: &str) -> Change {
    Change::Title(value.into())
}

/// A finished run: its report, every event in order, and how long it took (virtual time).
pub struct Ran {
    pub report: RunReport,
    pub events: Vec<Event>,
    pub elapsed: Duration,
}

/// Runs `workflow` with its default parameters to the end.
pub async fn run_to_end(workflow: &Workflow, driver: &mut ScriptedDriver) -> Ran {
    let params = Params::bind(workflow, &[]).expect("test parameters bind");
    run_with(workflow, &params, driver, Cancel::new()).await
}

/// Runs `workflow` to the end (or cancellation), collecting every event it emits.
pub async fn run_with(workflow: &Workflow, params: &Params, driver: &mut ScriptedDriver, cancel: Cancel) -> Ran {
    run_full(workflow, params, driver, cancel, RunOptions::default()).await
}

async fn run_full(
    workflow: &Workflow,
    params: &Params,
    driver: &mut ScriptedDriver,
    cancel: Cancel,
    options: RunOptions,
) -> Ran {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let started = Instant::now();
    let report = tokio::time::timeout(HANG, run(workflow, params, driver, tx, cancel, options))
        .await
        .expect("the run never ended: the engine hung");
    let elapsed = started.elapsed();
    let mut events = Vec::new();
    while let Ok(event) = rx.try_recv() {
        events.push(event);
    }
    Ran { report, events, elapsed }
}

/// A state entry as the `StateEntered` event told it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub step: u32,
    pub state: String,
    pub visit: u32,
    pub elapsed_ms: u64,
}

/// An action as its `ActionFinished` event told it.
#[derive(Debug, Clone)]
pub struct Finished {
    pub state: String,
    pub index: usize,
    pub kind: &'static str,
    pub elapsed_ms: u64,
    pub duration_ms: u64,
    pub attempts: u32,
    pub error: Option<String>,
}

impl Ran {
    pub fn entries(&self) -> Vec<Entry> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::StateEntered { step, state, visit, elapsed_ms, .. } => {
                    Some(Entry { step: *step, state: state.clone(), visit: *visit, elapsed_ms: *elapsed_ms })
                }
                _ => None,
            })
            .collect()
    }

    /// The names of the states entered, in order.
    pub fn states(&self) -> Vec<String> {
        self.entries().into_iter().map(|e| e.state).collect()
    }

    pub fn finished_actions(&self) -> Vec<Finished> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::ActionFinished { state, index, action, elapsed_ms, duration_ms, attempts, error, .. } => {
                    Some(Finished {
                        state: state.clone(),
                        index: *index,
                        kind: action.kind(),
                        elapsed_ms: *elapsed_ms,
                        duration_ms: *duration_ms,
                        attempts: *attempts,
                        error: error.clone(),
                    })
                }
                _ => None,
            })
            .collect()
    }

    /// The failure the run ended with; panics (with the run's message) if it succeeded.
    pub fn failure(&self) -> &Failure {
        match &self.report.failure {
            Some(failure) => failure,
            None => panic!("expected the run to fail, but it ended {:?}: {}", self.report.status, self.report.message),
        }
    }
}

/// Milliseconds of a duration, for comparing with event timestamps.
pub fn as_ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// The actions the scripted driver performed, by key (`click #go`), in order.
pub fn log(driver: &ScriptedDriver) -> Vec<String> {
    driver.log.lock().expect("log lock").clone()
}

/// Runs `workflow` with its default parameters and `options` (reviewer, advisor, locators).
pub async fn run_opts(workflow: &Workflow, driver: &mut ScriptedDriver, options: RunOptions) -> Ran {
    let params = Params::bind(workflow, &[]).expect("test parameters bind");
    run_full(workflow, &params, driver, Cancel::new(), options).await
}

/// A person at the review queue: answers each review with the next scripted resolution
/// after `delay` (virtual time), and times out when out of answers.
pub struct ScriptedReviewer {
    answers: Mutex<VecDeque<Resolution>>,
    pub requests: Mutex<Vec<EscalationRequest>>,
    delay: Duration,
}

impl ScriptedReviewer {
    pub fn new(answers: impl IntoIterator<Item = Resolution>, delay: Duration) -> Arc<Self> {
        Arc::new(Self { answers: Mutex::new(answers.into_iter().collect()), requests: Mutex::default(), delay })
    }

    pub fn requests(&self) -> Vec<EscalationRequest> {
        self.requests.lock().unwrap().clone()
    }
}

impl Reviewer for ScriptedReviewer {
    fn open(&self, request: EscalationRequest) -> BoxFuture<'_, Result<i64, ReviewError>> {
        let mut requests = self.requests.lock().unwrap();
        requests.push(request);
        let id = requests.len() as i64;
        Box::pin(async move { Ok(id) })
    }

    fn wait(&self, review_id: i64) -> BoxFuture<'_, Result<Resolution, ReviewError>> {
        Box::pin(async move {
            tokio::time::sleep(self.delay).await;
            let answer = self.answers.lock().unwrap().pop_front();
            answer.ok_or(ReviewError::TimedOut { review_id, seconds: self.delay.as_secs_f64() })
        })
    }
}

/// An LLM that always gives the same advice.
pub struct FixedAdvisor(pub Option<Resolution>);

impl Advisor for FixedAdvisor {
    fn advise(&self, _request: EscalationRequest) -> BoxFuture<'_, statewright_engine::Advice> {
        let resolution = self.0.clone();
        Box::pin(async move { statewright_engine::Advice { resolution, ..Default::default() } })
    }
}

/// Options with only a reviewer.
pub fn reviewed_by(reviewer: &Arc<ScriptedReviewer>) -> RunOptions {
    RunOptions { reviewer: Some(reviewer.clone() as Arc<dyn Reviewer>), ..RunOptions::default() }
}

impl Ran {
    /// The `(stage, outcome, resolved)` of every escalation stage that ran.
    pub fn escalations(&self) -> Vec<(String, String, bool)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Escalated { stage, outcome, resolved, .. } => Some((stage.clone(), outcome.clone(), *resolved)),
                _ => None,
            })
            .collect()
    }

    /// Events of one kind, by their serialised `event` tag (e.g. `verified`).
    pub fn tagged(&self, tag: &str) -> Vec<Value> {
        self.events
            .iter()
            .map(|e| serde_json::to_value(e).expect("events serialise"))
            .filter(|v| v["event"] == tag)
            .collect()
    }
}
