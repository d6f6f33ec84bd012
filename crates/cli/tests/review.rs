//! Human review through the real binary and real Chromium: a run on a drifted copy of the
//! demo site heals what it can, waits for a person for the rest, is answered from another
//! process with `statewright review resolve`, and the saved fixes make the next run clean.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::*;
use serde_json::{Value, json};

const DRIFT: &str = "tests/fixtures/drift/demo-drift.json";
/// A corrective action whose selector is not CSS.
const BAD_ACTION: &str = r#"{"type":"click","target":{"css":"a[[["}}"#;

/// A copy of the demo workflow with short timeouts, so failures surface in seconds, kept in
/// a repository of its own (`repo/shop.json`) and run through a link to it (`shop.json`), as
/// a person keeping workflows in their own repositories does: fixes are saved into the file
/// the link leads to, and the link stays a link.
fn workflow_copy(dir: &Path) -> PathBuf {
    let mut workflow: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("workflows/demo-shop.json")).unwrap()).unwrap();
    workflow["config"] = json!({ "no_states_timeout": 4, "action_timeout": 3 });
    std::fs::create_dir_all(dir.join("repo")).unwrap();
    std::fs::write(dir.join("repo/shop.json"), serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    let path = dir.join("shop.json");
    std::os::unix::fs::symlink("repo/shop.json", &path).unwrap();
    path
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink())
}

