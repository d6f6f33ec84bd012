//! JavaScript dialogs in a run: an `alert` while the page loads, `confirm` and `prompt`
//! on a click, and a leave-page confirmation; each stalls the page until it is answered.

mod common;

use common::{run, workflow};
use serde_json::json;

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
