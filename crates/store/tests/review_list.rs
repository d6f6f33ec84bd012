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

#[test]
fn a_review_is_listed_from_its_own_columns_without_reading_its_request() {
    let dir = tempfile::tempdir().unwrap();
    let db = Store::default_path(dir.path());
    let store = Store::open(&db).unwrap();
    let _run = store.start_run(&new_run("waiting")).unwrap();
    let id = store.open_review("waiting", &request(4)).unwrap();
    // The list must not parse the request: with it gone to garbage, the list is the same.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE review_items SET request = '{\"elements\": [' WHERE id = ?1", [id])
        .unwrap();
    let list = store.review_list(50).unwrap();
    let listed: Vec<_> = list.reviews.iter().map(|r| (r.id, r.failure.clone())).collect();
    assert_eq!(listed, [(id, request(4).failure)]);
    let detail = store.run_detail("waiting", false).unwrap();
    assert_eq!(detail.reviews.iter().map(|r| r.failure.clone()).collect::<Vec<_>>(), [request(4).failure]);
}

/// A runs folder's database as the previous build left it (schema 13), with `reviews`
/// (id, status, request JSON) of a finished run, and the ids' high mark at `high_mark`.
fn store_of_schema_13(dir: &std::path::Path, reviews: &[(i64, &str, &str)], high_mark: i64) -> std::path::PathBuf {
    let migrations = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/migrations");
    let mut files: Vec<_> = std::fs::read_dir(&migrations).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files.truncate(13);
    assert!(files[12].ends_with("0013_tabs_opened.sql"), "{files:?}");
    let db = Store::default_path(dir);
    let conn = rusqlite::Connection::open(&db).unwrap();
    for file in &files {
        conn.execute_batch(&std::fs::read_to_string(file).unwrap()).unwrap();
    }
    conn.execute_batch(&format!(
        "PRAGMA user_version = 13; PRAGMA application_id = {};
         INSERT INTO workflows (hash, name, json, first_seen_ms) VALUES ('h', 'shop', '{{}}', 1);
         INSERT INTO runs (id, workflow_hash, workflow, parameters, status, started_ms, workflow_path)
             VALUES ('old', 'h', 'shop', '{{}}', 'failed', 1, '/tmp/shop.json');",
        statewright_store::APPLICATION_ID
    ))
    .unwrap();
    let insert = "INSERT INTO review_items (id, run_id, step, state, kind, reason, request, status, created_ms,
                  resolved_ms, resolution) VALUES (?1, 'old', 4, 'Cart', 'action', 'it failed', ?2, ?3, 10, 20, ?4)";
    conn.execute(insert, rusqlite::params![high_mark, "{}", "cancelled", None::<String>]).unwrap();
    conn.execute("DELETE FROM review_items WHERE id = ?1", [high_mark]).unwrap();
    for (id, status, request) in reviews {
        let resolution = (*status == "resolved").then(|| serde_json::to_string(&Resolution::Skip).unwrap());
        conn.execute(insert, rusqlite::params![id, request, status, resolution]).unwrap();
    }
    db
}

#[test]
fn a_store_of_the_previous_schema_migrates_and_lists_the_same_failures() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (serde_json::to_string(&request(4)).unwrap(), serde_json::to_string(&request(5)).unwrap());
    let mut other = request(6);
    other.failure = Failure::Stuck { state: "Cart".into(), seconds: 2.5 };
    let other = serde_json::to_string(&other).unwrap();
    let db = store_of_schema_13(
        dir.path(),
        &[(2, "resolved", &first), (3, "cancelled", &second), (5, "cancelled", &other)],
        9,
    );

    let store = Store::open(&db).unwrap();
    let list = store.review_list(50).unwrap();
    let listed: Vec<_> = list.reviews.iter().map(|r| (r.id, r.failure.clone(), r.resolution.clone())).collect();
    assert_eq!(
        listed,
        [
            (5, Failure::Stuck { state: "Cart".into(), seconds: 2.5 }, None),
            (3, request(5).failure, None),
            (2, request(4).failure, Some(Resolution::Skip))
        ]
    );
    assert_eq!(list.closed, 3);
    // The review read whole is as it was.
    let whole = store.review(2).unwrap();
    assert_eq!(whole.summary.failure, request(4).failure);
    assert_eq!(serde_json::to_value(whole.request).unwrap(), serde_json::to_value(request(4)).unwrap());
    drop(store);

    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, statewright_store::SCHEMA_VERSION);
    let failure: String = conn.query_row("SELECT failure FROM review_items WHERE id = 5", [], |r| r.get(0)).unwrap();
    assert_eq!(
        serde_json::from_str::<Failure>(&failure).unwrap(),
        Failure::Stuck { state: "Cart".into(), seconds: 2.5 }
    );
    // A column after a large request is reached only through its overflow pages.
    let last: String = conn
        .query_row("SELECT name FROM pragma_table_info('review_items') ORDER BY cid DESC LIMIT 1", [], |r| r.get(0))
        .unwrap();
    assert_eq!(last, "request");
    drop(conn);

    // Ids go on from the old table's high mark, not from the highest id left.
    let store = Store::open(&db).unwrap();
    let _run = store.start_run(&new_run("new")).unwrap();
    assert_eq!(store.open_review("new", &request(1)).unwrap(), 10);
}

#[test]
fn a_request_that_is_not_json_does_not_stop_the_store_opening() {
    let dir = tempfile::tempdir().unwrap();
    let first = serde_json::to_string(&request(4)).unwrap();
    let db = store_of_schema_13(dir.path(), &[(1, "cancelled", &first), (2, "cancelled", "{\"failure\": ")], 2);
    let store = Store::open(&db).unwrap();
    let whole = serde_json::to_value(store.review(1).unwrap().request).unwrap();
    assert_eq!(whole, serde_json::to_value(request(4)).unwrap());
    assert!(store.review(2).is_err(), "an unreadable review is an error, not a panic");
    // The queue is still listed, the unreadable review in it saying so.
    let list = store.review_list(50).unwrap();
    let listed: Vec<_> = list.reviews.iter().map(|r| (r.id, r.failure.clone())).collect();
    assert_eq!(listed[1], (1, request(4).failure));
    assert!(matches!(&listed[0], (2, Failure::Review { error }) if error.contains("not JSON")), "{listed:?}");
    assert_eq!(store.run_reviews("old").unwrap().len(), 2);
}
