//! `statewright batch` with data as people keep it between goes, through the real binary
//! and Chromium: rows added, removed and moved in the data file after a go are matched to
//! what already ran by their values, not their place in the file; a batch of many rows
//! stopped with Ctrl+C ends at once, and the next go goes on from where it stopped.

mod common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use common::{command, in_time, statewright, text, write_workflow};
use serde_json::{Value, json};

/// A workflow that shows its `q` on a page and reads it back as `out`.
fn shown(dir: &std::path::Path) -> std::path::PathBuf {
    write_workflow(
        dir,
        &json!({
            "version": 1, "name": "shown", "parameters": { "q": {} },
            "states": [
                { "name": "Start", "checks": [{ "type": "url", "value": "about:blank" }],
                  "actions": [{ "type": "navigate_to", "url": "data:text/html,<p id=v>{{q}}</p>" }],
                  "next": ["Shown"] },
                { "name": "Shown", "checks": [{ "type": "element", "selector": "#v" }],
                  "actions": [{ "type": "extract", "target": { "css": "#v" }, "into": "out" }],
                  "terminal": { "outcome": "success", "message": "read {{q}}" } }
            ]
        }),
    )
}

#[test]
fn rows_added_removed_or_moved_between_goes_do_not_run_the_rows_done_again() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = shown(dir.path());
    let data = dir.path().join("orders.csv");
    let go = || {
        let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review", "--json"];
        let out = statewright(&args, &runs);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    std::fs::write(&data, "q\nA\nB\nC\nC\n").unwrap();
    let first = go();
    let run_of = |report: &Value, q: &str| -> Vec<Value> {
        let rows = report["rows"].as_array().unwrap();
        rows.iter().filter(|r| r["values"]["q"] == q).map(|r| r["run_id"].clone()).collect()
    };

    // A row added at the top, B taken out, one C moved up: only the new row runs; each row
    // done keeps its run, under its new number. C is in the data twice and ran twice.
    std::fs::write(&data, "q\nZ\nC\nA\nC\n").unwrap();
    let again = go();
    assert_eq!((again["skipped"].as_u64(), again["succeeded"].as_u64()), (Some(3), Some(4)), "{again:#}");
    let rows = again["rows"].as_array().unwrap();
    let order: Vec<(u64, &str)> =
        rows.iter().map(|r| (r["row"].as_u64().unwrap(), r["values"]["q"].as_str().unwrap())).collect();
    assert_eq!(order, [(1, "Z"), (2, "C"), (3, "A"), (4, "C")]);
    assert_eq!(run_of(&again, "A"), run_of(&first, "A"), "A was not run again");
    let (mut before, mut now) = (run_of(&first, "C"), run_of(&again, "C"));
    before.sort_by_key(Value::to_string);
    now.sort_by_key(Value::to_string);
    assert_eq!(now, before, "neither C was run again");
    assert_eq!(rows[2]["outputs"]["out"], "A", "with what it read: {again:#}");

    // The tables say the same, row by row in the data's order.
    let table: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("orders.results.json")).unwrap()).unwrap();
    assert_eq!(
        table.as_array().unwrap().iter().map(|r| r["values"]["q"].clone()).collect::<Vec<_>>(),
        ["Z", "C", "A", "C"]
    );

    // A third C is one more to run.
    std::fs::write(&data, "q\nZ\nC\nA\nC\nC\n").unwrap();
    let third = go();
    assert_eq!((third["skipped"].as_u64(), third["succeeded"].as_u64()), (Some(4), Some(5)), "{third:#}");
}

