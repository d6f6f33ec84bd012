//! Defects found by probing the CLI as a new user and as an attacker would, each pinned by
//! a test that failed before its fix: file names from parameters, pruning live runs,
//! secrets in element snapshots and file names, review answers naming unknown states, a
//! closed stdout or stderr, terminal escapes in data, a window without a display, outputs
//! that would overwrite their inputs, and flags without help (attaching: `attaching.rs`).

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{command, files_under, repo, statewright, text, write_workflow};
use serde_json::{Value, json};

#[test]
fn a_file_name_built_from_a_parameter_cannot_leave_the_run_folder() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = write_workflow(
        dir.path(),
        &json!({"version": 1, "name": "escape", "parameters": {"p": {"default": "page.html"}},
            "states": [{"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
                        "actions": [{"type": "save_html", "filename": "{{p}}"}],
                        "terminal": {"outcome": "success"}}]}),
    );
    let outside = dir.path().join("escaped.html");
    for value in ["../../escaped.html", outside.to_str().unwrap(), "sub/dir.html", ".hidden"] {
        let out = statewright(&["run", workflow.to_str().unwrap(), "-p", &format!("p={value}")], &runs);
        assert_eq!(out.status.code(), Some(2), "`{value}` is refused as input: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("not a plain file name"), "{}", text(&out.stderr));
    }
    assert!(!outside.exists(), "nothing was written outside the run folder");
    assert!(files_under(&runs).iter().all(|p| p.extension().is_none_or(|e| e != "html")), "nor inside");
}

#[test]
fn secrets_shown_by_the_page_stay_out_of_snapshots_exports_and_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // The demo site greets the signed-in user by name on every page after the login.
    let mut workflow: Value =
        serde_json::from_slice(&std::fs::read(repo().join("workflows/demo-shop.json")).unwrap()).unwrap();
    workflow["parameters"]["username"]["secret"] = json!(true);
    let confirmed =
        workflow["states"].as_array_mut().unwrap().iter_mut().find(|s| s["name"] == "Order confirmed").unwrap();
    confirmed["actions"] = json!([{"type": "screenshot", "filename": "shot-{{username}}.png"}]);
    let workflow = write_workflow(dir.path(), &workflow);
    let out = statewright(&["run", workflow.to_str().unwrap(), "--demo-site", "-p", "seed=5", "--json"], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["run_id"].as_str().unwrap().to_owned();
    let export = dir.path().join("export");
    assert_eq!(statewright(&["runs", "export", &id, export.to_str().unwrap()], &runs).status.code(), Some(0));
    let shown = statewright(&["runs", "show", &id, "--json"], &runs);
    assert!(!text(&shown.stdout).contains("Signed in as demo"));
    assert!(text(&shown.stdout).contains("Signed in as"), "the greeting is recorded, masked");
    let mut files = files_under(&runs);
    files.extend(files_under(&export));
    assert!(files.iter().any(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("shot-"))));
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.contains("demo"), "a file is named after the secret: {}", path.display());
        let bytes = std::fs::read(&path).unwrap();
        let needle = b"Signed in as demo";
        assert!(!bytes.windows(needle.len()).any(|w| w == needle), "{} shows the secret", path.display());
    }
}

