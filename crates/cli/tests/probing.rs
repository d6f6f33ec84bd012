//! Defects found by probing the CLI as a new user and as an attacker would, each pinned by
//! a test that failed before its fix: file names from parameters, pruning live runs,
//! secrets in element snapshots and file names, review answers naming unknown states, and
//! a closed pipe.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{command, repo, statewright, text};
use serde_json::{Value, json};

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() { out.extend(files_under(&p)) } else { out.push(p) }
    }
    out
}

fn write_workflow(dir: &Path, workflow: &Value) -> PathBuf {
    let path = dir.join("workflow.json");
    std::fs::write(&path, serde_json::to_vec_pretty(workflow).unwrap()).unwrap();
    path
}

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

/// A loopback endpoint that accepts connections and never answers.
fn silent_endpoint() -> (std::net::TcpListener, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    (listener, url)
}

#[test]
fn a_cdp_endpoint_that_never_answers_fails_in_bounded_time_and_a_malformed_one_is_exit_2() {
    let runs = tempfile::tempdir().unwrap();
    let (_listener, url) = silent_endpoint();
    let began = Instant::now();
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", &url], runs.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("did not answer as a DevTools endpoint"), "{}", text(&out.stderr));
    assert!(began.elapsed() < Duration::from_secs(60), "bounded: {:?}", began.elapsed());

    for (bad, why) in [
        ("127.0.0.1:9222", "expected http://HOST:PORT"),
        ("ftp://127.0.0.1:9222", "the scheme must be"),
        ("http://127.0.0.1:notaport", "`notaport` is not a port number"),
        ("ws://[::1", "`[::1` is not a bracketed IPv6 address"),
        ("ws://[::1]junk:9222/devtools", "is not a bracketed IPv6 address"),
        ("ws://bad host:9222", "`bad host` is not a host name"),
    ] {
        let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", bad], runs.path());
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("not a DevTools endpoint URL"), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains(why), "{bad}: {}", text(&out.stderr));
    }
}

/// A loopback endpoint whose `/json/version` reply never ends.
fn endless_endpoint() -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let mut stream = &stream;
                let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{\"Browser\": \"");
                let chunk = vec![b'x'; 64 * 1024];
                while stream.write_all(&chunk).is_ok() {}
            });
        }
    });
    url
}

#[test]
fn a_cdp_endpoint_whose_version_reply_never_ends_is_cut_off() {
    let runs = tempfile::tempdir().unwrap();
    let url = endless_endpoint();
    let began = Instant::now();
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", &url], runs.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("/json/version reply is larger than"), "{stderr}");
    assert!(began.elapsed() < Duration::from_secs(30), "not the attach budget: {:?}", began.elapsed());
}

#[test]
fn ctrl_c_while_attaching_exits_130() {
    let runs = tempfile::tempdir().unwrap();
    let (listener, url) = silent_endpoint();
    let child = command(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", &url], runs.path())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Signalled once it is attaching (its connection has come), not after a guess at how
    // long start-up takes: on a loaded machine 1.5 s was before the handler was in place.
    listener.set_nonblocking(true).unwrap();
    let began = Instant::now();
    let _connection = loop {
        match listener.accept() {
            Ok((stream, _)) => break stream,
            Err(_) if began.elapsed() < Duration::from_secs(60) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("the run never connected: {e}"),
        }
    };
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
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