#[test]
fn results_where_a_folder_a_pipe_or_a_device_is_are_refused_before_anything_runs() {
    let (dir, store) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let runs = store.path().join("runs");
    let workflow = shown(dir.path());
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "q\nA\n").unwrap();
    let folder = dir.path().join("results");
    std::fs::create_dir(&folder).unwrap();
    let pipe = dir.path().join("pipe.csv");
    common::fifo(&pipe);
    // As `--out /dev/null` is, without risking the machine's own: written through a rename,
    // a table would replace the device (/dev/null itself, for a batch run as root).
    let null = dir.path().join("null.csv");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    for (out, expected) in [
        (&folder, format!("the CSV results table {} is a folder, not a regular file", folder.display())),
        (&pipe, format!("the CSV results table {} is a named pipe (FIFO), not a regular file", pipe.display())),
        (&null, format!("the CSV results table {} is a symbolic link to /dev/null (a device)", null.display())),
    ] {
        let args =
            ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--out", out.to_str().unwrap()];
        let out = statewright(&[&args[..], &["--no-review"]].concat(), &runs);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&expected), "{stderr}");
        assert!(!stderr.contains("row 1: run"), "nothing ran: {stderr}");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&pipe).unwrap().file_type().is_fifo(), "the pipe is a pipe still");
    assert!(std::fs::symlink_metadata(&null).unwrap().is_symlink(), "the link is a link still");
    let mut left: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    left.sort();
    assert_eq!(left, ["null.csv", "orders.csv", "pipe.csv", "results", "workflow.json"], "nothing written beside them");
}

#[test]
fn results_in_a_folder_that_does_not_exist_are_refused_naming_the_folder() {
    let (dir, store) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let workflow = shown(dir.path());
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "q\nA\n").unwrap();
    let out = dir.path().join("reports").join("orders.csv");
    let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--out", out.to_str().unwrap()];
    let out = statewright(&[&args[..], &["--no-review"]].concat(), &store.path().join("runs"));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let expected =
        format!("the folder {} of the results does not exist: make it", dir.path().join("reports").display());
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(!stderr.contains("row 1: run"), "nothing ran: {stderr}");
}

/// Data from elsewhere with a header of 200,000 columns, or an object of as many fields
/// (1.5 MB each): each name was compared with every one before it, which took minutes.
#[test]
fn data_with_hundreds_of_thousands_of_columns_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = shown(dir.path());
    let names: Vec<String> = (0..200_000).map(|i| format!("c{i}")).collect();
    let csv = dir.path().join("wide.csv");
    std::fs::write(&csv, format!("{}\n{}\n", names.join(","), vec!["1"; names.len()].join(","))).unwrap();
    let jsonl = dir.path().join("wide.jsonl");
    let object: serde_json::Map<String, Value> = names.iter().map(|n| (n.clone(), json!("1"))).collect();
    std::fs::write(&jsonl, format!("{}\n", Value::Object(object))).unwrap();
    for data in [csv, jsonl] {
        let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review"];
        let (code, stderr) = in_time(&args, &dir.path().join("runs"));
        assert_eq!(code, Some(2), "{stderr}");
        let expected = format!("{}:1: column `c0` is not a parameter of workflow `shown`", data.display());
        assert!(stderr.contains(&expected), "{stderr}");
    }
}

/// A column's name of a megabyte, as data gone wrong has: the message quoted it whole, a
/// megabyte on the terminal, where every other message cuts a value after 80 characters.
#[test]
fn a_columns_name_of_a_megabyte_is_cut_in_the_message() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = shown(dir.path());
    let name = "k".repeat(1_000_000);
    let csv = dir.path().join("long.csv");
    std::fs::write(&csv, format!("{name}\n1\n")).unwrap();
    let jsonl = dir.path().join("long.jsonl");
    std::fs::write(&jsonl, format!("{{\"{name}\": \"1\", \"{name}\": \"2\"}}\n")).unwrap();
    for (data, said) in [(csv, "is not a parameter of workflow `shown`"), (jsonl, "is given twice in the object")] {
        let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review"];
        let (code, stderr) = in_time(&args, &dir.path().join("runs"));
        assert_eq!(code, Some(2), "{}", &stderr[..stderr.len().min(500)]);
        assert!(stderr.len() < 2_000, "{} bytes: {}", stderr.len(), &stderr[..500]);
        let cut = format!("`{}… (999920 more characters)` {said}", "k".repeat(80));
        assert!(stderr.contains(&format!("{}:1: ", data.display())) && stderr.contains(&cut), "{stderr}");
    }
}

