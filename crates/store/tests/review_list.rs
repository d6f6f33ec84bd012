//! The review queue as a list stays small however many reviews the store holds: every open
//! review, the latest closed ones, how many are closed in all, and none of their pages.

use serde_json::{Value, json};
use statewright_engine::{EscalationRequest, Failure, Observation, Resolution};
use statewright_store::{NewRun, Store};

/// A review's request with a page of 300 elements (some 30 KB of JSON).
fn request(step: u32) -> EscalationRequest {
    let elements: Vec<Value> = (0..300)
        .map(|i| {
            json!({"id": format!("e{i}"), "tag": "a", "role": "link", "name": format!("Product number {i}"),
                        "text": "", "rect": {"x": 0, "y": i, "width": 10, "height": 10}, "selector": format!("#p{i}")})
        })
        .collect();
    EscalationRequest {
        workflow: "shop".into(),
        step,
        state: Some("Cart".into()),
        failure: Failure::Action { state: "Cart".into(), index: 1, action: "click".into(), error: "not found".into() },
        reason: "in state `Cart`, action 1 (click) failed: not found".into(),
        tried: vec![],
        action: None,
        observation: Some(Observation {
            url: "http://shop.test/cart".into(),
            title: "Cart".into(),
            text: "a product, its price and a button to buy it. ".repeat(100),
            elements: Value::Array(elements),
            screenshot: None,
            tabs: Vec::new(),
        }),
        states: vec!["Cart".into()],
        suggested_checks: Vec::new(),
        unresolved: vec![],
    }
}

fn new_run(id: &str) -> NewRun<'_> {
    static PARAMETERS: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| json!({}));
    NewRun {
        id,
        workflow_name: "shop",
        workflow_json: "{}",
        parameters: &PARAMETERS,
        browser: "test",
        workflow_path: Some("/tmp/shop.json"),
    }
}

#[test]
fn the_list_is_every_open_review_and_the_latest_closed_ones_without_their_pages() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&Store::default_path(dir.path())).unwrap();
    // A run that has waited for a person since before all the others.
    let _first = store.start_run(&new_run("first")).unwrap();
    let first = store.open_review("first", &request(1)).unwrap();
    // 300 closed reviews of one run: every tenth resolved by a person, the others cancelled.
    let _old = store.start_run(&new_run("old")).unwrap();
    for step in 1..=300 {
        let id = store.open_review("old", &request(step)).unwrap();
        if step % 10 == 0 {
            store.resolve_review(id, &Resolution::Skip, None).unwrap();
        }
    }
    store.cancel_reviews("old").unwrap();
    // Then three more runs waiting.
    let _waiting = store.start_run(&new_run("waiting")).unwrap();
    let waiting: Vec<i64> = (1..=3).map(|step| store.open_review("waiting", &request(step)).unwrap()).collect();
    let open = [waiting[2], waiting[1], waiting[0], first];

    let list = store.review_list(50).unwrap();
    assert_eq!(list.closed, 300, "the list says how many are closed in all");
    let ids: Vec<i64> = list.reviews.iter().map(|r| r.id).collect();
    let newest_closed: Vec<i64> = (252..=301).rev().collect();
    assert_eq!(ids, [open.to_vec(), newest_closed].concat(), "the open ones first, each newest first");
    assert!(list.reviews[..4].iter().all(|r| r.status == "open"));
    let resolved = list.reviews.iter().find(|r| r.id == 301).unwrap();
    assert_eq!((resolved.status.as_str(), resolved.resolution.clone()), ("resolved", Some(Resolution::Skip)));
    assert_eq!(list.reviews.iter().find(|r| r.id == 300).unwrap().status, "cancelled");
    // What the list line shows comes without the page it was about.
    assert_eq!(resolved.failure, request(1).failure);
    assert_eq!((resolved.workflow.as_str(), resolved.workflow_path.as_deref()), ("shop", Some("/tmp/shop.json")));
    let text = serde_json::to_string(&list).unwrap();
    assert!(!text.contains("Product number") && !text.contains("elements"), "no page in the list");
    assert!(text.len() < 54 * 1024, "54 reviews in {} bytes", text.len());

    // Fewer asked for, fewer closed ones; the open ones all the same.
    let few = store.review_list(2).unwrap();
    assert_eq!(few.reviews.iter().map(|r| r.id).collect::<Vec<_>>(), [open.to_vec(), vec![301, 300]].concat());
    let none = store.review_list(0).unwrap();
    assert_eq!((none.reviews.len(), none.closed), (4, 300));
    // The full review is still there for the one shown.
    let old = store.review(2).unwrap();
    assert_eq!(old.request.observation.map(|o| o.elements.as_array().map(Vec::len)), Some(Some(300)));
}

#[test]
fn a_run_counts_and_lists_its_own_reviews_however_old() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&Store::default_path(dir.path())).unwrap();
    let _run = store.start_run(&new_run("helped")).unwrap();
    for step in [2, 5] {
        let id = store.open_review("helped", &request(step)).unwrap();
        store.resolve_review(id, &Resolution::Retry, None).unwrap();
    }
    let _other = store.start_run(&new_run("other")).unwrap();
    for step in 1..=60 {
        store.open_review("other", &request(step)).unwrap();
    }
    store.cancel_reviews("other").unwrap();
    assert!(store.review_list(50).unwrap().reviews.iter().all(|r| r.run_id == "other"), "out of the list");

    let runs = store.list_runs(&Default::default()).unwrap();
    let count = |id: &str| runs.iter().find(|r| r.id == id).map(|r| r.reviews);
    assert_eq!((count("helped"), count("other")), (Some(2), Some(60)));
    let detail = store.run_detail("helped", false).unwrap();
    let seen: Vec<_> = detail.reviews.iter().map(|r| (r.id, r.step, r.resolution.clone())).collect();
    assert_eq!(seen, [(1, Some(2), Some(Resolution::Retry)), (2, Some(5), Some(Resolution::Retry))]);
    assert!(!serde_json::to_string(&detail.reviews).unwrap().contains("Product number"));
}
