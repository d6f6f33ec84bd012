//! `upload` against real headless Chromium: a shown file field, a hidden one behind the
//! button that opens its chooser, and the mistakes a workflow can make.

mod common;

use std::time::Duration;

use common::{run, workflow};
use serde_json::json;
use statewright_engine::{Driver, DriverError, Event};
use statewright_workflow::Action;

/// Files to give, with what the page will say it received.
fn files(dir: &std::path::Path) -> [String; 3] {
    ["cv.txt", "a.txt", "b.txt"].map(|name| {
        let path = dir.join(name);
        std::fs::write(&path, format!("{name} says hello\nsecond line")).unwrap();
        path.display().to_string()
    })
}

/// Applies on `page` with the three files: the résumé by its field's label, the photos by
/// the button that opens the hidden field's chooser.
async fn apply(page: &str, [cv, a, b]: [String; 3]) -> common::Finished {
    let finished = run(workflow(
        page,
        json!([
            {"name": "done", "checks": [{"type": "text", "match": "contains", "value": "photos: b.txt"}],
             "terminal": {"outcome": "success", "message": "received"}},
            {"name": "form", "checks": [{"type": "text", "value": "Apply"}], "actions": [
                {"type": "upload", "target": {"text": "Résumé"}, "files": [cv]},
                {"type": "upload", "target": {"role": "button", "name": "Add photos"}, "files": [a, b]}
            ]}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    finished
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_reach_a_shown_field_and_a_hidden_one_behind_its_button() {
    let dir = tempfile::tempdir().unwrap();
    let finished = apply("upload.html", files(dir.path())).await;
    let text = finished
        .events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Observed { observation, .. } => Some(observation.text.clone()),
            _ => None,
        })
        .unwrap_or_default();
    for said in ["resume: cv.txt (29 bytes): cv.txt says hello", "photos: a.txt (28 bytes)", "photos: b.txt"] {
        assert!(text.contains(said), "{said:?} in {text}");
    }
    // Each says what it gave, and to what.
    let done = finished.details();
    assert!(done.iter().any(|d| d.contains("input#resume") && d.ends_with("← cv.txt")), "{done:?}");
    assert!(done.iter().any(|d| d.contains("Add photos") && d.ends_with("← a.txt, b.txt")), "{done:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_reach_a_form_in_a_frame_from_another_site() {
    let dir = tempfile::tempdir().unwrap();
    // The same form, embedded from another origin: what it says is read in its frame.
    let done = apply("frames-apply.html", files(dir.path())).await.details();
    // Given to the field, and through the chooser the form's button opens, in its frame.
    let framed = |what: &str, given: &str| {
        done.iter().any(|d| d.contains(what) && d.contains("in the frame") && d.ends_with(given))
    };
    assert!(framed("input#resume", "← cv.txt") && framed("Add photos", "← a.txt, b.txt"), "{done:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_file_two_files_for_one_and_no_chooser_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let [cv, a, _] = files(dir.path());
    let (mut driver, _url, _held) = common::drive("upload.html").await;
    let upload = |target: serde_json::Value, files: &[&str]| -> Action {
        serde_json::from_value(json!({"type": "upload", "target": target, "files": files})).unwrap()
    };
    let patience = Duration::from_secs(2);
    let missing = dir.path().join("nowhere.pdf").display().to_string();
    let err = driver.perform(&upload(json!({"css": "#resume"}), &[&missing]), patience).await.unwrap_err();
    assert!(matches!(&err, DriverError::Invalid(m) if m.contains("nowhere.pdf")), "{err:?}");
    let err = driver.perform(&upload(json!({"css": "#resume"}), &[&cv, &a]), patience).await.unwrap_err();
    assert!(matches!(&err, DriverError::Invalid(m) if m.contains("takes one file")), "{err:?}");
    // A button that opens nothing may yet (the page may be slow): the engine tries again.
    let err = driver.perform(&upload(json!({"css": "#nothing"}), &[&cv]), patience).await.unwrap_err();
    assert!(matches!(&err, DriverError::NotActionable { reason, .. } if reason == "no_file_chooser"), "{err:?}");
    // None of that left the page or the driver stuck: the field still takes its file.
    driver.perform(&upload(json!({"css": "#resume"}), &[&cv]), patience).await.expect("the field takes the file");
    // A drop zone that opens no chooser takes both files dropped on it, as from the desktop.
    let dropped = driver.perform(&upload(json!({"text": "Drop invoices here"}), &[&cv, &a]), patience).await;
    assert!(dropped.is_ok(), "{dropped:?}");
    let received = common::text_of(&mut driver, "#received").await;
    assert!(received.contains("invoices: cv.txt (29 bytes): cv.txt says hello"), "{received}");
    assert!(received.contains("invoices: a.txt (28 bytes)"), "{received}");
    let still_here = common::text_of(&mut driver, "h1").await;
    assert_eq!(still_here, "Apply", "the tab did not open a dropped file");
    driver.close().await;
}