#[test]
fn a_batch_of_many_rows_stopped_with_ctrl_c_records_the_rows_not_started_at_once_and_the_next_go_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // A row of `done` succeeds; any other waits for a text that never comes, until stopped.
    let workflow = write_workflow(
        dir.path(),
        &json!({
            "version": 1, "name": "waits", "parameters": { "q": {} },
            "config": { "no_states_timeout": 300 },
            "states": [
                { "name": "Start", "checks": [{ "type": "url", "value": "about:blank" }],
                  "actions": [{ "type": "navigate_to", "url": "data:text/html,<p>{{q}}</p>" }], "next": ["Done"] },
                { "name": "Done", "checks": [{ "type": "text", "match": "contains", "value": "done" }],
                  "terminal": { "outcome": "success" } }
            ]
        }),
    );
    let rows = 20_000;
    let data = dir.path().join("orders.csv");
    let values: String = (2..=rows).map(|i| format!("r{i}\n")).collect();
    std::fs::write(&data, format!("q\ndone\n{values}")).unwrap();
    let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review"];
    // Stopped once row 2 runs (row 1, on its own, is done by then): its stderr, its exit code.
    let stopped_at_row_2 = || {
        let mut batch =
            command(&[&args[..], &["--concurrency", "1"]].concat(), &runs).stderr(Stdio::piped()).spawn().unwrap();
        let mut said = BufReader::new(batch.stderr.take().unwrap()).lines().map_while(Result::ok);
        assert!(said.by_ref().any(|line| line.contains("row 2: run")), "row 2 runs");
        // SAFETY: signalling our own child process.
        unsafe { libc::kill(batch.id() as i32, libc::SIGINT) };
        let said: Vec<String> = said.collect();
        (said, batch.wait().unwrap().code())
    };
    let (said, code) = stopped_at_row_2();
    assert_eq!(code, Some(130));
    let first = said.join("\n");
    let cancelled: Vec<&String> = said.iter().filter(|line| line.contains("cancelled")).collect();
    // One line for the rows not started, not one each (20,000 lines, a minute of writing).
    assert_eq!(cancelled.len(), 2, "row 2 stopped, the rest not started: {:?}", &cancelled[..cancelled.len().min(5)]);
    let not_started =
        format!("[{rows}/{rows}] ✗ {} rows were not started: cancelled, the batch was stopped first", rows - 2);
    assert!(first.contains(&not_started), "{first}");
    // The table has every row, those not started as cancelled.
    let table = || -> Vec<Value> {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("orders.results.json")).unwrap()).unwrap()
    };
    let rows_of = table();
    assert_eq!(rows_of.len(), rows);
    assert_eq!((rows_of[0]["status"].as_str(), rows_of[1]["status"].as_str()), (Some("succeeded"), Some("cancelled")));
    assert!(rows_of[2..].iter().all(|r| r["status"] == "cancelled"
        && r["message"] == "the batch was stopped before this row ran"
        && r["values"]["q"] == format!("r{}", r["row"])));
    let csv = std::fs::read_to_string(dir.path().join("orders.results.csv")).unwrap();
    assert_eq!(csv.lines().count(), rows + 1);
    assert!(csv.ends_with(&format!("{rows},cancelled,,0,,the batch was stopped before this row ran,r{rows}\n")));

    // The next go skips row 1 and goes on with row 2.
    let (said, code) = stopped_at_row_2();
    assert_eq!(code, Some(130));
    let again = said.join("\n");
    assert!(!again.contains("row 1: run"), "{again}");
    assert!(again.contains(&format!("1 succeeded, {} failed, 1 skipped (done before)", rows - 1)), "{again}");
    assert_eq!(table()[0]["run_id"], rows_of[0]["run_id"], "row 1 kept its run");
}