#[test]
fn a_drifted_site_is_healed_and_reviewed_and_the_saved_fixes_make_the_next_run_clean() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = workflow_copy(dir.path());
    let wf = workflow.to_str().unwrap();

    // 1. On the original site the run succeeds and records every element's alternatives.
    let out = statewright(&["run", wf, "--demo-site", "-p", "seed=3"], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // 2. On the drifted site it waits for a person at the redesigned home page.
    let mut run = command(&["run", wf, "--demo-site", "--drift", DRIFT, "-p", "seed=3", "--json"], &runs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let home = wait_for_review(&runs, &mut run, &[]);
    let home_id = home["id"].as_i64().unwrap();
    assert_eq!(home["request"]["failure"]["kind"], "no_state", "{home:#}");
    let screenshot = runs.join(home["screenshot"].as_str().expect("the review has a screenshot"));
    assert!(std::fs::metadata(&screenshot).unwrap().len() > 1000, "a real PNG at {}", screenshot.display());
    assert!(!home["request"]["observation"]["elements"].as_array().unwrap().is_empty(), "the element snapshot");

    // Bad input is refused, and the run keeps waiting with the file untouched.
    let before = std::fs::read(&workflow).unwrap();
    let id = home_id.to_string();
    let bad = statewright(&["review", "resolve", &id, "actions", "--action", BAD_ACTION], &runs);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("invalid"), "{}", text(&bad.stderr));
    let bad = statewright(&["review", "resolve", &id, "declare-state", "--state", "Home pgae", "--save"], &runs);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("no state `Home pgae`"), "{}", text(&bad.stderr));
    let bad = statewright(&["review", "resolve", "9999", "retry"], &runs);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("no review with id 9999"), "{}", text(&bad.stderr));
    assert_eq!(std::fs::read(&workflow).unwrap(), before, "nothing was written");
    assert!(run.try_wait().unwrap().is_none(), "the run is still waiting");
    assert_eq!(open_reviews(&runs).len(), 1);

    // The person previews the fix (nothing changes), then says this is the home page and
    // saves that into the workflow.
    let preview =
        statewright(&["review", "resolve", &id, "declare-state", "--state", "Home page", "--save", "--preview"], &runs);
    assert_eq!(preview.status.code(), Some(0), "{}", text(&preview.stderr));
    assert!(text(&preview.stdout).contains("+++"), "a diff: {}", text(&preview.stdout));
    assert_eq!(std::fs::read(&workflow).unwrap(), before, "a preview writes nothing");
    assert_eq!(open_reviews(&runs).len(), 1, "and resolves nothing");
    let resolved = statewright(&["review", "resolve", &id, "declare-state", "--state", "Home page", "--save"], &runs);
    assert_eq!(resolved.status.code(), Some(0), "{}", text(&resolved.stderr));
    assert!(
        text(&resolved.stdout).contains(r##"-          "selector": "#hero""##),
        "the diff:\n{}",
        text(&resolved.stdout)
    );
    let again = statewright(&["review", "resolve", &id, "retry"], &runs);
    assert_eq!(again.status.code(), Some(2), "a review is resolved once");
    assert!(text(&again.stderr).contains("already resolved"), "{}", text(&again.stderr));

    // The password field heals by itself; the renamed "Log in" button needs the person.
    let login = wait_for_review(&runs, &mut run, &[home_id]);
    assert_eq!(login["state"], "Login page");
    assert_eq!(login["request"]["action"]["index"], 2);
    let tried: Vec<&str> =
        login["request"]["tried"].as_array().unwrap().iter().map(|t| t["stage"].as_str().unwrap()).collect();
    assert_eq!(tried, ["reobserve", "heal", "llm"]);
    let login_id = login["id"].as_i64().unwrap().to_string();
    let click = r#"{"type":"click","target":{"role":"button","name":"Log in"}}"#;
    let resolved = statewright(&["review", "resolve", &login_id, "actions", "--action", click, "--save"], &runs);
    assert_eq!(resolved.status.code(), Some(0), "{}", text(&resolved.stderr));

    let finished = run.wait_with_output().unwrap();
    assert_eq!(finished.status.code(), Some(0), "{}", text(&finished.stderr));
    let summary: Value = serde_json::from_slice(&finished.stdout).unwrap();
    let progress = text(&finished.stderr);
    assert!(progress.contains("healed `Login page` action 2"), "{progress}");
    assert!(progress.contains("healed `Search page` action 3"), "{progress}");

    // Heals after the last review are saved too.
    let run_id = summary["run_id"].as_str().unwrap();
    let saved = statewright(&["review", "save-healed", run_id], &runs);
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved.stderr));
    assert!(is_link(&workflow), "every fix went into the linked file, and the link stays");
    let kept = std::fs::read_to_string(dir.path().join("repo/shop.json")).unwrap();
    assert!(kept.contains(r#""name": "Log in""#) && !kept.contains(r##""#hero""##), "the fixes are in it: {kept}");
    let check = statewright(&["validate", wf], &runs);
    assert_eq!(check.status.code(), Some(0), "the saved workflow is valid: {}", text(&check.stdout));

    // 3. The next run on the drifted site needs neither healing nor a person.
    let out =
        statewright(&["run", wf, "--demo-site", "--drift", DRIFT, "-p", "seed=3", "--review-timeout", "1"], &runs);
    let progress = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{progress}");
    assert!(!progress.contains("escalation") && !progress.contains("healed"), "{progress}");
}

#[test]
fn an_unanswered_review_times_out_with_exit_code_3() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = workflow_copy(dir.path());
    let out = statewright(
        &["run", workflow.to_str().unwrap(), "--demo-site", "--drift", DRIFT, "--review-timeout", "1", "--json"],
        &runs,
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["failure"]["kind"], "review_timeout");
    let all = statewright(&["review", "list", "--all", "--json"], &runs);
    let items: Value = serde_json::from_slice(&all.stdout).unwrap();
    assert_eq!(items[0]["status"], "cancelled", "{items:#}");
    assert!(open_reviews(&runs).is_empty());
}

#[test]
fn a_run_stopped_while_it_waits_for_a_person_leaves_no_review_open() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = workflow_copy(dir.path());
    let mut run = command(&["run", workflow.to_str().unwrap(), "--demo-site", "--drift", DRIFT, "-p", "seed=3"], &runs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let item = wait_for_review(&runs, &mut run, &[]);
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(run.id() as i32, libc::SIGTERM) };
    let out = run.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(open_reviews(&runs).is_empty(), "the stopped run's review is not left open");
    // The record says why the run was cancelled, not only that it was.
    let shown = statewright(&["runs", "show", item["run_id"].as_str().unwrap(), "--json"], &runs);
    let run: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(run["run"]["status"], "cancelled", "{run:#}");
    assert_eq!(run["run"]["message"], "cancelled: terminated (SIGTERM)", "{run:#}");
}

