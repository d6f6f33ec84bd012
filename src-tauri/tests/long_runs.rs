//! A long run in the viewer, from a real run store: the run opens with every step but
//! without their pages (thousands of page texts and element snapshots are tens of
//! megabytes over IPC), and the shown step's page is asked for on its own. Runs and reviews
//! that are not there are `not_found`, whatever id the window sends.

mod common;

use std::sync::Arc;

use common::{app, invoke};
use serde_json::{Value, json};
use statewright_engine::{CheckResult, Event, Observation};
use statewright_store::{NewRun, Store};

const STEPS: u32 = 1500;

/// A stored run of `STEPS` steps, each with a page of some 20 KB of text and 200 elements.
fn record_long_run(runs: &std::path::Path) {
    let store = Store::open(&Store::default_path(runs)).expect("the run store");
    let mut run = store
        .start_run(&NewRun {
            id: "long-run",
            workflow_name: "catalogue",
            workflow_json: r#"{"version":1,"name":"catalogue","states":[]}"#,
            parameters: &json!({}),
            browser: "headless Chromium",
            workflow_path: None,
        })
        .expect("a run");
    let elements: Vec<Value> = (0..200)
        .map(|i| json!({"id": format!("e{i}"), "role": "link", "name": format!("Product number {i}")}))
        .collect();
    let events: Vec<Event> = (1..=STEPS)
        .flat_map(|step| {
            let entered = Event::StateEntered {
                step,
                state: format!("Page {}", step % 20),
                state_index: (step % 20) as usize,
                visit: step / 20 + 1,
                elapsed_ms: u64::from(step) * 100,
                url: format!("http://shop.test/page/{step}"),
                checks: vec![CheckResult { check: "url starts with \"http://shop.test\"".into(), passed: true }],
                also_matched: vec![],
            };
            let observed = Event::Observed {
                step,
                observation: Observation {
                    url: format!("http://shop.test/page/{step}"),
                    title: format!("Catalogue page {step}"),
                    text: format!("page {step}: {}", "a product, its price and a button to buy it. ".repeat(450)),
                    elements: Value::Array(elements.clone()),
                    screenshot: Some(Arc::new(vec![0x89, b'P', b'N', b'G', (step % 251) as u8])),
                    tabs: Vec::new(),
                },
            };
            [entered, observed]
        })
        .collect();
    store.record_all(&mut run, &events).expect("recorded");
}

#[test]
fn a_long_run_opens_with_every_step_and_each_page_comes_on_its_own() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    record_long_run(&home.path().join("runs"));

    let detail = invoke(&window, "open_run", json!({"run_id": "long-run"})).expect("the run opens");
    let steps = detail["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), STEPS as usize, "every step is there");
    assert!(steps.iter().all(|s| s.get("page").is_none()), "no step carries its page");
    assert_eq!(steps[1233]["page_title"], "Catalogue page 1234", "the title stays for the step list");
    let size = detail.to_string().len();
    assert!(size < 1 << 20, "a long run's detail is small enough for the window: {size} bytes");

    let page = invoke(&window, "open_step_page", json!({"run_id": "long-run", "step": 1234})).expect("one page");
    assert!(page["text"].as_str().is_some_and(|t| t.starts_with("page 1234: ")), "its own text");
    assert_eq!(page["elements"].as_array().map(Vec::len), Some(200), "and its elements");
    let none = invoke(&window, "open_step_page", json!({"run_id": "long-run", "step": STEPS + 1})).expect("no step");
    assert_eq!(none, Value::Null);
}

#[test]
fn runs_and_reviews_that_are_not_there_are_not_found_whatever_the_id() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    for id in ["nope", "", "../statewright.db", "%", "' OR 1=1 --"] {
        let error = invoke(&window, "open_run", json!({"run_id": id})).expect_err("no such run");
        assert_eq!(error["code"], "not_found", "{id:?}: {error}");
        let error = invoke(&window, "open_step_page", json!({"run_id": id, "step": 1})).expect_err("no such run");
        assert_eq!(error["code"], "not_found", "{id:?}: {error}");
    }
    for id in [json!(-1), json!(0), json!(i64::MAX)] {
        let error = invoke(&window, "show_review", json!({"id": id})).expect_err("no such review");
        assert_eq!(error["code"], "not_found", "{id}: {error}");
    }
    // Numbers a command cannot take are refused before it runs, never a panic.
    for (cmd, args) in [
        ("show_review", json!({"id": 1e30})),
        ("show_review", json!({"id": u64::MAX})),
        ("open_step_page", json!({"run_id": "nope", "step": -1})),
        ("open_step_page", json!({"run_id": "nope", "step": "1"})),
    ] {
        let error = invoke(&window, cmd, args.clone()).expect_err("invalid arguments");
        assert!(error.as_str().is_some_and(|m| m.starts_with("invalid args")), "{cmd} {args}: {error}");
    }
}
