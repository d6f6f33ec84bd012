//! `statewright batch` on real Chromium and the demo site: rows run two at a time, a failing
//! row does not stop the others, secrets stay out of the results table, a second go runs only
//! what did not succeed, and bad data is exit 2 naming the line. `statewright agent --tasks`
//! runs a benchmark's task file the same way, against a model of our own on loopback.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::{command, statewright, text};
use serde_json::{Value, json};
use statewright_llm::testing::{Reply, Rule, ScriptedModel, request_text};

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
fn a_run_over_the_time_limit_is_stopped_and_its_row_ends_timed_out_while_the_others_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // A row whose text never shows would wait five minutes for a state; the limit stops it
    // (after time enough for the other row's launch and run on a loaded machine).
    let workflow = dir.path().join("look.json");
    std::fs::write(
        &workflow,
        json!({
            "version": 1, "name": "look",
            "config": { "no_states_timeout": 300 },
            "parameters": { "site": {}, "expected": {} },
            "states": [
                { "name": "Start", "checks": [{ "type": "url", "value": "about:blank" }],
                  "actions": [{ "type": "navigate_to", "url": "{{site}}/" }], "next": ["Seen"] },
                { "name": "Seen", "checks": [{ "type": "text", "match": "contains", "value": "{{expected}}" }],
                  "terminal": { "outcome": "success" } }
            ]
        })
        .to_string(),
    )
    .unwrap();
    let data = dir.path().join("looks.csv");
    std::fs::write(&data, "expected\nbuilt to last\nnowhere on the page\n").unwrap();
    let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--demo-site"];
    let started = std::time::Instant::now();
    let out = statewright(&[&args[..], &["--no-review", "--run-timeout", "15", "--json"]].concat(), &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "a row that timed out is a failed row: {stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(120), "the limit, not the five minutes, ended it");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows[0]["status"], "succeeded", "{report:#}");
    assert_eq!(rows[1]["status"], "timed_out", "{report:#}");
    assert_eq!(rows[1]["message"], "took longer than the time limit of a run (15s) and was stopped", "{report:#}");
    // The run is in the store, ended (not left running) as stopped, saying why.
    let shown = statewright(&["runs", "show", rows[1]["run_id"].as_str().unwrap(), "--json"], &runs);
    let run = &serde_json::from_slice::<Value>(&shown.stdout).unwrap()["run"];
    assert_eq!(run["status"], "cancelled", "{run:#}");
    assert_eq!(run["message"], "cancelled: the time limit of a run (15s) passed", "{run:#}");

    for bad in ["0x", "-1", "0"] {
        let out = statewright(&[&args[..], &["--run-timeout", bad]].concat(), &runs);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out.stderr));
    }
}

#[test]
fn bad_data_is_exit_2_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    for (name, content, expected) in [
        // The header names the column: line 1.
        ("typo.csv", "seed,quantiy\n1,2\n", "typo.csv:1: column `quantiy` is not a parameter of workflow `demo-shop`"),
        ("typo.jsonl", "{\"seed\": 1}\n{\"qty\": 2}\n", "typo.jsonl:2: column `qty` is not a parameter"),
        ("short.csv", "seed,quantity\n1,2\n3\n", "short.csv:3: 1 values for 2 columns"),
        ("rows.jsonl", "{\"seed\": \"1\"}\n{\"seed\": [2]}\n", "rows.jsonl:2: `seed` is not a plain value"),
        ("empty.csv", "seed,quantity\n", "no rows"),
        // Nothing is dropped or changed on the way: what cannot be read as written is refused.
        ("twice.csv", "seed,seed\n1,2\n", "twice.csv:1: column `seed` is named twice in the header"),
        ("after.csv", "seed,quantity\n\"1\"2,3\n", "after.csv:2:4: text after a closing quote"),
        ("twice.jsonl", "{\"seed\": 1, \"seed\": 2}\n", "twice.jsonl:1: `seed` is given twice"),
        // Lines ended by a lone CR are lines (not one header line and "no rows").
        ("mac.csv", "seed,quantiy\r1,2\r", "mac.csv:1: column `quantiy` is not a parameter"),
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

#[test]
fn results_that_would_overwrite_the_data_or_make_both_tables_one_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("orders.csv");
    let rows = "seed,quantity\n1,2\n";
    std::fs::write(&data, rows).unwrap();
    let json_data = dir.path().join("orders.json");
    let json_rows = "[{\"seed\": 1, \"quantity\": 2}]";
    std::fs::write(&json_data, json_rows).unwrap();
    let spelt = dir.path().join(".").join("orders.csv");
    let one = dir.path().join("j.json");
    for (data, out, expected) in [
        (&data, &data, format!("the CSV results table {} would overwrite the data", data.display())),
        (&data, &spelt, "would overwrite the data".to_owned()),
        // JSON data and its results beside it: the JSON table would be written over it.
        (&json_data, &data, format!("the JSON results table {} would overwrite the data", json_data.display())),
        (&data, &one, "would make the CSV results table and the JSON results table one file".to_owned()),
    ] {
        let args =
            ["batch", "workflows/demo-shop.json", "--data", data.to_str().unwrap(), "--out", out.to_str().unwrap()];
        let out = statewright(&[&args[..], &["--demo-site", "--no-review"]].concat(), dir.path());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("row 1: run"), "nothing ran: {stderr}");
    }
    assert_eq!(std::fs::read_to_string(&data).unwrap(), rows, "the data is as it was");
    assert_eq!(std::fs::read_to_string(&json_data).unwrap(), json_rows, "the data is as it was");
    assert!(!one.exists());
}

