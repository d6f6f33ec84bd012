//! The review queue the window polls, from a real run store holding months of reviews: every
//! open review and the latest closed ones, without their pages, and how many are closed in
//! all; an old review's page comes from `show_review` when a person opens it.

mod common;

use common::{app, invoke};
use serde_json::{Value, json};
use statewright_engine::{EscalationRequest, Failure, Observation, Resolution};
use statewright_store::{NewRun, RunHandle, Store};

const CLOSED: i64 = 300;

/// A review's request on a page of 400 elements (some 50 KB of JSON).
fn request(step: u32) -> EscalationRequest {
    let elements: Vec<Value> = (0..400)
        .map(|i| {
            json!({"id": format!("e{i}"), "tag": "a", "role": "link", "name": format!("Product number {i}"),
                        "text": "", "rect": {"x": 0, "y": i, "width": 10, "height": 10}, "selector": format!("#p{i}")})
        })
        .collect();
    EscalationRequest {
        workflow: "catalogue".into(),
        step,
        state: Some("Cart".into()),
        failure: Failure::Action { state: "Cart".into(), index: 0, action: "click".into(), error: "not found".into() },
        reason: "in state `Cart`, action 0 (click) failed: not found".into(),
        tried: vec![],
        action: None,
        observation: Some(Observation {
            url: format!("http://shop.test/cart/{step}"),
            title: format!("Cart {step}"),
            text: "a product, its price and a button to buy it. ".repeat(200),
            elements: Value::Array(elements),
            screenshot: None,
            tabs: Vec::new(),
        }),
        states: vec!["Cart".into()],
        suggested_checks: Vec::new(),
        unresolved: vec![],
    }
}

/// `CLOSED` closed reviews (every tenth resolved, the others cancelled), then two open ones;
/// the run handles keep the runs live.
fn record_reviews(store: &Store) -> Vec<RunHandle> {
    let parameters = json!({});
    let new_run = |id| NewRun {
        id,
        workflow_name: "catalogue",
        workflow_json: r#"{"version":1,"name":"catalogue","states":[]}"#,
        parameters: &parameters,
        browser: "headless Chromium",
        workflow_path: None,
    };
    let old = store.start_run(&new_run("months-ago")).expect("a run");
    for step in 1..=CLOSED as u32 {
        let id = store.open_review("months-ago", &request(step)).expect("a review");
        if step % 10 == 0 {
            store.resolve_review(id, &Resolution::Skip, None).expect("resolved");
        }
    }
    store.cancel_reviews("months-ago").expect("the rest cancelled");
    let waiting = store.start_run(&new_run("waiting")).expect("a run");
    for step in 1..=2 {
        store.open_review("waiting", &request(step)).expect("a review");
    }
    vec![old, waiting]
}

fn ids(list: &Value) -> Vec<i64> {
    list["reviews"].as_array().expect("reviews").iter().map(|r| r["id"].as_i64().expect("an id")).collect()
}

#[test]
fn the_queue_is_the_open_reviews_and_the_latest_closed_ones_and_an_old_one_opens_in_full() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    let store = Store::open(&Store::default_path(&home.path().join("runs"))).expect("the run store");
    let _runs = record_reviews(&store);

    let list = invoke(&window, "list_reviews", json!({})).expect("the queue");
    assert_eq!(list["closed"], CLOSED, "the window can say older ones exist");
    let newest_closed = (CLOSED - 49..=CLOSED).rev();
    assert_eq!(ids(&list), [CLOSED + 2, CLOSED + 1].into_iter().chain(newest_closed).collect::<Vec<_>>());
    let first = &list["reviews"][0];
    assert_eq!(
        (&first["status"], &first["run_id"], &first["failure"]["kind"]),
        (&json!("open"), &json!("waiting"), &json!("action"))
    );
    let text = list.to_string();
    assert!(!text.contains("Product number") && !text.contains("\"elements\""), "no page in the queue");
    assert!(text.len() < 64 * 1024, "52 reviews in {} bytes (every review in full was 18 MB)", text.len());

    // More when asked for (a person's *Show more*), still never the pages.
    let more = invoke(&window, "list_reviews", json!({"limit": 100})).expect("the queue");
    assert_eq!(ids(&more).len(), 102);
    assert_eq!(*ids(&more).last().expect("the oldest shown"), CLOSED - 99);
    let error = invoke(&window, "list_reviews", json!({"limit": -1})).expect_err("not a count");
    assert!(error.as_str().is_some_and(|m| m.starts_with("invalid args")), "{error}");

    // The oldest review, out of the list, opens with everything it had.
    let old = invoke(&window, "show_review", json!({"id": 1})).expect("an old review");
    assert_eq!((&old["status"], &old["url"]), (&json!("cancelled"), &json!("http://shop.test/cart/1")));
    assert_eq!(old["elements"].as_array().map(Vec::len), Some(400));
    let resolved = invoke(&window, "show_review", json!({"id": 10})).expect("a resolved review");
    assert_eq!((&resolved["status"], &resolved["resolution"]), (&json!("resolved"), &json!({"kind": "skip"})));
}
