//! `download` against real headless Chromium: a file the server sends, one the page makes,
//! and a click that downloads nothing.

mod common;

use std::time::Duration;

use common::{run, workflow};
use serde_json::json;
use statewright_engine::{Driver, DriverError, Event};
use statewright_workflow::Action;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn downloaded_files_are_the_actions_artifacts_under_the_names_the_workflow_gives() {
    let finished = run(workflow(
        "download.html",
        json!([
            {"name": "reports", "checks": [{"type": "text", "value": "Reports"}], "actions": [
                {"type": "download", "target": {"text": "Download the report"}, "filename": "march.csv"},
                {"type": "download", "target": {"role": "button", "name": "Export"}, "filename": "export.csv"},
                {"type": "navigate_to", "url": "about:blank#done"}
            ]},
            {"name": "done", "checks": [{"type": "url", "value": "about:blank#done"}],
             "terminal": {"outcome": "success", "message": "downloaded"}}
        ]),
        json!({}),
    ))
    .await;
    finished.assert_succeeded();
    let kept: Vec<(String, String, String)> = finished
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ActionFinished { artifact: Some(a), detail, .. } => Some((
                a.filename.clone(),
                String::from_utf8_lossy(&a.bytes).into_owned(),
                detail.clone().unwrap_or_default(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert_eq!((kept[0].0.as_str(), kept[0].1.as_str()), ("march.csv", "month,sales\nMarch,42\n"));
    assert!(kept[0].2.contains("\"report.csv\""), "the site's name is reported: {}", kept[0].2);
    assert_eq!((kept[1].0.as_str(), kept[1].1.as_str()), ("export.csv", "name,total\nAda,3\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_that_downloads_nothing_says_so() {
    let (mut driver, _url, _held) = common::drive("download.html").await;
    let action: Action =
        serde_json::from_value(json!({"type": "download", "target": {"css": "#nothing"}, "filename": "x.csv"}))
            .unwrap();
    let err = driver.perform(&action, Duration::from_secs(2)).await.unwrap_err();
    assert!(
        matches!(&err, DriverError::NotActionable { reason, message } if reason == "no_download" && message.contains("Nothing to download")),
        "{err:?}"
    );
    // The browser still downloads for the next one.
    let action: Action =
        serde_json::from_value(json!({"type": "download", "target": {"css": "#export"}, "filename": "e.csv"})).unwrap();
    let outcome = driver.perform(&action, Duration::from_secs(2)).await.expect("the export downloads");
    assert_eq!(outcome.artifact.map(|a| a.bytes.len()), Some(17));
}
