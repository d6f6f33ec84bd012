//! Goal-driven runs (`statewright agent`): the model observes the page and answers one typed
//! step at a time; the step is checked (whitelisted kinds, elements from the snapshot,
//! known parameters, secrets only into password fields, only the start page's origin) and
//! performed by the Chrome driver; the run is stored like any other, so it can be watched,
//! reviewed, and compiled into a workflow that needs no model (`statewright compile RUN`).
//!
//! Guards, after seed 004: the step budget, a step that failed twice is not done a third
//! time, `finish` (with an answer) is the only way to succeed, and an answer that cannot be
//! used is refused with its reason, which the model reads on its next turn.
//!
//! Stuck — the model gives up or cannot be reached, three answers in a row are refused, or
//! every step it proposes has failed twice already — the run asks a person, as a workflow
//! run does: a review in the queue with the page. The person's steps are done and the model
//! carries on from there; *retry* or *skip* lets the model try again with a clean slate;
//! declaring the state "Goal reached" ends the run as a success; *abort* fails it.

mod goal;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};
use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_demo::{Site, SiteServer};
use statewright_engine::{
    Cancel, Capture, Driver, EscalationRequest, Event, Failure, Observation, Resolution, ReviewError, Reviewer,
    RunStatus,
};
use statewright_llm::agent::{AgentModel, Move};
use statewright_llm::{Client, LlmConfig};
use statewright_store::{Store, StoreReviewer};
use statewright_workflow::{Action, Outcome, Params, Workflow};

pub(crate) use goal::GOAL;
use goal::goal_workflow;

use crate::book::{Book, Listener};
use crate::error::RunError;
use crate::export::{Images, export};
use crate::request::{Browser, ReviewPolicy};

/// How long an element step waits for its target.
const PATIENCE: Duration = Duration::from_secs(5);
/// A step that failed this often is not done again.
const MAX_FAILURES: u32 = 2;
/// How much of what was done the model is reminded of: steps, and characters in all (the
/// prompt keeps 1,200 of the line).
const HISTORY: usize = 15;
const HISTORY_CHARS: usize = 1000;
/// The model's notes kept, the latest ones: what it read on pages now gone.
const NOTES: usize = 3;
/// The longest `wait` a model may ask for.
const MAX_WAIT: f64 = 10.0;
/// Answers refused in a row before a person is asked.
const MAX_REFUSALS: u32 = 3;

pub struct AgentRequest {
    pub goal: String,
    /// The first page; `{{name}}` in it is filled from `params`.
    pub url: String,
    pub params: Vec<(String, String)>,
    pub browser: Browser,
    pub demo_site: bool,
    pub runs_dir: PathBuf,
    pub db: Option<PathBuf>,
    pub max_steps: u32,
    pub llm: LlmConfig,
    /// Who answers when the model is stuck.
    pub review: ReviewPolicy,
    /// Hears every event once it is stored (the app's live view).
    pub listener: Option<Listener>,
    /// A page already opened for the run (a batch's pool), instead of one from `browser`.
    pub chrome: Option<ChromeDriver>,
}

impl AgentRequest {
    /// The step budget when none is given.
    pub const DEFAULT_MAX_STEPS: u32 = 25;
    /// The most steps a budget may allow (a typo of 25 must not let a model spend 25,000).
    pub const MOST_STEPS: u32 = 500;

    /// A headless run of the model recorded under `runs_dir`, waiting for reviews when it is
    /// stuck; its goal and first page are the caller's to set.
    pub fn new(llm: LlmConfig, runs_dir: impl Into<PathBuf>) -> Self {
        Self {
            goal: String::new(),
            url: String::new(),
            params: Vec::new(),
            browser: Browser::Launch { headed: false },
            demo_site: false,
            runs_dir: runs_dir.into(),
            db: None,
            max_steps: Self::DEFAULT_MAX_STEPS,
            llm,
            review: ReviewPolicy::Wait { timeout: None },
            listener: None,
            chrome: None,
        }
    }

    /// The step budget a person asked for, within 1 and [`Self::MOST_STEPS`].
    pub fn with_max_steps(mut self, asked: Option<u32>) -> Self {
        self.max_steps = asked.unwrap_or(Self::DEFAULT_MAX_STEPS).clamp(1, Self::MOST_STEPS);
        self
    }