/// A run stuck on the tab its click opened: the review names the tab behind it, and the
/// person sends the run back there, closing the other, and finishes the form.
#[test]
fn a_review_lists_the_runs_other_tabs_and_a_person_sends_the_run_back() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let site = Site::dir(&repo().join("crates/chrome/tests/fixtures"));
    let workflow = json!({
        "version": 1, "name": "voucher",
        "config": { "no_states_timeout": 1, "action_timeout": 3 },
        "states": [
            { "name": "Start", "checks": [{ "type": "url", "value": "about:blank" }],
              "actions": [{ "type": "navigate_to", "url": format!("{}/tabs-voucher.html", site.1) }], "next": ["Form"] },
            { "name": "Form", "checks": [{ "type": "text", "value": "Not redeemed" }],
              "actions": [{ "type": "click", "target": { "text": "Show my voucher code" } }], "next": ["Redeemed"] },
            { "name": "Redeemed", "checks": [{ "type": "text", "value": "Redeemed VX-4711" }],
              "terminal": { "outcome": "success" } }
        ]
    });
    let path = dir.path().join("voucher.json");
    std::fs::write(&path, workflow.to_string()).unwrap();
    let mut run = command(&["run", path.to_str().unwrap(), "--json"], &runs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    let review = wait_for_review(&runs, &mut run, &[]);
    let page = &review["request"]["observation"];
    assert!(page["url"].as_str().unwrap().ends_with("/tabs-code.html"), "{review:#}");
    assert_eq!(page["tabs"][0]["title"], "Voucher form", "{review:#}");
    assert_eq!(page["tabs"][0]["previous"], true, "{review:#}");
    let id = review["id"].to_string();
    let shown = statewright(&["review", "show", &id], &runs);
    let shown = text(&shown.stdout);
    assert!(shown.contains(r#"/tabs-voucher.html ("Voucher form") — the tab before"#), "{shown}");

    let steps = [
        r#"{"type": "switch_tab", "close": true}"#,
        r##"{"type": "type", "target": {"css": "#code"}, "text": "VX-4711"}"##,
        r#"{"type": "click", "target": {"role": "button", "name": "Redeem"}}"#,
    ];
    let mut args = vec!["review", "resolve", &id, "actions"];
    steps.iter().for_each(|s| args.extend(["--action", s]));
    let resolved = statewright(&args, &runs);
    assert_eq!(resolved.status.code(), Some(0), "{}", text(&resolved.stderr));
    let out = run.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["status"], "succeeded", "{summary}");
}

/// A store in `runs` with the run `r1` under way, of the workflow `shop`.
fn store_with_a_run(runs: &Path) -> (statewright_store::Store, statewright_store::RunHandle) {
    use statewright_store::{NewRun, Store};
    let store = Store::open(&Store::default_path(runs)).unwrap();
    let run = NewRun {
        id: "r1",
        workflow_name: "shop",
        workflow_json: "{}",
        parameters: &json!({}),
        browser: "test",
        workflow_path: Some("/tmp/shop.json"),
    };
    let handle = store.start_run(&run).unwrap();
    (store, handle)
}

/// What `r1` asks a person when its click in `Cart` finds nothing.
fn failed_click() -> statewright_engine::EscalationRequest {
    use statewright_engine::Failure;
    statewright_engine::EscalationRequest {
        workflow: "shop".into(),
        step: 3,
        state: Some("Cart".into()),
        failure: Failure::Action { state: "Cart".into(), index: 1, action: "click".into(), error: "not found".into() },
        reason: "in state `Cart`, action 1 (click) failed: not found".into(),
        tried: vec![],
        action: None,
        observation: None,
        states: vec!["Cart".into()],
        suggested_checks: Vec::new(),
        unresolved: vec![],
    }
}

/// A review as JSON (`review list --json`, `review show --json`) is what the queue lists of
/// it, as `runs show --json` gives it, with its screenshot and its request beside.
#[test]
fn a_review_as_json_is_its_summary_with_its_screenshot_and_request() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path();
    let (store, _run) = store_with_a_run(runs);
    let request = failed_click();
    let empty = statewright(&["review", "list", "--all", "--json"], runs);
    assert_eq!(text(&empty.stdout), "[]\n", "{}", text(&empty.stderr));
    let ids: Vec<String> = (0..3).map(|_| store.open_review("r1", &request).unwrap().to_string()).collect();
    let id = ids[0].clone();
    drop(store);

    let json = |args: &[&str]| {
        let out = statewright(args, runs);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let keys = |review: &Value| {
        let mut keys = review.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        keys.sort();
        keys
    };
    // The list, printed review by review as it is read, is the reviews shown, newest first.
    let all = statewright(&["review", "list", "--all", "--json"], runs);
    assert!(text(&all.stdout).starts_with("[\n  {\n    \"") && text(&all.stdout).ends_with("}\n]\n"));
    let all: Value = serde_json::from_slice(&all.stdout).unwrap();
    let each: Vec<Value> = ids.iter().rev().map(|id| json(&["review", "show", id, "--json"])).collect();
    assert_eq!(all, Value::Array(each));
    let listed = all[2].clone();
    let shown = json(&["review", "show", &id, "--json"]);
    let summary = json(&["runs", "show", "r1", "--json"])["reviews"][0].clone();
    let mut expected = keys(&summary);
    expected.extend(["request".to_owned(), "screenshot".to_owned()]);
    expected.sort();
    assert_eq!(keys(&listed), expected, "{listed:#}");
    assert_eq!(keys(&shown), expected, "{shown:#}");
    for (key, value) in summary.as_object().unwrap() {
        assert_eq!(&shown[key], value, "{key}");
    }
    assert_eq!(shown["request"]["failure"], shown["failure"]);
    assert_eq!(
        expected,
        [
            "created_ms",
            "failure",
            "id",
            "proposed_by",
            "reason",
            "request",
            "resolution",
            "resolved_ms",
            "run_id",
            "saved_to",
            "screenshot",
            "state",
            "status",
            "step",
            "workflow",
            "workflow_path"
        ]
    );
}

/// `review list --all --json` prints every review whole without holding them all: 48
/// reviews of a megabyte each are listed within a data limit of 40 MB (reading them all
/// first needed more than 96 MB: the reviews, then their text).
#[test]
fn listing_every_review_as_json_holds_one_at_a_time() {
    use std::os::unix::process::CommandExt;

    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path();
    let (store, _run) = store_with_a_run(runs);
    let mut request = failed_click();
    // A megabyte of page in each request, as a review of a large page holds.
    request.states = (0..16_384).map(|i| format!("{i:0>60}")).collect();
    for _ in 0..48 {
        store.open_review("r1", &request).unwrap();
    }
    drop(store);

    let mut command = command(&["review", "list", "--all", "--json"], runs);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: 40 << 20, rlim_max: 40 << 20 };
            if libc::setrlimit(libc::RLIMIT_DATA, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.stderr(Stdio::piped()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 48);
    assert_eq!(listed[0]["request"]["states"][16_383], format!("{:0>60}", 16_383));
}

/// A review whose request this build cannot read (a store changed by hand, or by a tool
/// other than Statewright) is named in an error of its own: the JSON list stays a whole
/// list of the others, and the table lists it.
#[test]
fn a_review_that_cannot_be_read_is_named_and_the_others_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path();
    let (store, _run) = store_with_a_run(runs);
    let ids: Vec<i64> = (0..3).map(|_| store.open_review("r1", &failed_click()).unwrap()).collect();
    drop(store);
    let db = statewright_store::Store::default_path(runs);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("UPDATE review_items SET request = '{\"failure\": ' WHERE id = ?1", [ids[1]]).unwrap();
    drop(conn);

    let out = statewright(&["review", "list", "--all", "--json"], runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).expect("the list is whole");
    let listed: Vec<i64> = listed.as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(listed, [ids[2], ids[0]]);
    let unreadable = format!("review {} cannot be read", ids[1]);
    assert!(text(&out.stderr).contains(&unreadable), "{}", text(&out.stderr));

    let out = statewright(&["review", "show", &ids[1].to_string()], runs);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(&unreadable), "{}", text(&out.stderr));
    let out = statewright(&["review", "list", "--all"], runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).matches("r1").count(), 3, "{}", text(&out.stdout));
}