/// A workflow that shows its `q` on a page and reads it back as `out`; with `wait`, it then
/// waits for a text that never comes (its row runs until stopped).
fn shown_workflow(dir: &Path, wait: bool) -> PathBuf {
    let path = dir.join(if wait { "wait.json" } else { "shown.json" });
    let shown = if wait {
        json!({ "name": "Shown", "checks": [{ "type": "element", "selector": "#v" }], "next": ["Never"] })
    } else {
        json!({ "name": "Shown", "checks": [{ "type": "element", "selector": "#v" }],
                "actions": [{ "type": "extract", "target": { "css": "#v" }, "into": "out" }],
                "terminal": { "outcome": "success", "message": "read {{q}}" } })
    };
    let workflow = json!({
        "version": 1, "name": "shown",
        "config": { "no_states_timeout": 300 },
        "parameters": { "q": {} },
        "states": [
            { "name": "Start", "checks": [{ "type": "url", "value": "about:blank" }],
              "actions": [{ "type": "navigate_to", "url": "data:text/html,<p id=v>{{q}}</p>" }], "next": ["Shown"] },
            shown,
            { "name": "Never", "checks": [{ "type": "text", "match": "contains", "value": "never on the page" }],
              "terminal": { "outcome": "success" } }
        ]
    });
    std::fs::write(&path, workflow.to_string()).unwrap();
    path
}

#[test]
fn a_second_batch_on_the_same_results_is_refused_while_the_first_runs() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = shown_workflow(dir.path(), true);
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "q\nA\nB\n").unwrap();
    // The time limit only in case the test fails before it stops the first.
    let args =
        ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review", "--run-timeout", "120"];
    let mut first = command(&args, &runs).stderr(Stdio::piped()).spawn().unwrap();
    let mut first_err = BufReader::new(first.stderr.take().unwrap()).lines().map_while(Result::ok);
    assert!(first_err.by_ref().any(|line| line.contains("row 1: run")), "the first batch runs its rows");

    // A cron job that overlaps: refused at once, no row run a second time.
    let started = std::time::Instant::now();
    let second = statewright(&args, &runs);
    let stderr = text(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    let expected = format!(
        "another batch (pid {}) is writing the results {}",
        first.id(),
        data.with_extension("results.csv").display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(!stderr.contains("row 1: run"), "{stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "it did not wait");

    // SAFETY: signalling our own child process.
    unsafe { libc::kill(first.id() as i32, libc::SIGINT) };
    first_err.for_each(drop);
    assert_eq!(first.wait().unwrap().code(), Some(130));
    assert!(!dir.path().join("orders.results.lock").exists(), "the lock went with the first batch");
    let table: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("orders.results.json")).unwrap()).unwrap();
    assert_eq!(table.as_array().unwrap().len(), 2, "one table, of the first batch's rows: {table:#}");
}