/// A run that cannot get past its first page and waits for a person.
fn waiting_run(dir: &Path, runs: &Path) -> (Child, i64) {
    let workflow = write_workflow(
        dir,
        &json!({"version": 1, "name": "stuck", "parameters": {"site": {"default": "http://127.0.0.1:1"}},
            "config": {"no_states_timeout": 1, "verify_timeout": 1, "escalation": ["human"]},
            "states": [
                {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
                 "actions": [{"type": "navigate_to", "url": "{{site}}/index.html"}]},
                {"name": "Never", "checks": [{"type": "text", "value": "this text is on no page"}],
                 "terminal": {"outcome": "success"}}]}),
    );
    let mut child = command(&["run", workflow.to_str().unwrap(), "--demo-site"], runs)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let review = loop {
        let out = statewright(&["review", "list", "--json"], runs);
        let items: Value = serde_json::from_slice(&out.stdout).unwrap_or(json!([]));
        if let Some(id) = items.as_array().and_then(|a| a.first()).and_then(|i| i["id"].as_i64()) {
            break Some(id);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    match review {
        Some(id) => (child, id),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the run never asked for a review");
        }
    }
}

#[test]
fn pruning_keeps_runs_that_wait_for_a_person_and_unknown_states_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let (mut child, review) = waiting_run(dir.path(), &runs);

    let out = statewright(&["runs", "prune", "--keep", "0"], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed: Value = serde_json::from_slice(&statewright(&["runs", "list", "--json"], &runs).stdout).unwrap();
    assert_eq!(listed[0]["status"], "needs_human_review", "the waiting run is kept: {listed}");

    let out = statewright(
        &[
            "review",
            "resolve",
            &review.to_string(),
            "new-state",
            "--state",
            "Somewhere",
            "--before",
            "Nowhere",
            "--check",
            r#"{"type":"url","match":"prefix","value":"http"}"#,
        ],
        &runs,
    );
    assert_eq!(out.status.code(), Some(2), "an unknown --before is refused: {}", text(&out.stderr));
    assert!(text(&out.stderr).contains("Nowhere"), "{}", text(&out.stderr));
    let open: Value = serde_json::from_slice(&statewright(&["review", "list", "--json"], &runs).stdout).unwrap();
    assert_eq!(open[0]["id"], review, "the review is still open and the run still waits");

    let out = statewright(&["review", "resolve", &review.to_string(), "abort"], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(child.wait().unwrap().code(), Some(1), "the aborted run fails");
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let states: Vec<Value> = (0..3000)
        .map(|i| json!({"name": format!("State {i}"), "checks": [{"type": "text", "value": format!("page {i}")}]}))
        .chain([json!({"name": "End", "checks": [{"type": "url", "value": "about:blank"}], "terminal": {"outcome": "success"}})])
        .collect();
    let workflow = write_workflow(dir.path(), &json!({"version": 1, "name": "big", "states": states}));
    let mut child = command(&["convert", workflow.to_str().unwrap(), "-"], dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The reading end is closed here, with most of the output unread.
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(141), "{stderr}");
}

/// A tmpfs at a fresh folder (with mount `options`, e.g. `size=400k`), unmounted on drop;
/// `None` where mounting is not allowed (not root, or no such file system).
struct Tmpfs(tempfile::TempDir);

impl Tmpfs {
    fn mount(options: &str) -> Option<Self> {
        let dir = tempfile::tempdir().ok()?;
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .ok()?
            .success();
        mounted.then(|| Self(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(self.0.path()).status();
    }
}

#[test]
fn a_disk_that_fills_up_mid_run_fails_the_run_loudly() {
    // Room for the store and the first steps, not for the whole run's screenshots.
    let Some(disk) = Tmpfs::mount("size=400k") else {
        eprintln!("SKIP: cannot mount a tmpfs here (needs root)");
        return;
    };
    let runs = disk.0.path();
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=5", "--json"], runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "a run the store could not keep is not a success: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).expect("a summary even so");
    assert_eq!(summary["status"], "failed", "{summary}");
    assert_eq!(summary["failure"]["kind"], "record", "{summary}");
}

#[test]
fn a_temp_folder_that_may_not_run_programs_still_launches_chromium() {
    // The launcher that makes Chromium die with its run is a script in the profile folder;
    // where the temp folder is mounted `noexec`, Chromium starts without it.
    let Some(noexec) = Tmpfs::mount("noexec,size=300m") else {
        eprintln!("SKIP: cannot mount a tmpfs here (needs root)");
        return;
    };
    let runs = tempfile::tempdir().unwrap();
    let out = command(&["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=3"], runs.path())
        .env("TMPDIR", noexec.0.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// A workflow that needs no site: it shows `{{q}}` on a `data:` page and reads it back.
fn shown_workflow(dir: &Path) -> PathBuf {
    write_workflow(
        dir,
        &json!({"version": 1, "name": "shown", "parameters": {"q": {"default": "x"}},
            "config": {"state_timeout": 10, "no_states_timeout": 10},
            "states": [
                {"name": "Shown", "checks": [{"type": "element", "selector": "#v"}],
                 "actions": [{"type": "extract", "target": {"css": "#v"}, "into": "out"}],
                 "terminal": {"outcome": "success", "message": "read {{q}}"}},
                {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
                 "actions": [{"type": "navigate_to", "url": "data:text/html,<p id=v>{{q}}</p>"}],
                 "next": ["Shown"]}]}),
    )
}

/// The runs in the store, as `runs list --json` gives them.
fn runs_listed(runs: &Path) -> Vec<Value> {
    let out = statewright(&["runs", "list", "--json"], runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

/// Runs `args` with a stderr pipe whose reading end is closed as soon as it starts (as
/// `2>&1 | head -1` closes it): its exit code and stdout.
fn with_stderr_closed(args: &[&str], runs: &Path) -> (Option<i32>, Vec<u8>) {
    let mut child = command(args, runs).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stderr.take());
    let mut stdout = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut stdout).unwrap();
    (child.wait().unwrap().code(), stdout)
}

#[test]
fn a_closed_stderr_neither_panics_nor_stops_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // Far more diagnostics than a pipe holds.
    let states: Vec<Value> =
        (0..3000).map(|i| json!({"name": format!("S{i}"), "checks": [{"type": "urll", "value": "x"}]})).collect();
    let many = dir.path().join("many.json");
    std::fs::write(&many, json!({"version": 1, "name": "many", "states": states}).to_string()).unwrap();
    let (code, _) = with_stderr_closed(&["validate", many.to_str().unwrap()], &runs);
    assert_eq!(code, Some(2), "the workflow is invalid, and that is all (101 is a panic)");

    // A batch goes through every row and records them all.
    let workflow = shown_workflow(dir.path());
    let data = dir.path().join("rows.csv");
    std::fs::write(&data, "q\nA\nB\nC\n").unwrap();
    let (code, stdout) = with_stderr_closed(
        &["batch", workflow.to_str().unwrap(), "--data", data.to_str().unwrap(), "--no-review", "--json"],
        &runs,
    );
    assert_eq!(code, Some(0), "{}", text(&stdout));
    let report: Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(report["succeeded"], 3, "{report:#}");
    let csv = std::fs::read_to_string(dir.path().join("rows.results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "a header and every row: {csv}");
    assert!(csv.lines().skip(1).all(|row| row.contains(",succeeded,")), "{csv}");

    // So does a single run.
    let (code, _) = with_stderr_closed(&["run", workflow.to_str().unwrap(), "--no-review"], &runs);
    assert_eq!(code, Some(0));
    let listed = runs_listed(&runs);
    assert_eq!(listed.len(), 4, "{listed:#?}");
    assert!(listed.iter().all(|r| r["status"] == "succeeded"), "none is left interrupted: {listed:#?}");
}

#[test]
fn control_characters_from_data_are_shown_escaped_on_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let workflow = shown_workflow(dir.path());
    let evil = "A\x1b]0;PWNED\x07\x1b[31mRED\x1b[0m\r";
    let out = statewright(&["run", workflow.to_str().unwrap(), "-p", &format!("q={evil}"), "--json"], &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for control in ['\x1b', '\x07', '\r'] {
        assert!(!stderr.contains(control), "{control:?} reached the terminal raw: {stderr:?}");
    }
    // The navigation (its URL), the extracted value and the closing message, each escaped as
    // JSON escapes it.
    let escaped = "A\\u001b]0;PWNED\\u0007\\u001b[31mRED";
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains(escaped)).collect();
    assert!(lines.iter().any(|l| l.contains("navigate_to")), "{stderr}");
    assert!(lines.iter().any(|l| l.contains("succeeded at `Shown`: read")), "{stderr}");
    // The --json summary keeps the value as it is (JSON escapes it itself).
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["outputs"]["out"], "A\x1b]0;PWNED\x07\x1b[31mRED\x1b[0m", "{summary:#}");

    let id = summary["run_id"].as_str().unwrap();
    let shown = statewright(&["runs", "show", id], &runs);
    assert_eq!(shown.status.code(), Some(0), "{}", text(&shown.stderr));
    assert!(!shown.stdout.contains(&0x1b), "{}", text(&shown.stdout));
    assert!(text(&shown.stdout).contains("\\u001b"), "{}", text(&shown.stdout));
}

#[test]
fn a_browser_window_without_a_display_is_a_usage_error() {
    let runs = tempfile::tempdir().unwrap();
    for args in [
        &["run", "workflows/demo-shop.json", "--demo-site", "--headed"][..],
        &["goto", "workflows/demo-shop.json", "Order confirmed", "--headed"],
        &["batch", "workflows/demo-shop.json", "--data", "no-such-rows.csv", "--headed"],
        &["agent", "--goal", "buy", "--url", "about:blank", "--headed"],
        &["record", "about:blank"],
    ] {
        let out = command(args, runs.path()).env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("statewright: no display to show the browser on"), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "no Chromium output: {stderr}");
    }
    assert!(!runs.path().join("statewright.db").exists(), "nothing ran");
}

#[test]
fn convert_does_not_write_over_its_input_unless_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let cligent = repo().join("tests/fixtures/foreign/workflow.json");
    let input = dir.path().join("flow.json");
    std::fs::copy(&cligent, &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let same = dir.path().join("sub/../flow.json");
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    for output in [&input, &same, &link] {
        let out = statewright(&["convert", input.to_str().unwrap(), output.to_str().unwrap()], dir.path());
        assert_eq!(out.status.code(), Some(2), "{}: {}", output.display(), text(&out.stderr));
        assert!(text(&out.stderr).contains("is the input file"), "{}", text(&out.stderr));
        assert_eq!(std::fs::read(&input).unwrap(), before, "the source is untouched");
    }
    let out = statewright(&["convert", "--in-place", input.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let native: Value = serde_json::from_slice(&std::fs::read(&input).unwrap()).unwrap();
    assert_eq!(native["version"], 1, "rewritten in the native format: {native:#}");
}

#[test]
fn runs_export_does_not_write_into_a_folder_with_files_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let out = statewright(&["run", shown_workflow(dir.path()).to_str().unwrap(), "--json"], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["run_id"].as_str().unwrap().to_owned();
    let export = dir.path().join("export");
    std::fs::create_dir(&export).unwrap();
    std::fs::write(export.join("timeline.json"), "mine").unwrap();
    let out = statewright(&["runs", "export", &id, export.to_str().unwrap()], &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("is not empty"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(export.join("timeline.json")).unwrap(), "mine");
    // --force replaces an earlier export only: this timeline.json is not one, and stays.
    let out = statewright(&["runs", "export", &id, export.to_str().unwrap(), "--force"], &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("its timeline.json is not an export's"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(export.join("timeline.json")).unwrap(), "mine");
    std::fs::remove_file(export.join("timeline.json")).unwrap();
    for force in [false, true] {
        let args = ["runs", "export", &id, export.to_str().unwrap(), "--force"];
        let out = statewright(&args[..if force { 5 } else { 4 }], &runs);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    // An empty folder, or none, needs no --force.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    for to in [empty, dir.path().join("new")] {
        let out = statewright(&["runs", "export", &id, to.to_str().unwrap()], &runs);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
}

/// The subcommands of `path` (as `statewright PATH --help` lists them) and their help texts.
fn help_pages(path: &mut Vec<String>, pages: &mut Vec<(String, String)>) {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let out = statewright(&args, Path::new("/tmp"));
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    let help = text(&out.stdout);
    let subcommands: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|name| name != "help")
        .collect();
    pages.push((path.join(" "), help));
    for name in subcommands {
        path.push(name);
        help_pages(path, pages);
        path.pop();
    }
}

#[test]
fn every_json_flag_says_what_it_does() {
    let mut pages = Vec::new();
    help_pages(&mut Vec::new(), &mut pages);
    assert!(
        pages.iter().any(|(path, _)| path == "skills mine"),
        "{:?}",
        pages.iter().map(|p| &p.0).collect::<Vec<_>>()
    );
    let mut bare = Vec::new();
    for (path, help) in &pages {
        for line in help.lines().filter(|l| l.trim_start().starts_with("--json")) {
            if line.trim() == "--json" {
                bare.push(path.clone());
            }
        }
    }
    assert!(bare.is_empty(), "--json without help in: {bare:?}");
}
