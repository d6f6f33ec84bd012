//! The `statewright` binary as a user or a CI job meets it: exit codes, messages, the
//! `--json` summary and the run folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("../..")
}

fn statewright(args: &[&str], runs: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_statewright"))
        .args(args)
        .current_dir(repo())
        .env("STATEWRIGHT_RUNS_DIR", runs)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn validate_accepts_the_bundled_workflows() {
    let runs = tempfile::tempdir().unwrap();
    let out = statewright(
        &[
            "validate",
            "workflows/demo-shop.json",
            "workflows/desktop-xterm.json",
            "tests/fixtures/foreign/workflow.json",
            "tests/fixtures/foreign/workflow-array.json",
        ],
        runs.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("ok: workflows/demo-shop.json (native"), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("(CliGent"), "{}", text(&out.stderr));
}

#[test]
fn validate_reports_file_line_and_column_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    std::fs::write(&file, "[\n  {\"name\": \"a\", \"checks\": [{\"type\": \"url\", \"value\": \"x\"}],\n   \"actions\": [\"clickk(selector='#a')\"]}\n]\n").unwrap();
    let out = statewright(&["validate", file.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bad.json:3:17: error: unknown action `clickk`"), "{stderr}");
    assert!(stderr.contains("did you mean `click`"), "{stderr}");
    assert!(stderr.contains("no terminal state"), "all errors are reported: {stderr}");

    let out = statewright(&["validate", "--json", file.to_str().unwrap()], dir.path());
    let diagnostics: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON diagnostics");
    assert_eq!(diagnostics[0]["line"], 3);
    assert_eq!(diagnostics[0]["column"], 17);
}

#[test]
fn missing_files_and_bad_usage_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = statewright(&["validate", "no/such/file.json"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read the workflow file"));
    let out = statewright(&["run"], dir.path());
    assert_eq!(out.status.code(), Some(2), "clap usage errors exit 2");
    let out = statewright(&["run", "workflows/demo-shop.json", "--param", "nope=1"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown parameter `nope`"), "{}", text(&out.stderr));
}

#[test]
fn convert_writes_the_native_form_which_loads_again() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("converted.json");
    let out = statewright(&["convert", "tests/fixtures/foreign/workflow.json", out_file.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let converted = std::fs::read_to_string(&out_file).unwrap();
    assert!(converted.contains("\"version\": 1"));
    assert!(!converted.contains("click(by="), "call strings become typed actions");
    let out = statewright(&["validate", out_file.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn schema_prints_the_committed_schema() {
    let dir = tempfile::tempdir().unwrap();
    let out = statewright(&["schema"], dir.path());
    let committed = std::fs::read_to_string(repo().join("schema/workflow.schema.json")).unwrap();
    assert_eq!(text(&out.stdout), committed);
}

#[test]
fn the_demo_runs_to_success_with_a_json_summary_and_a_run_folder() {
    let runs = tempfile::tempdir().unwrap();
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=5", "--json"], runs.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object on stdout");
    assert_eq!(summary["status"], "succeeded");
    assert_eq!(summary["end_state"], "Order confirmed");
    assert_eq!(summary["llm_calls"], 0);
    assert!(summary["duration_ms"].as_u64().unwrap() > 0);
    assert!(stderr.contains("▸ Login page"), "progress names the states: {stderr}");

    let run_dir = runs.path().join(summary["run_id"].as_str().unwrap());
    let timeline: serde_json::Value =
        serde_json::from_slice(&std::fs::read(run_dir.join("timeline.json")).unwrap()).unwrap();
    assert_eq!(timeline["status"], "succeeded");
    let entries = timeline["timeline"].as_array().unwrap();
    assert!(entries.len() >= 8, "one entry per action");
    for entry in entries {
        for field in ["action_step", "timestamp", "action_type", "action", "state", "duration_ms"] {
            assert!(entry.get(field).is_some(), "timeline entries have `{field}`: {entry}");
        }
    }
    let shots: Vec<u64> = std::fs::read_dir(&run_dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().extension().is_some_and(|x| x == "jpg" || x == "png"))
        .map(|e| e.metadata().unwrap().len())
        .collect();
    assert!(shots.len() >= 5, "step screenshots are kept ({} found)", shots.len());
    let average = shots.iter().sum::<u64>() / shots.len() as u64;
    assert!(average < 80_000, "step screenshots are stored compressed (average {average} bytes)");
    let everything: String = std::fs::read_dir(&run_dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default())
        .collect();
    assert!(
        !everything.contains("correct horse battery staple"),
        "the secret password appears nowhere in the run folder"
    );
}

#[test]
fn a_failed_run_exits_1_and_says_why() {
    let runs = tempfile::tempdir().unwrap();
    let out = statewright(
        &["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=2", "-p", "password=wrong", "--json"],
        runs.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["status"], "failed");
    assert_eq!(summary["end_state"], "Login error");
    assert!(text(&out.stderr).contains("✗ failed"));
}

#[test]
fn a_desktop_workflow_without_a_display_exits_1_saying_so() {
    let runs = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_statewright"))
        .args(["run", "workflows/desktop-xterm.json"])
        .current_dir(repo())
        .env("STATEWRIGHT_RUNS_DIR", runs.path())
        .env("NO_COLOR", "1")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no X display"), "{}", text(&out.stderr));
}

#[test]
fn the_desktop_workflow_runs_to_success_on_a_display() {
    if std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "SKIP: no X display; run under scripts/with-display");
        return;
    }
    let has_xterm =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("xterm").is_file()));
    if !has_xterm {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "SKIP: xterm is not installed");
        return;
    }
    let runs = tempfile::tempdir().unwrap();
    // A title of its own, so no other test's terminal is mistaken for this one.
    let out = statewright(
        &["run", "workflows/desktop-xterm.json", "-p", "title=Statewright CLI test", "--json"],
        runs.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["end_state"], "Title changed");
}

#[test]
fn twenty_rounds_of_a_button_made_anew_trip_no_breaker() {
    // The reaction page makes a new button each round: clicking it twenty times is progress,
    // not the `same_target` loop (limit 8) it would be on one and the same element.
    let runs = tempfile::tempdir().unwrap();
    let out = statewright(&["run", "workflows/demo-rounds.json", "--demo-site", "--no-review", "--json"], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let saved = runs.path().join(summary["run_id"].as_str().unwrap()).join("rounds.html");
    let page = std::fs::read_to_string(saved).expect("the final page is saved");
    assert!(page.contains("&quot;rounds&quot;:20") || page.contains("\"rounds\":20"), "{page}");
}
