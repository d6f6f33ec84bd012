//! Pages that look for the tool driving them and try to fool it (fixtures/hostile.html): a
//! bot check reads the window's globals, and a page that finds the tool's library can put a
//! forgery in its place. The library lives in a world of its own, in the page and in a frame
//! from another site alike, so the page finds nothing and the run sees the page as it is.
//! A page whose text is not even well-formed (fixtures/half-emoji.html) is read all the same.

mod common;

use common::{run, workflow};
use serde_json::json;
use statewright_engine::Event;

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

/// A lone UTF-16 surrogate (an emoji a page's `slice` cut in half) in the title, the text and
/// a button's name: Chromium sends it as an escape JSON parsers refuse, so every read of the
/// page was dropped unanswered and the run, on a page that answered at once, failed after
/// 50 s as one that never answered. What the run reads has the half as U+FFFD.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_with_an_emoji_cut_in_half_is_read_and_acted_on() {
    let finished = run(workflow(
        "half-emoji.html",
        json!([
            {"name": "done", "checks": [{"type": "text", "value": "Done"}],
             "terminal": {"outcome": "success", "message": "clicked"}},
            {"name": "shown", "checks": [{"type": "title", "match": "contains", "value": "Great news"}],
             "actions": [
                {"type": "extract", "target": {"css": "#said"}, "into": "said"},
                {"type": "save_html", "filename": "page.html"},
                {"type": "click", "target": {"css": "#go"}}
             ]}
        ]),
        json!({"no_states_timeout": 5}),
    ))
    .await;
    finished.assert_succeeded();
    assert_eq!(finished.report.outputs["said"], json!("Great news \u{FFFD}"));
    let saved = finished.events.iter().find_map(|e| match e {
        Event::ActionFinished { artifact: Some(file), .. } => Some(String::from_utf8_lossy(&file.bytes).into_owned()),
        _ => None,
    });
    assert!(saved.is_some_and(|html| html.contains("<title>Great news \u{FFFD}</title>")), "the page is saved");
    assert!(finished.details().iter().any(|d| d.contains("Go Great news \u{FFFD}") || d.contains("button#go")));
}
