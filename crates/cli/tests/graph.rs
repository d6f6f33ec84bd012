//! The graph's commands as a user runs them: `validate`'s findings, `paths`, and on real
//! Chromium `goto` (with replanning) and `run --resume` in a browser another session left
//! deep in the flow.

mod common;

use common::{Browser, Site, repo, statewright, text};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

const SHOP: &str = "workflows/demo-shop.json";

#[test]
fn validate_reports_graph_findings_at_the_state_and_strict_makes_them_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("flawed.json");
    std::fs::write(
        &file,
        r##"{
  "version": 1,
  "name": "flawed",
  "states": [
    { "name": "Done", "checks": [{ "type": "text", "value": "Done" }], "terminal": { "outcome": "success" } },
    {
      "name": "Orphan",
      "checks": [{ "type": "url", "value": "http://x/orphan" }],
      "actions": [{ "type": "click", "target": { "css": "#go" } }],
      "next": ["Done"]
    },
    {
      "name": "Start",
      "checks": [{ "type": "url", "value": "about:blank" }],
      "actions": [{ "type": "navigate_to", "url": "http://x/" }],
      "next": ["Done"]
    }
  ]
}
"##,
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = statewright(&["validate", path], dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains(&format!("{path}:6:5: warning: state `Orphan` cannot be reached")), "{stderr}");
    assert!(stderr.contains("help: add `Orphan` to the `next` of the state"), "{stderr}");

    let out = statewright(&["validate", "--json", path], dir.path());
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    let unreachable = found.as_array().unwrap().iter().find(|d| d["path"] == "states[1]").expect("positioned");
    assert_eq!((unreachable["line"].as_u64(), unreachable["severity"].as_str()), (Some(6), Some("warning")));
    assert!(unreachable["message"].as_str().unwrap().ends_with("[unreachable]"), "{unreachable}");

    let out = statewright(&["validate", "--strict", path], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("error: state `Orphan` cannot be reached"));
}

