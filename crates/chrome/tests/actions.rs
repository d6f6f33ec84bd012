//! Every check and action against real headless Chromium. Each test is a small workflow
//! whose terminal state's checks prove the action had its effect on the page.

mod common;

use common::{run, workflow};
use serde_json::json;
use statewright_engine::{Driver, Event, Failure, RunStatus};
use statewright_workflow::Action;

const PATIENCE: std::time::Duration = std::time::Duration::from_secs(3);

fn done(checks: serde_json::Value) -> serde_json::Value {
    json!({"name": "done", "checks": checks, "terminal": {"outcome": "success", "message": "ok"}})
}

fn act(actions: serde_json::Value) -> serde_json::Value {
    json!({"name": "act", "checks": [{"type": "url", "match": "pattern", "value": "/playground\\.html$"}], "actions": actions})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicks_and_every_check_kind() {
    let finished = run(workflow(
        "playground.html",
        json!([
            done(json!([
                {"type": "text", "value": "Clicked 2"},
                {"type": "text", "value": "Hello world !"},
                {"type": "text", "match": "contains", "value": "Hello world"},
                {"type": "element", "selector": "#greeting"},
                {"type": "element", "by": "xpath", "selector": "//button[@id='counter']"},
                {"type": "element", "selector": "#overlay.open", "negate": true},
                {"type": "title", "value": "Playground"},
                {"type": "title", "match": "contains", "value": "ground"},
                {"type": "url", "match": "prefix", "value": "{{site}}/play"},
                {"type": "url", "match": "pattern", "value": "playground\\.html$"}
            ])),
            act(json!([
                {"type": "click", "target": {"css": "#counter"}},
                {"type": "click", "target": {"xpath": "//button[starts-with(., 'Clicked')]"}}
            ]))
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "act", "done"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_right_and_positioned_clicks_and_hover() {
    let finished = run(workflow(
        "playground.html",
        json!([
            done(json!([{"type": "text", "value": "Hovered"}])),
            json!({"name": "context done", "checks": [{"type": "text", "value": "Context menu"}],
                   "actions": [{"type": "hover", "target": {"text": "Hover me"}}]}),
            json!({"name": "double done", "checks": [{"type": "text", "value": "Double clicked"}],
                   "actions": [{"type": "click", "target": {"css": "#context"}, "button": "right", "position": {"x": 0.1, "y": 0.9}}]}),
            act(json!([{"type": "click", "target": {"css": "#double"}, "count": 2}]))
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "act", "double done", "context done", "done"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_clearing_and_keys() {
    let finished = run(workflow(
        "playground.html",
        json!([
            // A character no US key produces is pressed as a key that inserts itself.
            done(json!([{"type": "text", "value": "Shortcut"}, {"type": "text", "value": "Name is Graceé"},
                        {"type": "text", "match": "contains", "value": "down:é"}])),
            json!({"name": "submitted", "checks": [{"type": "text", "value": "Submitted Ada"}, {"type": "text", "match": "contains", "value": "down:a"}],
                   "actions": [
                       {"type": "type", "target": {"css": "#name"}, "text": "Grace", "clear": true},
                       {"type": "press_key", "key": "é"},
                       {"type": "press_key", "key": "Control+K"}
                   ]}),
            act(json!([
                {"type": "type", "target": {"role": "textbox", "name": "Your name"}, "text": "Ada"},
                {"type": "press_key", "key": "enter"}
            ]))
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selecting_options_by_label_and_value() {
    let finished = run(workflow(
        "playground.html",
        json!([
            done(json!([{"type": "text", "value": "Color b"}])),
            json!({"name": "green", "checks": [{"type": "text", "value": "Color g"}],
                   "actions": [{"type": "select_option", "target": {"css": "#color"}, "value": "b"}]}),
            act(json!([{"type": "select_option", "target": {"role": "combobox"}, "label": "Green"}]))
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scrolling_the_page_an_element_and_to_a_target() {
    let finished = run(workflow(
        "playground.html",
        json!([
            done(json!([{"type": "text", "value": "Far clicked"}])),
            json!({"name": "list scrolled", "checks": [{"type": "text", "value": "List scrolled"}],
            "actions": [
                {"type": "scroll", "direction": "up", "amount": 5000},
                {"type": "scroll_to", "target": {"css": "#far"}},
                {"type": "click", "target": {"text": "Far away"}}
            ]}),
            json!({"name": "page scrolled", "checks": [{"type": "title", "value": "Playground (scrolled)"}],
                   "actions": [{"type": "scroll", "direction": "down", "amount": 400, "target": {"css": "#list"}}]}),
            act(json!([{"type": "scroll", "direction": "down", "amount": 1500}]))
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_wait_for_late_disabled_and_moving_targets() {
    let finished = run(workflow(
        "playground.html",
        json!([
            done(json!([{"type": "text", "value": "Caught the mover"}])),
            json!({"name": "late", "checks": [{"type": "text", "value": "Late clicked"}],
                   "actions": [{"type": "click", "target": {"css": "#mover"}}]}),
            json!({"name": "enabled", "checks": [{"type": "text", "value": "Enabled and clicked"}],
            "actions": [
                {"type": "wait_for", "target": {"css": "#late"}},
                {"type": "click", "target": {"role": "button", "name": "Late button"}}
            ]}),
            act(json!([{"type": "click", "target": {"css": "#enable-later"}}]))
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    let attempts: u32 = finished
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ActionFinished { state, attempts, .. } if state == "act" => Some(*attempts),
            _ => None,
        })
        .sum();
    assert!(attempts >= 1, "the disabled button's click is recorded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_obscured_target_fails_with_what_covers_it() {
    let finished = run(workflow(
        "playground.html",
        json!([
            done(json!([{"type": "text", "value": "Covered clicked"}])),
            act(json!([
                {"type": "click", "target": {"css": "#open-overlay"}},
                {"type": "click", "target": {"css": "#covered"}}
            ]))
        ]),
        json!({"action_timeout": 1}),
    ))
    .await;
    assert_eq!(finished.report.status, RunStatus::Failed);
    match &finished.report.failure {
        Some(Failure::Action { index: 1, error, .. }) => {
            assert!(error.contains("overlay"), "the error names the covering element: {error}")
        }
        other => panic!("expected the covered click to fail, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_popup_state_preempts_a_blocked_action() {
    let finished = run(workflow(
        "playground.html",
        json!([
            done(json!([{"type": "text", "value": "Covered clicked"}])),
            json!({"name": "overlay", "checks": [{"type": "element", "selector": "#overlay.open"}],
                   "actions": [{"type": "click", "target": {"text": "Close overlay"}}]}),
            act(json!([
                {"type": "click", "target": {"css": "#arm-overlay"}},
                {"type": "wait", "seconds": 0.5},
                {"type": "click", "target": {"css": "#covered"}}
            ]))
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "act", "overlay", "act", "done"]);
    assert!(
        finished.events.iter().any(|e| matches!(e, Event::ActionPreempted { by_state, .. } if by_state == "overlay"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn navigation_by_link_and_accessible_names() {
    let finished = run(workflow(
        "playground.html",
        json!([
            json!({"name": "page two", "checks": [{"type": "title", "value": "Second page"}, {"type": "text", "value": "You made it."}],
                   "terminal": {"outcome": "success", "message": "navigated"}}),
            json!({"name": "closed", "checks": [{"type": "text", "value": "Dialog closed"}],
                   "actions": [{"type": "click", "target": {"role": "link", "name": "Go to page two"}}]}),
            act(json!([{"type": "click", "target": {"role": "button", "name": "Close dialog"}}]))
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.report.end_state.as_deref(), Some("page two"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn artifacts_and_observations_are_recorded() {
    let finished = run(workflow(
        "playground.html",
        json!([json!({
            "name": "act", "checks": [{"type": "element", "selector": "#counter"}],
            "actions": [
                {"type": "save_html", "filename": "page.html"},
                {"type": "screenshot", "filename": "shot.png"},
                {"type": "wait", "seconds": 0.2}
            ],
            "terminal": {"outcome": "success"}
        })]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    let artifacts: Vec<_> = finished
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ActionFinished { artifact: Some(a), .. } => Some(a.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(artifacts.len(), 2);
    assert!(String::from_utf8_lossy(&artifacts[0].bytes).contains("<h1>Playground</h1>"));
    assert!(artifacts[1].bytes.starts_with(b"\x89PNG"), "screenshots are PNG");
    let observed = finished
        .events
        .iter()
        .find_map(|e| match e {
            Event::Observed { step: 2, observation } => Some(observation.clone()),
            _ => None,
        })
        .expect("step 2 is observed");
    let shot = observed.screenshot.as_ref().expect("step 2 has a screenshot");
    assert!(shot.starts_with(b"\xFF\xD8\xFF"), "step screenshots are JPEG");
    assert!(shot.len() < 100_000, "and small: {} bytes", shot.len());
    assert!(observed.text.contains("Hello world"), "visible text is recorded: {}", observed.text);
    let elements = observed.elements.as_array().expect("elements list");
    assert!(
        elements.iter().any(|e| e["selector"] == "#counter" && e["id"].as_str().is_some_and(|id| id.starts_with('e')))
    );
    assert!(matches!(finished.events.last(), Some(Event::RunFinished { .. })), "RunFinished comes last");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_whose_actions_change_nothing_is_not_verified_after_its_retries() {
    let finished = run(workflow(
        "playground.html",
        json!([
            done(json!([{"type": "text", "value": "Never shown"}])),
            act(json!([{"type": "click", "target": {"css": "#counter"}}]))
        ]),
        json!({"verify_timeout": 1, "max_retries": 1}),
    ))
    .await;
    assert_eq!(finished.report.status, RunStatus::Failed);
    assert!(
        matches!(&finished.report.failure, Some(Failure::NotVerified { state, attempts: 2, .. }) if state == "act"),
        "{:?}",
        finished.report.failure
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attaching_to_a_running_browser_over_cdp() {
    let mut chromium = common::Chromium::start();
    let ws = chromium.ws.clone();
    // Its WebSocket URL, and its HTTP address, whose /json/version names the WebSocket.
    let port = ws.split_once("127.0.0.1:").and_then(|(_, rest)| rest.split('/').next()).expect("a port");
    let by_ws = common::run_attached(&ws, common::click_once()).await;
    let by_http = common::run_attached(&format!("http://127.0.0.1:{port}"), common::click_once()).await;
    let still_running = chromium.process.try_wait().unwrap().is_none();
    by_ws.assert_succeeded();
    by_http.assert_succeeded();
    assert!(still_running, "a browser we attached to is left running");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_target_whose_centre_is_covered_is_clicked_where_it_shows() {
    let on_covered = |actions: serde_json::Value| {
        json!([
            done(json!([{"type": "text", "match": "contains", "value": "Wide clicked"}])),
            json!({"name": "act", "checks": [{"type": "url", "match": "pattern", "value": "/covered\\.html$"}],
                   "actions": actions})
        ])
    };
    let finished =
        run(workflow("covered.html", on_covered(json!([{"type": "click", "target": {"css": "#wide"}}])), json!({})))
            .await;
    finished.assert_succeeded();
    let detail = finished
        .events
        .iter()
        .find_map(|e| match e {
            Event::ActionFinished { state, detail, .. } if state == "act" => detail.clone(),
            _ => None,
        })
        .expect("the click reports where it landed");
    assert!(detail.contains("centre is covered by") && detail.contains("banner"), "{detail}");

    // An explicit position is kept as given: there, the banner takes the click.
    let positioned = json!([{"type": "click", "target": {"css": "#wide"}, "position": {"x": 0.5, "y": 0.5}}]);
    let finished = run(workflow("covered.html", on_covered(positioned), json!({"action_timeout": 1}))).await;
    assert_eq!(finished.report.status, RunStatus::Failed);
    assert!(
        matches!(&finished.report.failure, Some(Failure::Action { error, .. }) if error.contains("obscured by")),
        "{:?}",
        finished.report.failure
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn targets_and_checks_inside_a_same_origin_frame() {
    // A login form in an iframe below the fold, with the frame's button below the frame's own
    // fold: the field is typed into, the button clicked with input events, and the result
    // inside the frame recognised by every kind of check.
    let finished = run(workflow(
        "framed.html",
        json!([
            done(json!([
                {"type": "text", "value": "Welcome, Ada"},
                {"type": "text", "match": "contains", "value": "Welcome, Ada"},
                {"type": "element", "selector": "#welcome"},
                {"type": "element", "by": "xpath", "selector": "//p[@id='welcome']"}
            ])),
            json!({"name": "sign in", "checks": [{"type": "url", "match": "pattern", "value": "/framed\\.html$"}],
            "actions": [
                {"type": "type", "target": {"css": "#name"}, "text": "Ada"},
                {"type": "click", "target": {"role": "button", "name": "Sign in"}}
            ]})
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "sign in", "done"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_icon_that_changes_under_the_arriving_pointer_is_pressed_where_it_then_shows() {
    // Icons whose hover image loads on the pointer's first arrival have no width meanwhile:
    // pressed in the same instant as the move, the post around them took the click.
    let (mut driver, _, _held) = common::drive("hover-swap.html").await;
    let action = |json: serde_json::Value| serde_json::from_value::<Action>(json).expect("an action");
    let clicked = driver.perform(&action(json!({"type": "click", "target": {"css": "#like"}})), PATIENCE).await;
    assert!(clicked.is_ok(), "{clicked:?}");
    assert_eq!(common::text_of(&mut driver, "#status").await, "liked");

    let star = action(json!({"type": "check", "target": {"role": "checkbox", "name": "Important"}}));
    let checked = driver.perform(&star, PATIENCE).await;
    assert!(checked.is_ok(), "{checked:?}");
    assert_eq!(common::text_of(&mut driver, "#status").await, "starred");
    driver.close().await;
}
