//! `drag` against real headless Chromium: cards between a board's columns (HTML drag and
//! drop), a slider's handle that follows the pointer it captured, and a file carried by the
//! mouse to a folder; and a drag with nowhere to go, which lets go.

mod common;

use std::time::Duration;

use common::drive;
use serde_json::{Value, json};
use statewright_chrome::ChromeDriver;
use statewright_engine::{Driver, DriverError, DriverResult, Outcome};
use statewright_workflow::{Action, Position, Target};

fn target(value: Value) -> Target {
    serde_json::from_value(value).expect("a target")
}

async fn drag(
    driver: &mut ChromeDriver,
    from: Value,
    to: Value,
    at: Option<Position>,
    patience: u64,
) -> DriverResult<Outcome> {
    let action = Action::Drag { target: target(from), to: target(to), position: at };
    driver.perform(&action, Duration::from_secs(patience)).await
}

/// The page's own account of its board, slider and folder.
async fn status(driver: &mut ChromeDriver) -> String {
    common::text_of(driver, "#status").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cards_a_slider_and_a_file_are_carried_where_they_are_let_go() {
    let (mut driver, _, _held) = drive("drag.html").await;
    let moved = drag(&mut driver, json!({"text": "Call Ada"}), json!({"css": "#done"}), None, 3).await;
    let moved = moved.expect("the card moves");
    let detail = moved.detail.unwrap_or_default();
    assert!(detail.starts_with("div#call → div#done"), "{detail}");
    // The drop zone's other locators are kept apart from the card's, to heal a renamed one.
    let done_column = target(json!({"css": "div[aria-label=\"Done\"]"}));
    assert!(moved.to_alternatives.contains(&done_column), "{:?}", moved.to_alternatives);
    assert!(!moved.alternatives.contains(&done_column), "{:?}", moved.alternatives);
    let low = Some(Position { x: 0.5, y: 0.9 });
    drag(&mut driver, json!({"css": "#write"}), json!({"css": "#done"}), low, 3).await.expect("the other card moves");
    let said = status(&mut driver).await;
    assert!(said.starts_with("todo= done=call,write volume=0"), "both cards in Done, in order: {said}");

    let three_quarters = Some(Position { x: 0.75, y: 0.5 });
    drag(&mut driver, json!({"role": "slider", "name": "Volume"}), json!({"css": "#track"}), three_quarters, 3)
        .await
        .expect("the handle moves");
    let said = status(&mut driver).await;
    let volume: i64 = said.split("volume=").nth(1).and_then(|v| v.split(' ').next()?.parse().ok()).unwrap_or(-1);
    assert!((74..=76).contains(&volume), "the handle let go three quarters along: {said}");

    // Nowhere to go: the file is let go where it was lifted, and the page is not left mid-drag.
    let nowhere = drag(&mut driver, json!({"text": "notes.txt"}), json!({"css": "#nowhere"}), None, 1).await;
    assert!(
        matches!(&nowhere, Err(DriverError::NotActionable { reason, .. }) if reason == "to_not_found"),
        "{nowhere:?}"
    );
    assert!(status(&mut driver).await.ends_with("archived=false"));
    drag(&mut driver, json!({"text": "notes.txt"}), json!({"css": "#folder"}), None, 3).await.expect("the file moves");
    assert!(status(&mut driver).await.ends_with("archived=true"));
    driver.close().await;
}
