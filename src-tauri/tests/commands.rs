//! The shell on Tauri's mock runtime: commands answer over IPC, and errors reach the window
//! as `{code, message}` (the UI branches on `code`).

mod common;

use common::{invoke, invoke_from};
use serde_json::json;
use statewright_app::AppState;
use tauri::Manager;

#[test]
fn commands_answer_over_ipc_and_errors_carry_a_code() {
    let home = tempfile::tempdir().expect("temp dir");
    // The real context: the app's own ACL (only the main window's capability) applies.
    let (app, webview) = common::app(home.path());

    let created = invoke(&webview, "create_workflow", json!({"name": "Login flow"})).expect("create");
    assert_eq!(created["id"], "login-flow.json");
    let listed = invoke(&webview, "list_workflows", json!({})).expect("list");
    assert_eq!(listed.as_array().map(Vec::len), Some(1));

    let error = invoke(&webview, "open_workflow", json!({"id": "../secrets.json"})).expect_err("outside the folder");
    assert_eq!(error["code"], "not_found", "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("secrets.json")), "{error}");

    let error = invoke(&webview, "create_workflow", json!({"name": "Login flow"})).expect_err("twice");
    assert_eq!(error["code"], "exists", "{error}");

    // Delete to the trash, and back; a hostile id reaches nothing.
    let error = invoke(&webview, "delete_workflow", json!({"id": "../runs/x.json"})).expect_err("outside the folder");
    assert_eq!(error["code"], "not_found", "{error}");
    let trashed = invoke(&webview, "delete_workflow", json!({"id": "login-flow.json"})).expect("delete");
    assert_eq!(trashed["original"], "login-flow.json", "{trashed}");
    assert_eq!(invoke(&webview, "list_workflows", json!({})).expect("list"), json!([]));
    let trash = invoke(&webview, "list_trash", json!({})).expect("list the trash");
    assert_eq!(trash, json!([trashed]));
    let restored =
        invoke(&webview, "restore_workflow", json!({"trash_id": trashed["id"], "name": null})).expect("restore");
    assert_eq!(restored["id"], "login-flow.json");
    let error = invoke(&webview, "restore_workflow", json!({"trash_id": trashed["id"]})).expect_err("restored once");
    assert_eq!(error["code"], "not_found", "{error}");

    let runs = invoke(&webview, "list_runs", json!({"filter": {}})).expect("no runs yet is an empty list");
    assert_eq!(runs, json!([]));
    // Saving healed locators is allowed to the window, and a run that does not exist is said so.
    let error =
        invoke(&webview, "save_healed_locators", json!({"run_id": "nope", "write": false})).expect_err("no such run");
    assert_eq!(error["code"], "not_found", "{error}");
    let error = invoke(&webview, "cancel_run", json!({"run_id": "nope"})).expect_err("no such run");
    assert_eq!(error["code"], "not_found", "{error}");
    // A run stopped from the window is recorded as stopped there (its message says so).
    let live = statewright_engine::Cancel::new();
    app.state::<AppState>().live_runs.lock().unwrap().insert("run-1".into(), live.clone());
    invoke(&webview, "cancel_run", json!({"run_id": "run-1"})).expect("a live run is cancelled");
    assert_eq!(live.message(), "cancelled: stopped in the app");
}

#[test]
fn a_page_from_elsewhere_may_call_nothing() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, webview) = common::app(home.path());
    let denied = invoke_from(&webview, "https://example.com", "list_workflows", json!({}));
    assert!(denied.is_err(), "a remote page must not reach the app's commands: {denied:?}");
}
