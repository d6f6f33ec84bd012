//! Running the real `statewright` binary from the repository root, with its own runs folder.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub fn repo() -> PathBuf {
    Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("../..")
}

pub fn command(args: &[&str], runs: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_statewright"));
    cmd.args(args)
        .current_dir(repo())
        .env("STATEWRIGHT_RUNS_DIR", runs)
        .env_remove("STATEWRIGHT_DB")
        // No model unless a test configures one: a developer's own settings stay out.
        .env_remove("STATEWRIGHT_LLM_URL")
        .env_remove("STATEWRIGHT_LLM_MODEL")
        .env_remove("STATEWRIGHT_LLM_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("STATEWRIGHT_LLM_CA_CERT")
        .env("STATEWRIGHT_CONFIG_DIR", runs.join("no-config"))
        .env("NO_COLOR", "1");
    cmd
}

pub fn statewright(args: &[&str], runs: &Path) -> Output {
    command(args, runs).output().unwrap()
}

/// `statewright args`, which must end within 20 seconds (killed, and the test failed,
/// otherwise: a command that would wait for ever must not hang the tests): its exit code
/// and stderr.
pub fn in_time(args: &[&str], runs: &Path) -> (Option<i32>, String) {
    within(Duration::from_secs(20), args, runs)
}

/// As [`in_time`], within `limit`. Stderr is read as it comes: a command that writes more
/// than a pipe holds (64 KB) must not block on it until the limit.
pub fn within(limit: Duration, args: &[&str], runs: &Path) -> (Option<i32>, String) {
    let mut child = command(args, runs).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut bytes).map(|_| bytes)
    });
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`statewright {}` was still running after {limit:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = child.wait().unwrap();
    (status.code(), text(&reader.join().unwrap().unwrap()))
}

/// A named pipe at `path`: opened by a reader or a writer that does not check, it waits for
/// the other end for ever.
pub fn fifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success(), "mkfifo {}", path.display());
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every file under `dir`, in order (none when it does not exist).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() { out.extend(files_under(&p)) } else { out.push(p) }
    }
    out.sort();
    out
}

/// Writes `workflow` as `workflow.json` in `dir`; its path.
pub fn write_workflow(dir: &Path, workflow: &Value) -> PathBuf {
    let path = dir.join("workflow.json");
    std::fs::write(&path, serde_json::to_vec_pretty(workflow).unwrap()).unwrap();
    path
}

/// A Chromium another session drives, with its DevTools address.
pub struct Browser(pub Child, pub String);

impl Browser {
    pub fn start(profile: &std::path::Path) -> Self {
        // What a test's person downloads stays in the test's folder, not the home folder.
        let settings = profile.join("Default");
        std::fs::create_dir_all(&settings).unwrap();
        let downloads = serde_json::json!({"download": {"default_directory": profile.join("Downloads")}});
        std::fs::write(settings.join("Preferences"), downloads.to_string()).unwrap();
        let mut child =
            Command::new(std::env::var("STATEWRIGHT_CHROME").unwrap_or_else(|_| "/usr/bin/chromium".into()))
                .args([
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--no-first-run",
                    "--disable-background-networking",
                ])
                .args(["--remote-debugging-port=0", &format!("--user-data-dir={}", profile.display()), "about:blank"])
                .stderr(Stdio::piped())
                .spawn()
                .expect("start chromium");
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let ws = stderr
            .lines()
            .map_while(Result::ok)
            .find_map(|line| line.split_once("DevTools listening on ").map(|(_, url)| url.trim().to_owned()))
            .expect("chromium prints its DevTools address");
        Self(child, ws)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The demo site on a free port, served by `statewright demo-site`.
pub struct Site(pub Child, pub String);

impl Site {
    pub fn start() -> Self {
        Self::serving(&[])
    }

    /// A folder of pages of one's own (`demo-site --dir`) instead of the demo site.
    pub fn dir(dir: &Path) -> Self {
        Self::serving(&["--dir", &dir.display().to_string()])
    }

    fn serving(extra: &[&str]) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let port_arg = port.to_string();
        let args: Vec<&str> = ["demo-site", "--port", &port_arg].into_iter().chain(extra.iter().copied()).collect();
        let mut child = command(&args, std::path::Path::new("/tmp")).stderr(Stdio::piped()).spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
        assert!(line.contains("serving on"), "{line}");
        Self(child, format!("http://127.0.0.1:{port}"))
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn open_reviews(runs: &Path) -> Vec<Value> {
    if !runs.join("statewright.db").exists() {
        return Vec::new(); // nothing has run yet
    }
    let out = statewright(&["review", "list", "--json"], runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

/// Waits until the run asks for a review (and returns it), or fails if the run ends first.
pub fn wait_for_review(runs: &Path, run: &mut Child, not: &[i64]) -> Value {
    let started = Instant::now();
    loop {
        if let Some(item) = open_reviews(runs).into_iter().find(|r| !not.contains(&r["id"].as_i64().unwrap())) {
            return item;
        }
        if let Some(status) = run.try_wait().unwrap() {
            panic!("the run ended ({status}) without asking for a review");
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = run.kill(); // not left running (with its browser) after the test
            panic!("no review requested within 2 minutes");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}
