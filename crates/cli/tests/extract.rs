//! Extraction on real Chromium and the bundled demo site: every kind of read on the order
//! history (`workflows/demo-orders.json`), a variable used by a later state's action and
//! asserted by its checks, the outputs in the run's JSON and in the store; the purchase
//! reading its order number; a CliGent `extract(...)` call; and a failed read that fails the
//! run with a clear reason.

mod common;

use common::{statewright, text};
use serde_json::{Value, json};

fn run_json(args: &[&str], runs: &std::path::Path) -> (Option<i32>, Value, String) {
    let out = statewright(args, runs);
    let stderr = text(&out.stderr);
    let summary = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    (out.status.code(), summary, stderr)
}

#[test]
fn the_order_history_is_read_in_every_way_and_the_newest_order_opened_through_its_link() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let args = ["run", "workflows/demo-orders.json", "--demo-site", "-p", "seed=7", "--no-review", "--json"];
    let (code, summary, stderr) = run_json(&args, &runs);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(summary["end_state"], "Newest order opened", "{stderr}");
    let out = &summary["outputs"];

    let table = out["orders"].as_array().expect("the table is a JSON array");
    assert!(table.len() >= 3, "{out:#}");
    for row in table {
        let keys: Vec<&str> = row.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["Order", "Placed", "Items", "Total", "Status"], "rows are keyed by the header");
    }
    let numbers: Vec<&Value> = table.iter().map(|row| &row["Order"]).collect();
    assert_eq!(out["order_numbers"].as_array().unwrap().iter().collect::<Vec<_>>(), numbers, "the list is the column");
    assert_eq!(out["shown_rows"], json!(table.len()), "count is a number");
    assert_eq!(out["order_count"], json!(table.len().to_string()), "the pattern's group of the summary line");
    let spent: f64 = out["spent"].as_str().unwrap().replace(',', "").parse().unwrap();
    let total: f64 =
        table.iter().map(|r| r["Total"].as_str().unwrap()[1..].replace(',', "").parse::<f64>().unwrap()).sum();
    assert!((spent - total).abs() < 0.005, "the summary's sum is the table's: {spent} vs {total}");
    assert_eq!(out["status_filter"], "all", "a select's value");
    assert_eq!(out["newest_order"], table[0]["Order"]);
    let link = out["newest_order_link"].as_str().unwrap();
    assert_eq!(link, format!("orders.html?order={}", table[0]["Order"].as_str().unwrap()), "an attribute as written");
    assert!(stderr.contains("navigate_to http://127.0.0.1:") && stderr.contains(link), "{stderr}");

    // The store has the same outputs, and each extract's value on its action.
    let id = summary["run_id"].as_str().unwrap();
    let shown = statewright(&["runs", "show", id, "--json"], &runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(&detail["run"]["outputs"], out);
    let values: Vec<&Value> =
        detail["actions"].as_array().unwrap().iter().filter(|a| a["kind"] == "extract").map(|a| &a["value"]).collect();
    assert_eq!(values.len(), 8);
    assert_eq!(values[4], &out["orders"]);
    let human = text(&statewright(&["runs", "show", id], &runs).stdout);
    assert!(human.contains(&format!("output newest_order_link = \"{link}\"")), "{human}");
    // The password typed on the way is in no output or record.
    assert!(!String::from_utf8_lossy(&std::fs::read(runs.join("statewright.db")).unwrap()).contains("correct horse"));
}

#[test]
fn the_purchase_reads_its_order_number_and_total_into_its_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let args = ["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=5", "--no-review", "--json"];
    let (code, summary, stderr) = run_json(&args, &runs);
    assert_eq!(code, Some(0), "{stderr}");
    let number = summary["outputs"]["order_number"].as_str().unwrap();
    assert!(number.starts_with("NW-") && number[3..].chars().all(|c| c.is_ascii_digit()), "{number}");
    // Two of the kettle at $39.00.
    assert_eq!(summary["outputs"]["total"], "78.00", "{:#}", summary["outputs"]);
}

#[test]
fn a_cligent_extract_call_reads_and_a_failed_read_fails_the_run_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let page = dir.path().join("page.html");
    std::fs::write(&page, r#"<title>Shelf</title><h1 id="h">Shelf of 12 items</h1><a id="more">more</a>"#).unwrap();
    let url = format!("file://{}", page.display());
    // CliGent's format: states as a list, actions as call strings.
    let cligent = json!({
        "name": "shelf",
        "config": {"action_timeout": 1, "max_retries": 0},
        "states": [
            {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}], "actions": [format!("navigate_to(url='{url}')")]},
            {"name": "Shelf", "checks": [{"type": "element", "value": "#h"}],
             "actions": ["extract(by='css selector', selector='#h', into='items', pattern=r'(\\d+) items')",
                         "extract(by='css selector', selector='#more', into='link', read='attribute', attribute='href')"],
             "end_state": true}
        ]
    });
    let file = dir.path().join("shelf.json");
    std::fs::write(&file, cligent.to_string()).unwrap();
    let args = ["run", file.to_str().unwrap(), "--no-review", "--json"];
    let (code, summary, stderr) = run_json(&args, &runs);
    assert_eq!(code, Some(1), "the link has no href: {stderr}");
    assert_eq!(summary["outputs"], json!({"items": "12"}), "what was read before the failure is kept");
    let message = summary["message"].as_str().unwrap();
    assert!(message.contains("extract") && message.contains("has no attribute \"href\""), "{message}");
}
