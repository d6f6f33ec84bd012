//! A tab an action opened, which the run went on in, in a stored run: persisted by the run
//! and shown by `runs show` at its step, as text and as JSON.

mod common;

use common::{Site, statewright, text, write_workflow};
use serde_json::{Value, json};

#[test]
fn runs_show_says_which_action_opened_a_tab_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let site = Site::dir(&common::repo().join("crates/chrome/tests/fixtures"));
    // A popup opened blank, then sent to its page: the run goes on in it.
    let workflow = write_workflow(
        dir.path(),
        &json!({
            "version": 1,
            "name": "popup",
            "parameters": {"site": {"default": "http://unset"}},
            "states": [
                {"name": "done", "checks": [{"type": "url", "match": "pattern", "value": "/page2\\.html$"}],
                 "terminal": {"outcome": "success"}},
                {"name": "opener", "checks": [{"type": "url", "match": "pattern", "value": "/tabs-blank\\.html$"}],
                 "actions": [{"type": "click", "target": {"css": "#later"}}]},
                {"name": "open", "checks": [{"type": "url", "value": "about:blank"}],
                 "actions": [{"type": "navigate_to", "url": "{{site}}/tabs-blank.html"}]}
            ]
        }),
    );
    let site_param = format!("site={}", site.1);
    let out = statewright(&["run", workflow.to_str().unwrap(), "-p", &site_param, "--json"], &runs);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(summary["status"], "succeeded", "{}", text(&out.stderr));
    let run_id = summary["run_id"].as_str().unwrap();

    let shown: Value = serde_json::from_slice(&statewright(&["runs", "show", run_id, "--json"], &runs).stdout).unwrap();
    let opener = shown["steps"].as_array().unwrap().iter().find(|s| s["state"] == "opener").unwrap()["step"].clone();
    let url = format!("{}/page2.html", site.1);
    assert_eq!(shown["tabs_opened"], json!([{"step": opener, "state": "opener", "index": 0, "url": url}]), "{shown:#}");
    let listing = text(&statewright(&["runs", "show", run_id], &runs).stdout);
    let said = format!("⧉ action 1 opened a tab; the run went on in it, at {url}");
    assert!(listing.contains(&said), "{listing}");
}
