//! Pages that look for the tool driving them and try to fool it (fixtures/hostile.html): a
//! bot check reads the window's globals, and a page that finds the tool's library can put a
//! forgery in its place. The library lives in a world of its own, in the page and in a frame
//! from another site alike, so the page finds nothing and the run sees the page as it is.

mod common;

use common::{run, workflow};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_and_its_frame_neither_find_the_tool_nor_fool_it() {
    let finished = run(workflow(
        "hostile.html",
        json!([
            {"name": "done",
             "checks": [{"type": "text", "value": "Page continued"}, {"type": "text", "value": "Frame continued"}],
             "terminal": {"outcome": "success", "message": "both continued"}},
            // What each document's bot check concluded, as the run reads it.
            {"name": "account",
             "checks": [{"type": "text", "value": "Page: no automation found"},
                        {"type": "text", "value": "Frame: no automation found"}],
             "actions": [
                {"type": "click", "target": {"role": "button", "name": "Continue"}},
                {"type": "click", "target": {"role": "button", "name": "Continue in the frame"}}
             ]}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    let details = finished.details();
    assert!(
        details.iter().any(|d| d.contains("Continue in the frame") && d.contains("in the frame from")),
        "{details:?}"
    );
}