#[test]
fn paths_take_every_declared_edge_of_the_demo_workflow_and_each_path_is_a_workflow() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("paths");
    // An earlier go's path beyond this go's last is removed; the person's own files stay.
    std::fs::create_dir_all(&out_dir).unwrap();
    for kept in ["demo-shop.path-99.json", "demo-shop.path-099.json", "other.path-99.json", "demo-shop.path-9x.json"] {
        std::fs::write(out_dir.join(kept), "{}").unwrap();
    }
    let out = statewright(&["paths", SHOP, "--json", "--out", out_dir.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let stale = out_dir.join("demo-shop.path-99.json");
    assert!(!stale.exists(), "the earlier go's path 99 is still there");
    assert_eq!(report["removed"], serde_json::json!([stale.display().to_string()]));
    for kept in ["demo-shop.path-099.json", "other.path-99.json", "demo-shop.path-9x.json"] {
        assert!(out_dir.join(kept).exists(), "{kept} was removed");
    }
    let paths: Vec<Vec<String>> = serde_json::from_value(report["paths"].clone()).unwrap();
    // Every step of a path is an edge, and so is a detour into an interrupt (which the path
    // shows before going on from the state it interrupted).
    let taken: std::collections::HashSet<(String, String)> =
        paths.iter().flat_map(|p| p.windows(2).map(|w| (w[0].clone(), w[1].clone()))).collect();
    let workflow: Value = serde_json::from_str(&std::fs::read_to_string(repo().join(SHOP)).unwrap()).unwrap();
    let mut declared = 0;
    for state in workflow["states"].as_array().unwrap() {
        for next in state["next"].as_array().into_iter().flatten() {
            declared += 1;
            let edge = (state["name"].as_str().unwrap().to_owned(), next.as_str().unwrap().to_owned());
            assert!(taken.contains(&edge), "{edge:?} is on no path: {paths:?}");
        }
    }
    assert_eq!(report["unreachable"], serde_json::json!([]));
    assert_eq!((report["covered"].as_u64(), report["total"].as_u64()), (Some(declared), Some(declared)));
    assert!(paths.len() < declared as usize, "{} paths for {declared} edges", paths.len());
    let files: Vec<&str> = report["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(files.len(), paths.len());
    let mut args = vec!["validate", "--strict"];
    args.extend(&files);
    let out = statewright(&args, dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn goto_and_resume_carry_on_in_a_browser_left_deep_in_the_flow() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let site = Site::start();
    let browser = Browser::start(&dir.path().join("profile"));
    let site_param = format!("site={}", site.1);
    // Seed 5: the "What's new" interstitial follows the sign-in, off the planned route.
    let common = ["--cdp-url", browser.1.as_str(), "-p", site_param.as_str(), "-p", "seed=5", "--json"];
    let goto = |state: &str| {
        let mut args = vec!["goto", SHOP, state];
        args.extend(common);
        let out = statewright(&args, &runs);
        (out.status.code(), serde_json::from_slice::<Value>(&out.stdout).ok(), text(&out.stderr))
    };

    // One session walks the browser's tab to the cart and leaves it there.
    let (code, summary, stderr) = goto("Cart");
    assert_eq!(code, Some(0), "{stderr}");
    let summary = summary.unwrap();
    assert_eq!((summary["status"].as_str(), summary["end_state"].as_str()), (Some("succeeded"), Some("Cart")));
    assert!(stderr.contains("route: Start → Home page → Login page →"), "{stderr}");
    assert!(stderr.contains("replanned: What's new interstitial → Search page →"), "{stderr}");

    // Already there: the goal is recognised at once, nothing is done.
    let (code, summary, stderr) = goto("Cart");
    assert_eq!(code, Some(0), "{stderr}");
    let summary = summary.unwrap();
    assert_eq!((summary["steps"].as_u64(), summary["actions"].as_u64()), (Some(1), Some(0)), "{summary}");

    // Another carries on from the cart to the end of the purchase.
    let mut args = vec!["run", SHOP, "--resume"];
    args.extend(common);
    let out = statewright(&args, &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["end_state"], "Order confirmed");
    let id = summary["run_id"].as_str().unwrap();
    let shown = statewright(&["runs", "show", id, "--json"], &runs);
    let detail: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(detail["steps"][0]["state"], "Cart", "{detail}");

    // From a terminal state nothing leads back: a clear failure, quickly.
    let (code, summary, stderr) = goto("Home page");
    assert_eq!(code, Some(1), "{stderr}");
    let failure = &summary.unwrap()["failure"];
    assert_eq!(failure["kind"], "no_route", "{failure}");
    assert_eq!((failure["from"].as_str(), failure["to"].as_str()), (Some("Order confirmed"), Some("Home page")));
    assert!(stderr.contains("no known way from `Order confirmed` to `Home page`"), "{stderr}");
}

/// A goal that is no state of a big workflow, and close to none of its names, is refused
/// with a few of them, not all: the list of 3,000 names buried the error under 60 KB.
#[test]
fn goto_an_unknown_state_of_a_big_workflow_names_a_few_states_not_all() {
    let dir = tempfile::tempdir().unwrap();
    let mut states = vec![serde_json::json!({"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
        "actions": [{"type": "navigate_to", "url": "http://127.0.0.1:9/s1"}], "next": ["Step 1"]})];
    for i in 1..3000 {
        states.push(serde_json::json!({"name": format!("Step {i}"),
            "checks": [{"type": "url", "value": format!("http://127.0.0.1:9/s{i}")}],
            "actions": [{"type": "click", "target": {"css": "#next"}}], "next": [format!("Step {}", i + 1)]}));
    }
    states
        .push(serde_json::json!({"name": "Step 3000", "checks": [{"type": "url", "value": "http://127.0.0.1:9/end"}],
        "terminal": {"outcome": "success"}}));
    let file = common::write_workflow(dir.path(), &serde_json::json!({"version": 1, "name": "big", "states": states}));
    let (code, stderr) = common::in_time(&["goto", file.to_str().unwrap(), "Checkout"], dir.path());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("has no state `Checkout`; its states are `Start`, `Step 1`"), "{stderr}");
    assert!(stderr.contains(" and 2981 more"), "{stderr}");
    assert!(stderr.len() < 1000, "{} bytes: {}…", stderr.len(), &stderr[..300]);
}

/// `paths --out` of a workflow fanning out from its start into 5,000 states (as many paths)
/// writes them in seconds: each path's file was made from a clone of the whole workflow,
/// 5,000 × 5,000 states, 85 s in a debug build. Now ~12 s, most of it making 5,000 files
/// durable: the limit leaves a slow disk five times that, and the old way still fails it.
#[test]
fn paths_out_of_a_wide_workflow_writes_its_thousands_of_paths_in_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let wide: Vec<String> = (0..5000).map(|i| format!("Item {i}")).collect();
    let mut states = vec![serde_json::json!({"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
        "actions": [{"type": "navigate_to", "url": "http://127.0.0.1:9/"}], "next": wide})];
    for (i, name) in wide.iter().enumerate() {
        states.push(
            serde_json::json!({"name": name, "checks": [{"type": "url", "value": format!("http://127.0.0.1:9/{i}")}],
            "actions": [{"type": "click", "target": {"css": "#done"}}], "next": ["Done"]}),
        );
    }
    states.push(serde_json::json!({"name": "Done", "checks": [{"type": "url", "value": "http://127.0.0.1:9/done"}],
        "terminal": {"outcome": "success"}}));
    let file = common::write_workflow(dir.path(), &serde_json::json!({"version": 1, "name": "wide", "states": states}));
    let out_dir = dir.path().join("paths");
    // The 5,000 `wrote …` lines (~300 KB on stderr) are more than a pipe holds: `within`
    // reads them as they come (it read them at the end and the command blocked until killed).
    let args = ["paths", file.to_str().unwrap(), "--out", out_dir.to_str().unwrap()];
    let (code, stderr) = common::within(Duration::from_secs(60), &args, dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("workflow.path-5000.json"), "{}", &stderr[stderr.len().saturating_sub(300)..]);
    let last: Value = serde_json::from_slice(&std::fs::read(out_dir.join("workflow.path-5000.json")).unwrap()).unwrap();
    let names: Vec<&str> = last["states"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Start", "Item 4999", "Done"]);
    assert_eq!(last["states"][0]["next"], serde_json::json!(["Item 4999"]));
}

/// `paths --out` somewhere it cannot write is the person's to fix, exit 2 as README's table
/// has it for the files `compile` and `record` write: a file given as the folder, a path file
/// there that is a folder or a link to nothing. (They were exit 1, a file given as the folder
/// with the system's "File exists".)
#[test]
fn paths_out_where_nothing_can_be_written_is_exit_2_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let paths = |out: &Path| statewright(&["paths", SHOP, "--out", out.to_str().unwrap()], dir.path());
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "mine").unwrap();
    let out = paths(&file);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("notes.txt is not a folder: nothing was written"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    let gone = dir.path().join("gone");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &gone).unwrap();
    let out = paths(&gone);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("is a symbolic link to nothing"), "{}", text(&out.stderr));
    let folder = dir.path().join("out");
    std::fs::create_dir_all(folder.join("demo-shop.path-1.json")).unwrap();
    let out = paths(&folder);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("demo-shop.path-1.json is a folder"), "{}", text(&out.stderr));
}

