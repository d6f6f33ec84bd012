//! Runs small workflows against real headless Chromium and a loopback fixture site.
// Each test binary uses only some of these helpers.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::{Value, json};
use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_demo::{Site, SiteServer};
use statewright_engine::{Cancel, Event, RunReport, RunStatus};
use statewright_workflow::{Params, Workflow, load_str};
use tokio::sync::Semaphore;

/// Two browsers at a time: these machines have two cores, and timing-sensitive checks
/// (stability, late elements) should not starve.
fn browsers() -> &'static Semaphore {
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    SLOTS.get_or_init(|| Semaphore::new(2))
}

pub fn fixtures() -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("tests/fixtures")
}

/// What a test driving Chromium itself holds until it ends: the fixture site and its
/// browser slot.
pub struct Held(SiteServer, tokio::sync::SemaphorePermit<'static>);

/// Chromium on the fixture `page` (a file name, with a query if wanted), for tests that drive
/// it action by action: the driver (close it when done), the page's address, and what must
/// be held meanwhile.
pub async fn drive(page: &str) -> (ChromeDriver, String, Held) {
    let slot = browsers().acquire().await.expect("semaphore open");
    let server = SiteServer::start(Site::Dir(fixtures()), 0).await.expect("serve fixtures");
    let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
    let url = format!("{}/{page}", server.url());
    let open = statewright_workflow::Action::NavigateTo { url: url.clone() };
    let loaded = statewright_engine::Driver::perform(&mut driver, &open, std::time::Duration::from_secs(5)).await;
    loaded.expect("the page loads");
    (driver, url, Held(server, slot))
}

/// The text of the element `css` finds, as an `extract` reads it (a fixture's own account of
/// what was done to it).
pub async fn text_of(driver: &mut ChromeDriver, css: &str) -> String {
    let read = statewright_workflow::Action::Extract {
        target: serde_json::from_value(json!({ "css": css })).expect("a target"),
        into: "read".into(),
        read: Default::default(),
        attribute: None,
        pattern: None,
    };
    let outcome = statewright_engine::Driver::perform(driver, &read, std::time::Duration::from_secs(3)).await;
    outcome.expect("the element reads").value.and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// A headless Chromium of its own, started with a DevTools port, as a person or a grid
/// runs one for `--cdp-url`; killed on drop.
pub struct Chromium {
    pub process: std::process::Child,
    /// Its WebSocket URL, `ws://127.0.0.1:PORT/devtools/browser/…`.
    pub ws: String,
    _profile: tempfile::TempDir,
}

impl Chromium {
    pub fn start() -> Self {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};

        let profile = tempfile::tempdir().unwrap();
        let chromium = std::env::var("STATEWRIGHT_CHROME").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let mut process = Command::new(chromium)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
            .args([
                "--remote-debugging-port=0",
                &format!("--user-data-dir={}", profile.path().display()),
                "about:blank",
            ])
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chromium");
        let stderr = BufReader::new(process.stderr.take().unwrap());
        let ws = stderr
            .lines()
            .map_while(Result::ok)
            .find_map(|line| line.split_once("DevTools listening on ").map(|(_, url)| url.trim().to_owned()))
            .expect("chromium prints its DevTools address");
        Self { process, ws, _profile: profile }
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

pub struct Finished {
    pub report: RunReport,
    pub events: Vec<Event>,
}

impl Finished {
    pub fn assert_succeeded(&self) {
        assert_eq!(
            self.report.status,
            RunStatus::Succeeded,
            "run should succeed, ended with: {}\nevents: {:#?}",
            self.report.message,
            self.events.iter().filter(|e| !matches!(e, Event::Observed { .. })).collect::<Vec<_>>()
        );
    }

    /// What each action that worked says it did (`button#pay "Pay"`, `… ← cv.txt`).
    pub fn details(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::ActionFinished { detail: Some(detail), error: None, .. } => Some(detail.clone()),
                _ => None,
            })
            .collect()
    }

    pub fn states_entered(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::StateEntered { state, .. } => Some(state.clone()),
                _ => None,
            })
            .collect()
    }
}

