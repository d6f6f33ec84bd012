//! `statewright batch` on real Chromium and the demo site: rows run two at a time, a failing
//! row does not stop the others, secrets stay out of the results table, a second go runs only
//! what did not succeed, and bad data is exit 2 naming the line.

mod common;

use common::{statewright, text};
use serde_json::Value;

const PASSWORD: &str = "correct horse battery staple";

#[test]
fn rows_run_two_at_a_time_and_a_second_go_runs_only_what_failed() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, format!("seed,quantity,password\n1,2,{PASSWORD}\n2,\"3\",wrong horse\n4,1,{PASSWORD}\n"))
        .unwrap();
    let batch = || {
        statewright(
            &[
                "batch",
                "workflows/demo-shop.json",
                "--data",
                data.to_str().unwrap(),
                "--demo-site",
                "--concurrency",
                "2",
                "--no-review",
                "--json",
            ],
            &runs,
        )
    };

    let out = batch();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "one row fails: {stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report["succeeded"].as_u64(), report["failed"].as_u64()), (Some(2), Some(1)), "{report:#}");
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.iter().map(|r| r["row"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(rows[1]["status"], "failed");
    assert_eq!(rows[1]["end_state"], "Login error");
    assert_eq!(rows[0]["end_state"], "Order confirmed");
    assert!(stderr.contains("[3/3]"), "progress per row: {stderr}");

    // The table, as CSV and JSON; the password column is masked, and is in no run record.
    let csv = std::fs::read_to_string(dir.path().join("orders.results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    // The row's values, then what the runs read (the order number and total).
    let header = "row,status,end_state,duration_ms,run_id,message,seed,quantity,password,order_number,total\n";
    assert!(csv.starts_with(header), "{csv}");
    assert!(rows[0]["outputs"]["order_number"].as_str().is_some_and(|n| n.starts_with("NW-")), "{report:#}");
    assert!(rows[1].get("outputs").is_none(), "a run that read nothing has no outputs: {report:#}");
    assert!(!csv.contains(PASSWORD) && !csv.contains("wrong horse"), "{csv}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("orders.results.json")).unwrap()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 3);
    let db = std::fs::read(runs.join("statewright.db")).unwrap();
    assert!(!String::from_utf8_lossy(&db).contains("wrong horse"));
    let run_id = rows[0]["run_id"].as_str().unwrap();
    let shown = statewright(&["runs", "show", run_id, "--json"], &runs);
    assert_eq!(serde_json::from_slice::<Value>(&shown.stdout).unwrap()["run"]["status"], "succeeded");

    // Again: the two that succeeded are skipped, the failed one runs (and fails) again.
    let out = batch();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((again["skipped"].as_u64(), again["failed"].as_u64()), (Some(2), Some(1)), "{again:#}");
    assert_eq!(again["rows"][0]["run_id"], rows[0]["run_id"], "row 1 was not run again");
    assert_ne!(again["rows"][1]["run_id"], rows[1]["run_id"], "row 2 was");
}

#[test]
fn bad_data_is_exit_2_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    for (name, content, expected) in [
        ("typo.csv", "seed,quantiy\n1,2\n", "line 2: `quantiy` is not a parameter of workflow `demo-shop`"),
        ("short.csv", "seed,quantity\n1,2\n3\n", "short.csv:3: 1 values for 2 columns"),
        ("rows.jsonl", "{\"seed\": \"1\"}\n{\"seed\": [2]}\n", "rows.jsonl:2: `seed` is not a plain value"),
        ("empty.csv", "seed,quantity\n", "no rows"),
    ] {
        let data = dir.path().join(name);
        std::fs::write(&data, content).unwrap();
        let out = statewright(
            &["batch", "workflows/demo-shop.json", "--data", data.to_str().unwrap(), "--demo-site"],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(expected), "{name}: {}", text(&out.stderr));
    }
}
