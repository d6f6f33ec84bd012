//! What a page can make the terminal show, through the real binary on a loopback page: a
//! line break in a value cannot forge a line of the progress or of `runs show`, and a
//! bidirectional override cannot reorder what a person reads (Trojan Source); `--json`
//! keeps the values as they are.

mod common;

use common::{Site, statewright, text, write_workflow};
use serde_json::{Value, json};

const RLO: char = '\u{202e}';

#[test]
fn line_breaks_and_bidi_overrides_from_a_page_are_shown_escaped_and_json_keeps_them() {
    let dir = tempfile::tempdir().unwrap();
    let (pages, runs) = (dir.path().join("pages"), dir.path().join("runs"));
    std::fs::create_dir(&pages).unwrap();
    // The title is set by the page's script, the parameter has the same text as the page.
    let value = format!("Paid\n✓ run succeeded {RLO}fdp.exe");
    let page = format!(
        "<!doctype html><title>Invoice</title><script>document.title = 'Invoice {RLO}gnp.exe'</script>\
         <pre id=v>{value}</pre>"
    );
    std::fs::write(pages.join("invoice.html"), page).unwrap();
    let site = Site::dir(&pages);
    let workflow = write_workflow(
        dir.path(),
        &json!({"version": 1, "name": "invoice", "parameters": {"site": {}, "q": {}},
            "states": [
                {"name": "Shown", "checks": [{"type": "element", "selector": "#v"}],
                 "actions": [{"type": "extract", "target": {"css": "#v"}, "into": "out"}],
                 "terminal": {"outcome": "success", "message": "read {{q}}"}},
                {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
                 "actions": [{"type": "navigate_to", "url": "{{site}}/invoice.html"}], "next": ["Shown"]}]}),
    );
    let (site_param, q) = (format!("site={}", site.1), format!("q={value}"));
    let args = ["run", workflow.to_str().unwrap(), "-p", &site_param, "-p", &q, "--json"];
    let out = statewright(&args, &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let shown = |terminal: &str| {
        assert!(!terminal.contains(RLO), "an override reached the terminal raw: {terminal}");
        assert!(!terminal.lines().any(|l| l.starts_with("✓ run succeeded")), "a forged line: {terminal}");
    };
    shown(&stderr);
    // The message, with the parameter in it, on its one line. (The value read is the page's
    // text as a person sees it: the engine reads it without the line break or the override.)
    assert!(stderr.contains("succeeded at `Shown`: read Paid\\n✓ run succeeded \\u202efdp.exe in "), "{stderr}");
    // --json is data: valid JSON, the message in it as it was.
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["message"], format!("read {value}"), "{summary:#}");

    // The trace: its title and message lines escaped, one line each.
    let id = summary["run_id"].as_str().unwrap();
    let trace = statewright(&["runs", "show", id], &runs);
    let stdout = text(&trace.stdout);
    assert_eq!(trace.status.code(), Some(0), "{}", text(&trace.stderr));
    shown(&stdout);
    assert!(stdout.contains("     title Invoice \\u202egnp.exe\n"), "{stdout}");
    assert!(stdout.contains("message read Paid\\n✓ run succeeded \\u202efdp.exe\n"), "{stdout}");
    let trace = statewright(&["runs", "show", id, "--json"], &runs);
    let detail: Value = serde_json::from_slice(&trace.stdout).unwrap();
    assert_eq!(detail["run"]["message"], format!("read {value}"), "{detail:#}");
    let titles: Vec<&Value> = detail["steps"].as_array().unwrap().iter().map(|s| &s["page_title"]).collect();
    assert!(titles.contains(&&json!(format!("Invoice {RLO}gnp.exe"))), "{titles:?}");
}