/// A path file's run ends the first time it reaches the path's last state: a path that went
/// round a loop back to a state it passed (no terminal after it) ended there at once, its
/// loop never walked, while `paths` said every edge was taken. Such a path is cut after the
/// last state it reaches for the first time, and the edge back is named as one no test path
/// can end after.
#[test]
fn a_path_never_ends_at_a_state_it_passed_before() {
    let dir = tempfile::tempdir().unwrap();
    let state = |name: &str, next: &[&str]| {
        serde_json::json!({"name": name, "checks": [{"type": "url", "value": format!("http://127.0.0.1:9/{name}")}],
            "actions": [{"type": "click", "target": {"css": "#next"}}], "next": next})
    };
    let file = common::write_workflow(
        dir.path(),
        &serde_json::json!({"version": 1, "name": "loop", "states": [
            {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
             "actions": [{"type": "navigate_to", "url": "http://127.0.0.1:9/A"}], "next": ["A", "Done"]},
            state("A", &["B"]), state("B", &["A"]),
            {"name": "Done", "checks": [{"type": "url", "value": "http://127.0.0.1:9/Done"}], "terminal": {"outcome": "success"}}]}),
    );
    let out_dir = dir.path().join("paths");
    let out = statewright(&["paths", file.to_str().unwrap(), "--json", "--out", out_dir.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["paths"], serde_json::json!([["Start", "A", "B"], ["Start", "Done"]]), "{report}");
    assert_eq!(report["unended"], serde_json::json!([["B", "A"]]));
    assert_eq!((report["covered"].as_u64(), report["total"].as_u64()), (Some(3), Some(4)));
    // Every path's last state is in it once, so its file's run walks the whole path.
    for (path, file) in report["paths"].as_array().unwrap().iter().zip(report["files"].as_array().unwrap()) {
        let last = path.as_array().unwrap().last().unwrap();
        assert_eq!(path.as_array().unwrap().iter().filter(|s| *s == last).count(), 1, "{path}");
        let written: Value = serde_json::from_str(&std::fs::read_to_string(file.as_str().unwrap()).unwrap()).unwrap();
        let terminal: Vec<&Value> = written["states"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["terminal"].is_object())
            .map(|s| &s["name"])
            .collect();
        assert_eq!(terminal, [last], "{written}");
    }
    let out = statewright(&["paths", file.to_str().unwrap()], dir.path());
    assert!(text(&out.stderr).contains("no test path can end after `B` → `A`"), "{}", text(&out.stderr));
}

#[test]
fn validate_of_a_workflow_whose_states_all_lead_to_each_other_stays_small() {
    // 1,000 states, each declaring all 1,000 as next: a million edges. The graph named each
    // edge's two ends and was built twice, in a map: ~550 MB at its peak; ~140 MB now.
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..1000).map(|i| format!("State {i:04}")).collect();
    let mut states: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            serde_json::json!({"name": name, "checks": [{"type": "url", "value": format!("http://127.0.0.1:9/{i}")}],
                "actions": [{"type": "wait", "seconds": 0.1}], "next": names})
        })
        .collect();
    states.push(serde_json::json!({"name": "Done", "checks": [{"type": "text", "value": "Done"}], "terminal": {"outcome": "success"}}));
    let file =
        common::write_workflow(dir.path(), &serde_json::json!({"version": 1, "name": "dense", "states": states}));
    let stderr = std::fs::File::create(dir.path().join("stderr")).unwrap();
    #[expect(clippy::zombie_processes, reason = "reaped by wait4 below, which std cannot do")]
    let child = common::command(&["validate", file.to_str().unwrap()], dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    // wait4 gives this child's own peak resident set, whatever else the tests run.
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    let pid = child.id() as libc::pid_t;
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    let said = std::fs::read_to_string(dir.path().join("stderr")).unwrap();
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{said}");
    assert!(said.contains("state `State 0999` cannot be reached"), "{}", &said[..said.len().min(2000)]);
    assert!(said.contains("(native, 1001 states)"), "{}", &said[said.len().saturating_sub(2000)..]);
    let peak_mb = usage.ru_maxrss / 1024;
    assert!(peak_mb < 300, "validate peaked at {peak_mb} MB");
}
