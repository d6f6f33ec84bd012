//! Extraction on real Chromium and the bundled demo site: every kind of read on the order
//! history (`workflows/demo-orders.json`), a variable used by a later state's action and
//! asserted by its checks, the outputs in the run's JSON and in the store; the purchase
//! reading its order number; a CliGent `extract(...)` call; a failed read that fails the
//! run with a clear reason; and a `lines` read keeping the line breaks a page shows.

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

/// What `read: lines` gives on real Chromium: the line breaks of a `<br>`, of paragraphs
/// (a blank line between them), of a `<pre>` (its spaces too) and of table rows (a tab
/// between cells), the same inside a shadow tree, without hidden text; a `(?m)` pattern
/// picking one line; the value typed into a textarea as it was read and asserted by a
/// `variable` check, and into a one-line field without sending its form. The default
/// `text` read of the same element stays one line.
#[test]
fn a_lines_read_keeps_the_line_breaks_the_page_shows() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let page = dir.path().join("letter.html");
    let shadow = r#"<h2><slot name=\"title\"></slot></h2>\n  <p>Shadow\n    paragraph</p><div>one<br>two</div>"#;
    let html = format!(
        r#"<!doctype html><title>Letter</title>
<address id="address">Ada   Lovelace<br>
  1 Main&nbsp;St<br>Springfield<span hidden> (old)</span><span style="display:none"> (moved)</span><span style="visibility:hidden"> (hidden)</span></address>
<div id="notes">
  <p>First   paragraph,
     over two source lines.</p>
  <p>Second one.</p>
</div>
<pre id="code">fn main() {{
    println!("hi");
}}
</pre>
<table id="prices"><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>$3</td></tr></table>
<shadow-card id="card"><span slot="title">Slotted   title</span></shadow-card>
<form onsubmit="document.body.dataset.sent = 'yes'; return false"><textarea id="reply"></textarea><input id="one"></form>
<script>customElements.define('shadow-card', class extends HTMLElement {{ constructor() {{ super();
  this.attachShadow({{mode: 'open'}}).innerHTML = "{shadow}"; }} }});</script>"#
    );
    std::fs::write(&page, html).unwrap();
    let url = format!("file://{}", page.display());
    let lines =
        |css: &str, into: &str| json!({"type": "extract", "target": {"css": css}, "into": into, "read": "lines"});
    let workflow = json!({
        "version": 1,
        "name": "letter",
        "config": {"action_timeout": 5, "max_retries": 0},
        "states": [
            {"name": "Answered",
             "checks": [{"type": "variable", "name": "reply", "value": "{{address}}"},
                        {"type": "variable", "name": "address", "match": "pattern", "value": "(?m)^Springfield$"}],
             "terminal": {"outcome": "success", "message": "read"}},
            {"name": "Letter",
             "checks": [{"type": "element", "selector": "#reply"}],
             "actions": [
                lines("#address", "address"),
                {"type": "extract", "target": {"css": "#address"}, "into": "address_line"},
                {"type": "extract", "target": {"css": "#address"}, "into": "street", "read": "lines", "pattern": "(?m)^(\\d+ .+)$"},
                lines("#notes", "notes"),
                lines("#code", "code"),
                lines("#prices", "prices"),
                lines("#card", "card"),
                {"type": "type", "target": {"css": "#reply"}, "text": "{{address}}"},
                {"type": "extract", "target": {"css": "#reply"}, "into": "reply", "read": "value"},
                {"type": "type", "target": {"css": "#one"}, "text": "{{address}}"},
                {"type": "extract", "target": {"css": "#one"}, "into": "one_line", "read": "value"},
                {"type": "extract", "target": {"css": "body[data-sent]"}, "into": "sent", "read": "count"}
             ],
             "next": ["Answered"]},
            {"name": "Start",
             "checks": [{"type": "url", "value": "about:blank"}],
             "actions": [{"type": "navigate_to", "url": url}],
             "next": ["Letter"]}
        ]
    });
    let file = dir.path().join("letter.json");
    std::fs::write(&file, workflow.to_string()).unwrap();
    let args = ["run", file.to_str().unwrap(), "--no-review", "--json"];
    let (code, summary, stderr) = run_json(&args, &runs);
    assert_eq!(code, Some(0), "{stderr}");
    let out = &summary["outputs"];
    assert_eq!(out["address"], "Ada Lovelace\n1 Main St\nSpringfield", "{out:#}");
    assert_eq!(out["address_line"], "Ada Lovelace 1 Main St Springfield", "text stays one line");
    assert_eq!(out["street"], "1 Main St");
    assert_eq!(out["notes"], "First paragraph, over two source lines.\n\nSecond one.");
    assert_eq!(out["code"], "fn main() {\n    println!(\"hi\");\n}");
    assert_eq!(out["prices"], "Item\tPrice\nTea\t$3");
    assert_eq!(out["card"], "Slotted title\n\nShadow paragraph\n\none\ntwo", "as innerText lays out the same markup");
    assert_eq!(out["reply"], out["address"], "typed into the textarea line by line");
    // A one-line field takes a line break as a space, as Chromium does, and no Enter is
    // pressed: the form is not sent.
    assert_eq!(out["one_line"], out["address_line"]);
    assert_eq!(out["sent"], 0);
}
