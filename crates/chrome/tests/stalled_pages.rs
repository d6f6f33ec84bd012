//! Pages that stop answering. JavaScript dialogs (an `alert` while the page loads,
//! `confirm` and `prompt` on a click, a leave-page confirmation) stall the page until they
//! are answered, and a run answers them; a script that never yields stalls it for good,
//! and the run fails in bounded time, saying why.

mod common;

use common::{run, workflow};
use serde_json::json;
use statewright_engine::RunStatus;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_dialog_is_answered_and_the_run_goes_on() {
    let finished = run(workflow(
        "dialogs.html",
        json!([
            {"name": "left", "checks": [{"type": "url", "match": "pattern", "value": "/page2\\.html$"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            // OK to the confirmation, the prompt's own default as its answer.
            {"name": "answered", "checks": [{"type": "text", "value": "confirm true, prompt Ada"}],
             "actions": [{"type": "click", "target": {"css": "#leave"}}]},
            {"name": "loaded", "checks": [{"type": "text", "match": "contains", "value": "Dialogs"}],
             "actions": [{"type": "click", "target": {"css": "#ask"}}]}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.states_entered(), ["open", "loaded", "answered", "left"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_script_never_yields_fails_the_run_saying_so() {
    let finished = run(workflow(
        "busy.html",
        json!([
            {"name": "never", "checks": [{"type": "text", "value": "Done working"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            {"name": "busy", "checks": [{"type": "text", "match": "contains", "value": "Busy"}],
             "actions": [{"type": "click", "target": {"css": "#spin"}}]}
        ]),
        json!({}),
    ))
    .await;
    assert_eq!(finished.report.status, RunStatus::Failed, "{}", finished.report.message);
    assert!(
        finished.report.message.contains("the page did not take the input"),
        "the reason names the stalled page (not the CDP client's 30 s \"Request timed out\"): {}",
        finished.report.message
    );
}
