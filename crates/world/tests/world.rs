//! The composite driver against a real X display: the bundled desktop workflow, and a
//! workflow that mixes a headed Chromium page with desktop input. Both skip, saying so,
//! without a display; `scripts/test` runs them under `scripts/with-display`.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::json;
use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_demo::{Site, SiteServer};
use statewright_desktop::X11Desktop;
use statewright_desktop::testing::{SCREEN, have, test_desktop};
use statewright_engine::{Cancel, Event, RunReport, RunStatus};
use statewright_workflow::{Params, Workflow, load_file, load_str};
use statewright_world::{Needs, World, needs};

async fn desktop() -> Option<X11Desktop> {
    test_desktop("the world driver").await
}

fn root() -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("../..")
}

async fn run(workflow: &Workflow, params: &Params, world: &mut World) -> (RunReport, Vec<Event>) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let report = statewright_engine::run(workflow, params, world, tx, Cancel::new(), Default::default()).await;
    let mut events = Vec::new();
    while let Ok(event) = rx.try_recv() {
        events.push(event);
    }
    (report, events)
}

fn assert_succeeded(report: &RunReport, events: &[Event]) {
    assert_eq!(
        report.status,
        RunStatus::Succeeded,
        "run should succeed, ended with: {}\nevents: {:#?}",
        report.message,
        events.iter().filter(|e| !matches!(e, Event::Observed { .. })).collect::<Vec<_>>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_desktop_demo_workflow_succeeds() {
    let Some(desktop) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let _screen = SCREEN.lock().await;
    let workflow = load_file(&root().join("workflows/desktop-xterm.json")).expect("the demo workflow loads").workflow;
    assert_eq!(needs(&workflow), Needs { browser: false, desktop: true });
    let params = Params::bind(&workflow, &[("title".into(), "Statewright world test".into())]).expect("bind");
    let mut world = World::new(None, Some(desktop));
    world.kill_launched = true;
    let (report, events) = run(&workflow, &params, &mut world).await;
    assert_succeeded(&report, &events);
    assert_eq!(report.end_state.as_deref(), Some("Title changed"));
    // Desktop-only runs record the desktop: the windows and the focused window's title.
    let observed: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Observed { observation, .. } => Some(observation),
            _ => None,
        })
        .collect();
    assert!(!observed.is_empty(), "steps are recorded");
    assert!(observed.iter().any(|o| o.title.contains("Statewright")), "{observed:#?}");
    assert!(observed.iter().all(|o| o.elements.is_array()));
    world.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn desktop_typing_into_a_headed_chromium_is_recognised_on_the_page() {
    let Some(desktop) = desktop().await else { return };
    let _screen = SCREEN.lock().await;
    let server = SiteServer::start(
        Site::Dir(
            PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("tests/fixtures/mixed"),
        ),
        0,
    )
    .await
    .expect("serve the fixture");
    let window = json!({"title": "Statewright mixed test", "match": "contains"});
    let source = json!({
        "version": 1,
        "name": "mixed",
        "parameters": {"site": {"default": "http://unset"}},
        "config": {"no_states_timeout": 15, "state_timeout": 10, "action_timeout": 10},
        "states": [
            {"name": "Typed", "checks": [{"type": "text", "match": "contains", "value": "Typed from the desktop"}],
             "terminal": {"outcome": "success"}},
            {"name": "Page shown",
             "checks": [
                {"type": "element", "selector": "#box"},
                {"type": "window_exists", "title": "Statewright mixed test", "match": "contains"}],
             "actions": [
                {"type": "click", "target": {"css": "#box"}},
                {"type": "focus_window", "window": window},
                {"type": "type_text", "text": "hello desktop"}]},
            {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
             "actions": [{"type": "navigate_to", "url": "{{site}}/index.html"}]}
        ]
    });
    let workflow = match load_str(&source.to_string(), "mixed.json", "mixed") {
        Ok(loaded) => loaded.workflow,
        Err(d) => panic!("the mixed workflow is invalid:\n{d}"),
    };
    assert_eq!(needs(&workflow), Needs { browser: true, desktop: true });
    let params = Params::bind(&workflow, &[("site".into(), server.url())]).expect("bind");
    let options = LaunchOptions { headed: true, ..LaunchOptions::default() };
    let chrome = ChromeDriver::start(&options).await.expect("Chromium launches (is /usr/bin/chromium installed?)");
    let mut world = World::new(Some(chrome), Some(desktop));
    let (report, events) =
        tokio::time::timeout(Duration::from_secs(60), run(&workflow, &params, &mut world)).await.expect("the run ends");
    world.close().await;
    assert_succeeded(&report, &events);
    let entered: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::StateEntered { state, .. } => Some(state.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(entered, ["Start", "Page shown", "Typed"]);
}