    /// A request like this one for another run (a batch's next task): the same goal, page,
    /// values, model and settings, without this one's listener or page.
    pub fn like(&self) -> AgentRequest {
        AgentRequest {
            goal: self.goal.clone(),
            url: self.url.clone(),
            params: self.params.clone(),
            browser: self.browser.clone(),
            demo_site: self.demo_site,
            runs_dir: self.runs_dir.clone(),
            db: self.db.clone(),
            max_steps: self.max_steps,
            llm: self.llm.clone(),
            review: self.review,
            listener: None,
            chrome: None,
        }
    }

    pub fn db_path(&self) -> PathBuf {
        self.db.clone().unwrap_or_else(|| Store::default_path(&self.runs_dir))
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct AgentSummary {
    pub run_id: String,
    pub status: RunStatus,
    /// What the model answered with `finish`.
    pub answer: Option<String>,
    pub message: String,
    /// Why it failed, typed (a review that timed out is `review_timeout`).
    pub failure: Option<Failure>,
    pub steps: u32,
    pub actions: u32,
    pub llm_calls: u32,
    pub llm_tokens: u64,
    pub llm_cost: f64,
    pub duration_ms: u64,
    pub run_dir: PathBuf,
}

/// What the shell hears while the model drives.
pub trait AgentObserver: Send {
    fn started(&mut self, run_id: &str, url: &str);
    fn step(&mut self, n: u32, what: &str);
}

pub async fn run_agent(
    mut request: AgentRequest,
    cancel: Cancel,
    observer: &mut dyn AgentObserver,
) -> Result<AgentSummary, RunError> {
    // A page handed over is the run's to close, also when the run ends before driving it.
    let mut page = request.chrome.take();
    let result = drive(request, &mut page, cancel, observer).await;
    if let Some(chrome) = page {
        chrome.close().await;
    }
    result
}

async fn drive(
    mut request: AgentRequest,
    page: &mut Option<ChromeDriver>,
    cancel: Cancel,
    observer: &mut dyn AgentObserver,
) -> Result<AgentSummary, RunError> {
    let mut supplied = request.params.clone();
    let _site = match request.demo_site {
        true => {
            let server = SiteServer::start(Site::Demo, 0)
                .await
                .map_err(|e| RunError::environment("demo_site", format!("cannot serve the demo site: {e}")))?;
            if !supplied.iter().any(|(k, _)| k == "site") {
                supplied.push(("site".into(), server.url()));
            }
            Some(server)
        }
        false => None,
    };
    let workflow = goal_workflow(&request.goal, &request.url, &supplied);
    let params = Params::bind(&workflow, &supplied).map_err(|e| RunError::invalid("params", e.to_string()))?;
    let url = params.render(&request.url);
    if !url.starts_with("http://") && !url.starts_with("https://") && !url.starts_with("file:") {
        return Err(RunError::invalid("url", format!("`{url}` is not an address to open")));
    }
    let client = Client::new(request.llm.clone()).map_err(|e| RunError::invalid("llm", e.to_string()))?;
    let model = AgentModel::new(client, workflow.clone(), params.clone());

    let db = request.db_path();
    let store = Store::open(&db).map_err(|e| RunError::store(&e))?;
    let masked = Value::Object(params.masked_values().into_iter().map(|(k, v)| (k, json!(v))).collect());
    let workflow_json = serde_json::to_string(&workflow.bound(&params, true)).unwrap_or_default();
    let label = match &request.browser {
        Browser::Attach { .. } => "attached browser (agent)",
        Browser::Launch { headed: true } => "headed Chromium (agent)",
        Browser::Launch { headed: false } => "headless Chromium (agent)",
    };
    let (mut handle, run_id) = crate::prepare::start_run(&store, &workflow.name, &workflow_json, &masked, label, None)?;
    let options = match &request.browser {
        Browser::Attach { cdp_url } => LaunchOptions { cdp_url: Some(cdp_url.clone()), ..LaunchOptions::default() },
        Browser::Launch { headed } => LaunchOptions { headed: *headed, ..LaunchOptions::default() },
    };
    let started = match page.take() {
        Some(chrome) => Ok(chrome),
        None => ChromeDriver::start(&options).await,
    };
    let mut driver = match started {
        Ok(d) => d,
        Err(e) => {
            let _ = store.abort_run(handle, &e.to_string());
            let invalid = e.is_invalid_input();
            return Err(if invalid {
                RunError::invalid("cdp_url", e.to_string())
            } else {
                RunError::environment("browser", e.to_string())
            });
        }
    };
    observer.started(&run_id, &url);
    let began = Instant::now();
    let mut book = Book::new(&store, &mut handle, began, params.clone(), "agent step").listen(request.listener.take());
    book.event(&Event::RunStarted { workflow: workflow.name.clone(), states: workflow.states.len() })?;
    let reviewer = match request.review {
        ReviewPolicy::Wait { timeout } => Some(
            StoreReviewer::open(&db, &run_id, timeout)
                .map_err(|e| RunError::environment("store", format!("cannot open the review queue: {e}")))?,
        ),
        ReviewPolicy::Never => None,
    };
    let mut tally = Tally::default();

    let opening = Action::NavigateTo { url: request.url.clone() };
    let blank = Observation { url: "about:blank".into(), elements: json!([]), ..Observation::default() };
    let opened = driver.perform(&Action::NavigateTo { url: url.clone() }, PATIENCE).await;
    let error = opened.as_ref().err().map(|e| e.to_string());
    book.write(blank, &opening, Some(url.clone()), Vec::new(), error.clone())?;
    tally.actions += 1;
    observer.step(1, &format!("navigate_to {url}"));

    let mut history: Vec<String> = vec![format!("opened {url}")];
    let mut notes: Vec<String> = Vec::new();
    let mut failures: HashMap<String, u32> = HashMap::new();
    let mut refusals = 0;
    let (mut status, mut answer, mut failure) = (RunStatus::Failed, None, None);
    let message;
    if let Some(e) = error {
        message = format!("cannot open {url}: {e}");
    } else {
        let mut turn = 0;
        loop {
            if turn >= request.max_steps {
                message = format!("the step budget ({}) ran out before the goal was reached", request.max_steps);
                break;
            }
            turn += 1;
            let observed = tokio::select! {
                o = tokio::time::timeout(Duration::from_secs(15), driver.observe(Capture::WithScreenshot)) => o,
                () = cancel.cancelled() => { status = RunStatus::Cancelled; message = cancel.message(); break; }
            };
            let mut obs = match observed {
                Ok(Ok(obs)) => obs,
                Ok(Err(e)) => {
                    message = format!("the page cannot be observed: {e}");
                    break;
                }
                Err(_) => {
                    message = "the page did not answer within 15 s".into();
                    break;
                }
            };
            obs.tabs = driver.other_tabs().await;
            obs.redact(&params);
            let step = book.observe(obs.clone())?;
            let mut question = ask(&workflow, step, obs, (&history, &notes), turn, request.max_steps);
            let (next, call) = tokio::select! {
                answer = model.next(&question) => answer,
                () = cancel.cancelled() => { status = RunStatus::Cancelled; message = cancel.message(); break; }
            };
            tally.model.count(&call);
            book.event(&Event::ModelCalled { step, state: None, call })?;
            let stuck = match next {
                Move::Finish(said) => {
                    observer.step(turn + 1, &format!("finish: {said}"));
                    status = RunStatus::Succeeded;
                    message = if said.is_empty() { "the model says the goal is reached".into() } else { said.clone() };
                    answer = Some(said);
                    break;
                }
                Move::GiveUp(reason) => format!("the model gave up: {reason}"),
                Move::Refused(why) => {
                    observer.step(turn + 1, &format!("refused: {why}"));
                    history.push(format!("your answer was refused: {why}"));
                    refusals += 1;
                    if refusals < MAX_REFUSALS {
                        continue;
                    }
                    format!("{refusals} answers in a row could not be used; the last: {why}")
                }
                Move::Act(actions, note) => {
                    refusals = 0;
                    if let Some(note) = note {
                        if notes.len() == NOTES {
                            notes.remove(0);
                        }
                        notes.push(note);
                    }
                    let mut done = 0;
                    for (i, action) in actions.iter().enumerate() {
                        let key = serde_json::to_string(action).unwrap_or_default();
                        if failures.get(&key).copied().unwrap_or(0) >= MAX_FAILURES {
                            history.push(format!("not done again (failed {MAX_FAILURES} times): {key}"));
                            continue;
                        }
                        done += 1;
                        let line = act(&mut driver, &mut book, &params, step, i, action).await?;
                        tally.actions += 1;
                        observer.step(turn + 1, &line.text);
                        if line.failed {
                            *failures.entry(key).or_default() += 1;
                        }
                        history.push(line.text);
                    }
                    if done > 0 {
                        // Give the page a moment to react before it is looked at again.
                        tokio::time::sleep(Duration::from_millis(300)).await;
                        continue;
                    }
                    format!("every step the model proposes has failed {MAX_FAILURES} times already")
                }
            };
            // Stuck: a person decides, or the run ends here.
            let Some(reviewer) = &reviewer else {
                message = stuck;
                break;
            };
            observer.step(turn + 1, &format!("{stuck} — waiting for a person (statewright review list)"));
            question.reason = format!("the agent is stuck: {stuck}");
            question.failure = Failure::Aborted { reason: stuck.clone() };
            // The one state a person can declare: the goal, reached.
            question.states = vec![GOAL.to_owned()];
            let resolution = tokio::select! {
                r = ask_person(reviewer, &mut book, question) => r?,
                () = cancel.cancelled() => { status = RunStatus::Cancelled; message = cancel.message(); break; }
            };
            let resolution = match resolution {
                Ok(resolution) => resolution,
                Err(e) => {
                    message = format!("{stuck}; {e}");
                    failure = Some(match e {
                        ReviewError::TimedOut { review_id, seconds } => Failure::ReviewTimeout { review_id, seconds },
                        ReviewError::Unavailable(error) => Failure::Review { error },
                    });
                    break;
                }
            };
            // Whatever the person says, the model starts over from what is on the page now.
            failures.clear();
            refusals = 0;
            match resolution {
                Resolution::Abort { reason } => {
                    message = format!(
                        "a person stopped the run: {}",
                        if reason.is_empty() { "no reason given" } else { &reason }
                    );
                    break;
                }
                Resolution::DeclareState { state } if state == GOAL => {
                    observer.step(turn + 1, "a person says the goal is reached");
                    status = RunStatus::Succeeded;
                    message = "a person says the goal is reached".into();
                    break;
                }
                Resolution::Actions { actions } => {
                    for (i, action) in actions.iter().enumerate() {
                        let line = act(&mut driver, &mut book, &params, step, i, action).await?;
                        tally.actions += 1;
                        observer.step(turn + 1, &format!("(a person) {}", line.text));
                        history.push(format!("a person did: {}", line.text));
                    }
                    tokio::time::sleep(Duration::from_millis(300)).await;
                }
                other => history.push(format!("a person said: {} (try again)", other.kind())),
            }
        }
    }
    if status == RunStatus::Cancelled {
        // A review left open would wait for an answer nobody needs.
        store.cancel_reviews(&run_id).map_err(|e| RunError::environment("store", e.to_string()))?;
    }
    // Where it ended, for the record and for compiling: the goal's page.
    if let Ok(Ok(mut obs)) =
        tokio::time::timeout(Duration::from_secs(10), driver.observe(Capture::WithScreenshot)).await
    {
        obs.redact(&params);
        book.observe(obs)?;
    }
    driver.close().await;
    let steps = book.step;
    let duration_ms = began.elapsed().as_millis() as u64;
    let failure =
        failure.or_else(|| (status == RunStatus::Failed).then(|| Failure::Aborted { reason: message.clone() }));
    book.event(&Event::RunFinished {
        status,
        end_state: (status == RunStatus::Succeeded).then(|| GOAL.to_owned()),
        outcome: (status == RunStatus::Succeeded).then_some(Outcome::Success),
        message: message.clone(),
        failure: failure.clone(),
        duration_ms,
        steps,
        actions: tally.actions,
        // The answer is what the run read: `runs show` has it, and so has a batch's table.
        outputs: answer.iter().map(|a| ("answer".to_owned(), Value::from(a.as_str()))).collect(),
    })?;
    drop(book);
    drop(handle);
    let run_dir = request.runs_dir.join(&run_id);
    export(&store, &run_id, &run_dir, Images::AsStored).map_err(|e| RunError::environment("export", e.to_string()))?;
    Ok(AgentSummary {
        run_id,
        status,
        answer,
        message,
        failure,
        steps,
        actions: tally.actions,
        llm_calls: tally.model.calls,
        llm_tokens: tally.model.tokens,
        llm_cost: tally.model.cost,
        duration_ms,
        run_dir,
    })
}

/// A step done, as the model's history and the progress line tell it.
struct Line {
    text: String,
    failed: bool,
}

/// Performs `action` on the page of `step` and records it.
async fn act(
    driver: &mut ChromeDriver,
    book: &mut Book<'_>,
    params: &Params,
    step: u32,
    index: usize,
    action: &Action,
) -> Result<Line, RunError> {
    let (detail, alternatives, error) = perform(driver, action, params).await;
    book.act(step, index, action, detail.clone(), alternatives, error.clone())?;
    let what = format!("{} {}", action.kind(), detail.unwrap_or_default());
    Ok(match error {
        Some(e) => Line { text: format!("{what} — failed: {e}"), failed: true },
        None => Line { text: format!("{what} — done"), failed: false },
    })
}

/// Puts the stuck run in the review queue and waits for the answer; the inner `Err` says
/// why there is none (the review timed out, the queue is unavailable).
async fn ask_person(
    reviewer: &StoreReviewer,
    book: &mut Book<'_>,
    question: EscalationRequest,
) -> Result<Result<Resolution, ReviewError>, RunError> {
    let (step, reason) = (question.step, question.reason.clone());
    let review_id = match reviewer.open(question).await {
        Ok(id) => id,
        Err(e) => return Ok(Err(e)),
    };
    book.event(&Event::ReviewRequested { review_id, step, state: None, reason })?;
    match reviewer.wait(review_id).await {
        Ok(resolution) => {
            book.event(&Event::ReviewResolved { review_id, resolution: resolution.clone() })?;
            Ok(Ok(resolution))
        }
        Err(e) => Ok(Err(e)),
    }
}

/// The page and the progress so far (what was done, and the model's notes), as the model's
/// question.
fn ask(
    workflow: &Workflow,
    step: u32,
    obs: Observation,
    (history, notes): (&[String], &[String]),
    turn: u32,
    max: u32,
) -> EscalationRequest {
    let notes = match notes.is_empty() {
        true => String::new(),
        false => format!(" Your notes: {}.", notes.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join("; ")),
    };
    // The latest steps, each in a line's worth, within what the prompt keeps of it.
    let mut recent: Vec<String> = Vec::new();
    let mut room = HISTORY_CHARS.saturating_sub(notes.chars().count());
    for h in history.iter().rev().take(HISTORY) {
        let h: String = h.chars().take(160).collect();
        if h.chars().count() + 2 > room {
            break;
        }
        room -= h.chars().count() + 2;
        recent.insert(0, h);
    }
    EscalationRequest {
        workflow: workflow.name.clone(),
        step,
        state: None,
        failure: Failure::NoState {
            seconds: 0.0,
            url: obs.url.clone(),
            title: obs.title.clone(),
            closest: Vec::new(),
            silent: false,
        },
        reason: format!(
            "this is step {turn} of at most {max} towards the goal.{notes} Done so far: {}",
            recent.join("; ")
        ),
        tried: Vec::new(),
        action: None,
        observation: Some(obs),
        states: Vec::new(),
        suggested_checks: Vec::new(),
        unresolved: Vec::new(),
    }
}

/// Performs a checked step with its parameters filled in: (detail, alternatives, error).
async fn perform(
    driver: &mut ChromeDriver,
    action: &Action,
    params: &Params,
) -> (Option<String>, Vec<statewright_workflow::Target>, Option<String>) {
    if let Action::Wait { seconds } = action {
        tokio::time::sleep(Duration::from_secs_f64(seconds.clamp(0.0, MAX_WAIT))).await;
        return (Some(format!("{seconds} s")), Vec::new(), None);
    }
    let bound = bind(action, params);
    match driver.perform(&bound, PATIENCE).await {
        Ok(outcome) => (outcome.detail.map(|d| params.redact(&d)), outcome.alternatives, None),
        Err(e) => (None, Vec::new(), Some(params.redact_message(&e.to_string()))),
    }
}

/// `action` with `{{name}}` filled in everywhere (its text, its target, its address).
fn bind(action: &Action, params: &Params) -> Action {
    fn fill(v: &mut Value, params: &Params) {
        match v {
            Value::String(s) => *s = params.render(s),
            Value::Array(items) => items.iter_mut().for_each(|i| fill(i, params)),
            Value::Object(map) => map.values_mut().for_each(|i| fill(i, params)),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(action).unwrap_or(Value::Null);
    fill(&mut v, params);
    serde_json::from_value(v).unwrap_or_else(|_| action.clone())
}

#[derive(Default)]
struct Tally {
    actions: u32,
    model: statewright_engine::ModelUse,
}