#[test]
fn judge_leaves_a_results_table_alone_while_a_batch_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // A row that runs until it is stopped, with a goal, as a task to judge has.
    let workflow = dir.path().join("tasks.json");
    let mut shown =
        serde_json::from_str::<Value>(&std::fs::read_to_string(shown_workflow(dir.path(), true)).unwrap()).unwrap();
    shown["parameters"]["goal"] = json!({});
    std::fs::write(&workflow, shown.to_string()).unwrap();
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "q,goal\nB,see B\n").unwrap();
    let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review"];
    let mut batch = command(&[&args[..], &["--concurrency", "1", "--run-timeout", "120"]].concat(), &runs)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut batch_err = BufReader::new(batch.stderr.take().unwrap()).lines().map_while(Result::ok);
    assert!(batch_err.by_ref().any(|line| line.contains("row 1: run")), "the batch runs its row");
    let (csv, json) = (data.with_extension("results.csv"), data.with_extension("results.json"));
    let table = || (std::fs::read(&csv).unwrap_or_default(), std::fs::read(&json).unwrap_or_default());
    let started = std::time::Instant::now();
    while !String::from_utf8_lossy(&table().1).contains("\"running\"") {
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "the table says the row runs");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let before = table();

    // The judge is refused at once, naming the batch; the table is as the batch wrote it.
    let judge = ["judge", json.to_str().unwrap(), "--llm-url", "http://127.0.0.1:9/v1", "--llm-model", "m"];
    let out = statewright(&judge, &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let expected = format!("a batch (pid {}) is writing the results {}: judging now", batch.id(), csv.display());
    assert!(stderr.contains(&expected), "{stderr}");
    assert_eq!(table(), before, "the judge wrote nothing");

    // SAFETY: signalling our own child process.
    unsafe { libc::kill(batch.id() as i32, libc::SIGINT) };
    batch_err.for_each(drop);
    assert_eq!(batch.wait().unwrap().code(), Some(130));
    // Once the batch has ended, the judge goes on.
    let out = statewright(&judge, &runs);
    assert!(!text(&out.stderr).contains("is writing the results"), "{}", text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "no task is a success: {}", text(&out.stderr));
}

#[test]
fn text_a_page_gives_that_a_spreadsheet_would_run_as_a_formula_is_written_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = shown_workflow(dir.path(), false);
    let data = dir.path().join("cells.csv");
    std::fs::write(&data, "q\n=1+2\n@SUM(1)\nplain\n").unwrap();
    let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review", "--json"];
    let out = statewright(&args, &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The value and what the page gave back (`out`), each with a `'` first in the CSV.
    let csv = std::fs::read_to_string(dir.path().join("cells.results.csv")).unwrap();
    let cells: Vec<&str> = csv.lines().skip(1).map(|l| l.split_once(",read ").unwrap().1).collect();
    assert_eq!(cells, ["=1+2,'=1+2,'=1+2", "@SUM(1),'@SUM(1),'@SUM(1)", "plain,plain,plain"], "{csv}");
    // The JSON table is exact.
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("cells.results.json")).unwrap()).unwrap();
    assert_eq!((&json[0]["values"]["q"], &json[0]["outputs"]["out"]), (&json!("=1+2"), &json!("=1+2")), "{json:#}");
}

#[test]
fn a_row_a_killed_batch_left_under_way_in_the_journal_is_not_run_again_once_its_run_succeeded() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = shown_workflow(dir.path(), false);
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "q\nA\n").unwrap();
    let args = ["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review", "--json"];
    let out = statewright(&args, &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let done = report["rows"][0].clone();
    let (table, journal) = (data.with_extension("results.json"), data.with_extension("results.journal"));
    assert!(!journal.exists(), "the journal goes with the go's end");

    // As a go killed outright as the run ended leaves it: the table as before the row
    // started, the journal with its start and the start of its end, torn.
    std::fs::write(&table, "[]").unwrap();
    let running = json!({"row": 1, "values": done["values"], "status": "running", "end_state": null,
        "duration_ms": 0, "run_id": done["run_id"], "message": ""});
    std::fs::write(&journal, format!("{running}\n{{\"row\":1,\"values\":{{\"q\":\"A\"}},\"stat")).unwrap();
    let out = statewright(&args, &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again["skipped"], 1, "the store said the run succeeded: {again:#}");
    assert_eq!(again["rows"][0]["run_id"], done["run_id"], "not run a second time");
    assert_eq!(again["rows"][0]["outputs"]["out"], "A", "what it read, from the store: {again:#}");
    let rows: Value = serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    assert_eq!(rows[0]["status"], "succeeded", "{rows:#}");
    assert!(!journal.exists());
}