/// A workflow that opens `page` of the fixture site, then runs `states` (which come first,
/// so they take priority over the opening state). `config` overrides knobs.
pub fn workflow(page: &str, states: Value, config: Value) -> Value {
    let mut all = states.as_array().cloned().unwrap_or_default();
    all.push(json!({
        "name": "open",
        "checks": [{"type": "url", "value": "about:blank"}],
        "actions": [{"type": "navigate_to", "url": format!("{{{{site}}}}/{page}")}]
    }));
    let mut config_obj = json!({"no_states_timeout": 8, "state_timeout": 8, "action_timeout": 5});
    if let (Some(base), Some(extra)) = (config_obj.as_object_mut(), config.as_object()) {
        base.extend(extra.clone());
    }
    json!({
        "version": 1,
        "name": "test",
        "parameters": {"site": {"default": "http://unset"}},
        "config": config_obj,
        "states": all,
    })
}

/// The playground page, whose counter is clicked once: the smallest run that shows a browser
/// reached and driven (the tests that attach in different ways share it).
pub fn click_once() -> Value {
    workflow(
        "playground.html",
        json!([
            {"name": "done", "checks": [{"type": "text", "value": "Clicked 1"}], "terminal": {"outcome": "success"}},
            {"name": "act", "checks": [{"type": "url", "match": "pattern", "value": "/playground\\.html$"}],
             "actions": [{"type": "click", "target": {"css": "#counter"}}]}
        ]),
        json!({}),
    )
}

/// Serves the fixtures, launches Chromium, runs the workflow, closes everything.
pub async fn run(workflow: Value) -> Finished {
    run_loaded(Site::Dir(fixtures()), &parse(&workflow), &[]).await
}

fn parse(workflow: &Value) -> Workflow {
    let text = serde_json::to_string_pretty(workflow).expect("workflow serialises");
    match load_str(&text, "test.json", "test") {
        Ok(loaded) => loaded.workflow,
        Err(d) => panic!("test workflow is invalid:\n{d}\n{text}"),
    }
}

/// Like `run`, but on a browser that is already running, reached at its DevTools address.
pub async fn run_attached(cdp_url: &str, workflow: Value) -> Finished {
    run_with(Site::Dir(fixtures()), &parse(&workflow), &[], Some(cdp_url.to_owned())).await
}

pub async fn run_loaded(site: Site, workflow: &Workflow, params: &[(&str, &str)]) -> Finished {
    run_with(site, workflow, params, None).await
}

async fn run_with(site: Site, workflow: &Workflow, params: &[(&str, &str)], cdp_url: Option<String>) -> Finished {
    let _slot = browsers().acquire().await.expect("semaphore open");
    let server = SiteServer::start(site, 0).await.expect("serve fixtures");
    let mut supplied: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    if workflow.parameters.contains_key("site") && !supplied.iter().any(|(k, _)| k == "site") {
        supplied.push(("site".into(), server.url()));
    }
    let params = Params::bind(workflow, &supplied).expect("parameters bind");
    let options = LaunchOptions {
        viewport: (workflow.config.viewport.width, workflow.config.viewport.height),
        cdp_url,
        ..LaunchOptions::default()
    };
    let mut driver = ChromeDriver::start(&options).await.expect("Chromium launches (is /usr/bin/chromium installed?)");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let report = statewright_engine::run(workflow, &params, &mut driver, tx, Cancel::new(), Default::default()).await;
    driver.close().await;
    let mut events = Vec::new();
    while let Ok(event) = rx.try_recv() {
        events.push(event);
    }
    Finished { report, events }
}

/// Like `run`, with the workflow's `site` another server's address (one the test serves
/// itself, say, for what a fixture file cannot do).
pub async fn run_on(site: &str, workflow: Value) -> Finished {
    run_loaded(Site::Dir(fixtures()), &parse(&workflow), &[("site", site)]).await
}