/// A model that answers a task from the page: the title of the page asked for (after
/// following the link to it), or it gives up on what cannot be done.
fn answer(request: &Value) -> Reply {
    let prompt = request_text(request);
    let line = |prefix: &str| prompt.lines().find_map(|l| l.strip_prefix(prefix)).unwrap_or("").to_owned();
    let (goal, address) = (line("Its goal: "), line("Address: "));
    let step = if goal.contains("impossible") {
        json!({"kind": "abort", "reason": "there is no such thing here"})
    } else if goal.contains("sign-in page") && !address.contains("login.html") {
        let link = regex::Regex::new(r#"(?m)^\[(\d+)\] link "Sign in""#).unwrap();
        match link.captures(&prompt) {
            Some(c) => json!({"kind": "click", "element": c[1].parse::<u64>().unwrap(), "reason": "to the page"}),
            None => json!({"kind": "wait", "reason": "the link"}),
        }
    } else {
        json!({"kind": "finish", "text": line("Title: "), "reason": "the title says it"})
    };
    Reply::json(step)
}

/// A judge that reads the task and the answer, and checks a screenshot came with them: the
/// sign-in page's title is right, anything else is not.
fn verdict(request: &Value) -> Reply {
    let prompt = request_text(request);
    let images = request["messages"][1]["content"].as_array().map_or(0, |parts| parts.len() - 1);
    let shot = request["messages"][1]["content"][1]["image_url"]["url"].as_str().unwrap_or_default();
    let verdict = if images == 0 || !shot.starts_with("data:image/") {
        json!({"verdict": "not_success", "reason": "no screenshot to judge by"})
    } else if prompt.contains("sign-in page") && prompt.contains("Sign in · Northwind Supply") {
        json!({"verdict": "success", "reason": format!("the title is shown ({images} screenshots)")})
    } else {
        json!({"verdict": "not_success", "reason": "that is not what was asked"})
    };
    // As a chatty model answers: the object in prose.
    Reply::Content(format!("Looking at the screenshots: {verdict}"))
}

#[test]
fn a_benchmarks_task_file_runs_a_model_per_task_a_second_go_runs_only_what_failed_and_a_judge_grades_it() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let tasks = dir.path().join("WebVoyager_data.jsonl");
    // As WebVoyager writes its tasks: `web_name`, `id`, `ques`, `web`.
    let task = |id: &str, ques: &str, web: &str| json!({"web_name": "Northwind", "id": id, "ques": ques, "web": web});
    let lines = [
        task("Northwind--0", "What is the title of the sign-in page?", "{{site}}/?seed=2"),
        task("Northwind--1", "Find the impossible thing", "{{site}}/?seed=2"),
        task("Northwind--2", "What is the title of the reaction page?", "{{site}}/rounds.html?seed=2"),
    ];
    std::fs::write(&tasks, lines.map(|l| l.to_string()).join("\n")).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(ScriptedModel::start(vec![
        Rule::respond("drive a web browser", answer),
        Rule::respond("judge whether a web agent", verdict),
    ]));
    let go = |more: &[&str]| {
        let (tasks, url) = (tasks.to_str().unwrap(), model.url());
        let args = ["agent", "--tasks", tasks, "--demo-site", "--llm-url", &url, "--llm-model", "scripted"];
        statewright(&[&args[..], &["--no-review", "--json"], more].concat(), &runs)
    };

    let out = go(&["--concurrency", "2"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "one task fails: {stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report["succeeded"].as_u64(), report["failed"].as_u64()), (Some(2), Some(1)), "{report:#}");
    let rows = report["rows"].as_array().unwrap();
    let ids: Vec<&str> = rows.iter().map(|r| r["values"]["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["Northwind--0", "Northwind--1", "Northwind--2"]);
    assert_eq!(rows[0]["outputs"]["answer"], "Sign in · Northwind Supply", "{report:#}");
    assert_eq!(rows[2]["outputs"]["answer"], "Reaction rounds · Northwind Supply", "{report:#}");
    assert_eq!((rows[0]["status"].as_str(), rows[0]["end_state"].as_str()), (Some("succeeded"), Some("Goal reached")));
    assert_eq!(rows[1]["status"], "failed");
    assert!(rows[1]["message"].as_str().unwrap().contains("no such thing"), "{report:#}");
    assert!(rows[0]["llm_calls"].as_u64().unwrap() >= 2, "a click, then the answer: {report:#}");
    assert!(stderr.contains("✓ task Northwind--0"), "progress names the task: {stderr}");
    assert!(stderr.contains("grade the answers: statewright judge "), "{stderr}");

    // The table beside the task file: the task's fields, the model's use, and its answer.
    let csv = std::fs::read_to_string(dir.path().join("WebVoyager_data.results.csv")).unwrap();
    let header =
        "row,status,end_state,duration_ms,run_id,message,llm_calls,llm_tokens,llm_cost,id,goal,url,web_name,answer";
    assert!(csv.starts_with(header), "{csv}");
    assert!(csv.contains("Sign in · Northwind Supply"), "{csv}");
    // Each task is a run in the store like any other, its answer what it read.
    let shown = statewright(&["runs", "show", rows[0]["run_id"].as_str().unwrap(), "--json"], &runs);
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(shown["run"]["outputs"]["answer"], "Sign in · Northwind Supply", "{shown:#}");

    // Again, in a browser the batch shares: the model is asked only about the task that
    // failed, and sees its page.
    let asked = model.requests().len();
    let out = go(&["--shared-browsers", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((again["skipped"].as_u64(), again["failed"].as_u64()), (Some(2), Some(1)), "{again:#}");
    assert_eq!(again["rows"][0]["run_id"], rows[0]["run_id"], "task 0 was not run again");
    assert_eq!(again["endpoints"][0]["runs"], 1, "{again:#}");
    assert!(again["rows"][1]["endpoint"].as_str().is_some_and(|e| e.starts_with("ws://127.0.0.1:")), "{again:#}");
    let new: Vec<String> = model.requests()[asked..].iter().map(request_text).collect();
    assert!(!new.is_empty() && new.iter().all(|p| p.contains("impossible")), "only task 1 was asked about");
    let page = new[0].lines().any(|l| l.starts_with("Address: http://127.0.0.1:") && l.ends_with("/?seed=2"));
    assert!(page, "it saw the task's page: {}", new[0]);

    // The judge: the model is asked about the two answers; the task that failed is
    // `not_success` without asking. The verdicts go into the table, and a score is given.
    let results = dir.path().join("WebVoyager_data.results.json");
    let judge = |more: &[&str]| {
        let (results, url) = (results.to_str().unwrap(), model.url());
        let args = ["judge", results, "--llm-url", &url, "--llm-model", "scripted", "--json"];
        statewright(&[&args[..], more].concat(), &runs)
    };
    let asked = model.requests().len();
    let out = judge(&["--screenshots", "2"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "not every task succeeded: {stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts = ["total", "success", "not_success", "unjudged", "llm_calls"].map(|k| report[k].as_u64().unwrap());
    assert_eq!(counts, [3, 1, 2, 0, 2], "{report:#}");
    assert!((report["score"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9, "{report:#}");
    let judged: Vec<&Value> = report["rows"].as_array().unwrap().iter().map(|r| &r["judged"]).collect();
    assert_eq!(judged[0]["verdict"], "success", "{report:#}");
    assert_eq!(judged[0]["reason"], "the title is shown (2 screenshots)", "two screenshots: {report:#}");
    assert_eq!(judged[0]["model"], "scripted");
    assert!(judged[1]["reason"].as_str().unwrap().starts_with("the run failed: "), "{report:#}");
    assert!(judged[1].get("model").is_none(), "the run's status decided: {report:#}");
    assert_eq!(judged[2]["verdict"], "not_success");
    assert!(stderr.contains("score 33.3%"), "{stderr}");
    let judge_calls = &model.requests()[asked..];
    assert_eq!(judge_calls.len(), 2);
    assert!(judge_calls.iter().all(|r| request_text(r).contains("<agent-answer>")));
    let csv = std::fs::read_to_string(dir.path().join("WebVoyager_data.results.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(header.contains(",llm_cost,verdict,verdict_reason,id,goal,"), "{csv}");
    assert!(csv.contains(",success,the title is shown (2 screenshots),Northwind--0,"), "{csv}");

    // Judged once, judged for good: a second go asks nothing unless told to judge again.
    let out = judge(&[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(model.requests().len(), asked + 2, "no second verdict: {}", text(&out.stderr));
    let out = judge(&["--again"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(model.requests().len(), asked + 4, "--again asks again: {}", text(&out.stderr));

    // A model that cannot be reached gives no verdict: the table says why, and the next go
    // asks about those tasks, and only those, again.
    let dead = ["judge", results.to_str().unwrap(), "--llm-url", "http://127.0.0.1:9/v1", "--llm-model", "gone"];
    let out = statewright(&[&dead[..], &["--again", "--json"]].concat(), &runs);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["unjudged"], 2, "{report:#}");
    let unjudged = &report["rows"][0]["judged"];
    assert_eq!((unjudged["verdict"].as_str(), unjudged["model"].as_str()), (Some("unjudged"), Some("gone")));
    assert!(unjudged["reason"].as_str().unwrap().starts_with("no verdict: "), "{report:#}");
    assert!(text(&out.stderr).contains("(the next go asks again)"), "{}", text(&out.stderr));
    let csv = std::fs::read_to_string(dir.path().join("WebVoyager_data.results.csv")).unwrap();
    assert!(csv.contains(",unjudged,no verdict: "), "{csv}");
    let out = judge(&[]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report["success"].as_u64(), report["unjudged"].as_u64()), (Some(1), Some(0)), "{report:#}");
    assert_eq!(model.requests().len(), asked + 6, "the two without a verdict, again: {}", text(&out.stderr));

    // The table of a workflow's batch has no goals to judge; a judge needs a model and a table.
    let orders = dir.path().join("orders.results.json");
    std::fs::write(&orders, r#"[{"row": 1, "values": {"seed": "1"}, "status": "succeeded", "end_state": null, "duration_ms": 1, "run_id": null, "message": ""}]"#).unwrap();
    for (args, expected) in [
        (
            vec!["judge", orders.to_str().unwrap(), "--llm-url", "http://127.0.0.1:9/v1", "--llm-model", "m"],
            "row 1 has no goal",
        ),
        (
            vec!["judge", "nowhere.results.json", "--llm-url", "http://127.0.0.1:9/v1", "--llm-model", "m"],
            "no results table here",
        ),
        (vec!["judge", results.to_str().unwrap()], "judging needs a model"),
    ] {
        let out = statewright(&args, &runs);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(expected), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn a_task_file_without_a_goal_or_a_page_is_exit_2_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let model = ["--llm-url", "http://127.0.0.1:9/v1", "--llm-model", "never-called"];
    for (name, content, expected) in [
        (
            "tasks.jsonl",
            "{\"ques\": \"a\", \"web\": \"https://a/\"}\n{\"ques\": \"b\"}\n",
            "tasks.jsonl:2: the task has no url",
        ),
        (
            "tasks.json",
            "[{\"intent\": \"a\", \"start_url\": \"https://a/\", \"eval\": {}},\n 7]",
            "tasks.json:2: item 2 is not an object",
        ),
        ("tasks.csv", "goal,url,ques\nx,https://a/,y\n", "tasks.csv:2: `goal` and `ques` both name the task's goal"),
    ] {
        let tasks = dir.path().join(name);
        std::fs::write(&tasks, content).unwrap();
        let out = statewright(&[&["agent", "--tasks", tasks.to_str().unwrap()][..], &model].concat(), dir.path());
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(expected), "{name}: {}", text(&out.stderr));
    }
    // Batch flags are for a task file; a single goal takes one endpoint; a step budget is
    // 1 to 500.
    let single = ["agent", "--goal", "g", "--url", "https://a/"];
    for (extra, expected) in [
        (&["--concurrency", "2"][..], "are for --tasks"),
        (&["--cdp-url", "http://127.0.0.1:9", "--cdp-url", "http://127.0.0.1:8"][..], "more than once is for --tasks"),
        (&["--max-steps", "0"][..], "0 is not in 1..=500"),
        (&["--max-steps", "25000"][..], "25000 is not in 1..=500"),
    ] {
        let out = statewright(&[&single[..], extra, &model].concat(), dir.path());
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(expected), "{extra:?}: {}", text(&out.stderr));
    }
}
