//! The run store through the real `statewright` binary: crash safety, parallel runs,
//! secrets, export, prune and bad input.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;
use rusqlite::{Connection, OpenFlags};
use serde_json::Value;

fn list(runs: &Path) -> Vec<Value> {
    let out = statewright(&["runs", "list", "--json"], runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

/// The `--user-data-dir` of the Chromium that process `parent` started.
fn browser_profile_of(parent: u32) -> Option<String> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // pid (comm) state ppid …: the command name may hold spaces, so split after ')'.
        let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
        if ppid != Some(parent) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let profile = String::from_utf8_lossy(&cmdline)
            .split('\0')
            .find_map(|arg| arg.strip_prefix("--user-data-dir=").map(str::to_owned));
        if profile.is_some() {
            return profile;
        }
    }
    None
}

/// Live processes whose command line names `profile`.
fn processes_using(profile: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().chars().all(|c| c.is_ascii_digit()))
        .filter(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            // Zombies are dead already; they only wait to be reaped by their parent.
            let zombie = stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
            !zombie && String::from_utf8_lossy(&cmdline).contains(profile)
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(dir).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect()
}

#[test]
fn a_run_killed_with_sigkill_leaves_a_consistent_database_and_shows_interrupted() {
    let runs = tempfile::tempdir().unwrap();
    let db = runs.path().join("statewright.db");
    let mut child = command(&["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=1"], runs.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let run_id = loop {
        assert!(Instant::now() < deadline, "the run never reached 2 steps");
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be killed");
        if db.exists()
            && let Ok(c) = Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY)
        {
            let _ = c.busy_timeout(Duration::from_secs(5));
            let row: Option<(String, i64)> = c
                .query_row(
                    "SELECT id, (SELECT count(*) FROM steps WHERE run_id = runs.id) FROM runs WHERE status = 'running'",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .ok();
            if let Some((id, steps)) = row
                && steps >= 2
            {
                break id;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let profile = browser_profile_of(child.id()).expect("the run's Chromium and its profile");
    // SAFETY: kill on the pid of our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGKILL) }, 0);
    child.wait().unwrap();
    // Its Chromium dies with it, every process of it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !processes_using(&profile).is_empty() {
        assert!(Instant::now() < deadline, "Chromium outlived the killed run: {:?}", processes_using(&profile));
        std::thread::sleep(Duration::from_millis(100));
    }
    // The database must be consistent regardless.
    {
        let c = Connection::open(&db).unwrap();
        let ok: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
        assert_eq!(ok, "ok");
        let fk: i64 = c.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| r.get(0)).unwrap();
        assert_eq!(fk, 0);
    }
    let listed = list(runs.path());
    let run = listed.iter().find(|r| r["id"] == run_id.as_str()).expect("the run is listed");
    assert_eq!(run["status"], "interrupted", "{run}");
    assert!(run["steps"].as_i64().unwrap() >= 2);
    let out = statewright(&["runs", "list", "--status", "interrupted"], runs.path());
    assert!(text(&out.stdout).contains(&run_id));
    assert!(run["duration_ms"].as_i64().is_some(), "an interrupted run has a duration: {run}");
    let out = statewright(&["runs", "show", &run_id], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("interrupted"));
    // The next launch of a browser cleans the dead one's profile (once it is a minute old:
    // a younger one may belong to a run that is starting).
    assert!(Path::new(&profile).exists(), "nothing cleans it before");
    let touched = std::process::Command::new("touch").args(["-d", "2 minutes ago", &profile]).status().unwrap();
    assert!(touched.success());
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=1"], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!Path::new(&profile).exists(), "the stale profile {profile} is cleaned at the next launch");
}

#[test]
fn parallel_runs_are_all_recorded_then_shown_exported_and_pruned() {
    let runs = tempfile::tempdir().unwrap();
    let children: Vec<_> = ["seed=3", "seed=4"]
        .iter()
        .map(|seed| {
            command(&["run", "workflows/demo-shop.json", "--demo-site", "-p", seed, "--json"], runs.path())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut ids = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(!text(&out.stderr).contains("locked"), "{}", text(&out.stderr));
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
        ids.push(summary["run_id"].as_str().unwrap().to_owned());
    }
    let listed = list(runs.path());
    assert_eq!(listed.len(), 2);
    for id in &ids {
        let run = listed.iter().find(|r| r["id"] == id.as_str()).expect("listed");
        assert_eq!(run["status"], "succeeded");
        assert_eq!(run["end_state"], "Order confirmed");
        assert!(run["steps"].as_i64().unwrap() >= 5);
        assert_eq!(run["llm_calls"], 0);
    }
    let out = statewright(&["runs", "list", "--workflow", "demo-shop"], runs.path());
    assert_eq!(text(&out.stdout).lines().count(), 3, "a header and two runs");
    assert!(files_under(&runs.path().join("locks")).is_empty(), "finished runs release their locks");

    // show, by a unique prefix
    let out = statewright(&["runs", "show", &ids[0][..ids[0].len() - 2]], runs.path());
    let ambiguous = ids[0][..ids[0].len() - 2] == ids[1][..ids[1].len() - 2];
    if !ambiguous {
        let shown = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        for needle in ["Login page", "Order confirmed", "✓", "navigate_to", " ms"] {
            assert!(shown.contains(needle), "`runs show` has {needle}: {shown}");
        }
    }
    let out = statewright(&["runs", "show", &ids[0], "--json"], runs.path());
    let detail: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(detail["steps"].as_array().unwrap().iter().any(|s| s["page"]["elements"].is_array()));

    // export
    let export = runs.path().join("export");
    let out = statewright(&["runs", "export", &ids[0], export.to_str().unwrap()], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let timeline: Value = serde_json::from_slice(&std::fs::read(export.join("action_timeline.json")).unwrap()).unwrap();
    let entries = timeline.as_array().unwrap();
    assert!(entries.len() >= 8);
    for entry in entries {
        for field in ["action_step", "timestamp", "action_type", "action", "element_label", "args"] {
            assert!(entry.get(field).is_some(), "timeline entries have `{field}`: {entry}");
        }
    }
    let pngs: Vec<_> = files_under(&export).into_iter().filter(|p| p.extension().is_some_and(|x| x == "png")).collect();
    assert!(pngs.len() >= 5, "one PNG per step ({} found)", pngs.len());
    assert!(pngs.iter().all(|p| std::fs::read(p).unwrap().starts_with(b"\x89PNG")));
    assert!(export.join("step-002.json").exists() && export.join("timeline.json").exists());

    // prune: keep the newest run; no orphan files, no missing referenced ones
    let out = statewright(&["runs", "prune", "--keep", "1"], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("pruned 1 runs"), "{}", text(&out.stdout));
    let left = list(runs.path());
    assert_eq!(left.len(), 1);
    // The pruned run's folder goes with it (its step JPEGs are hard links to the store's
    // files: left behind, they would keep the space); the kept run's stays.
    let kept = left[0]["id"].as_str().unwrap();
    for id in &ids {
        assert_eq!(runs.path().join(id).exists(), id == kept, "the folder of {id} (kept: {kept})");
    }
    let c = Connection::open(runs.path().join("statewright.db")).unwrap();
    let mut stmt = c
        .prepare("SELECT screenshot FROM steps WHERE screenshot IS NOT NULL UNION SELECT artifact_path FROM actions WHERE artifact_path IS NOT NULL")
        .unwrap();
    let referenced: std::collections::BTreeSet<PathBuf> =
        stmt.query_map([], |r| r.get::<_, String>(0)).unwrap().map(|p| runs.path().join(p.unwrap())).collect();
    assert!(!referenced.is_empty());
    let on_disk: std::collections::BTreeSet<PathBuf> = files_under(&runs.path().join("screens")).into_iter().collect();
    assert_eq!(on_disk, referenced);
    // A time with an offset, as RFC 3339 writes it: long before these runs, so none goes.
    let out = statewright(&["runs", "prune", "--before", "2000-01-01T10:00:00+05:00"], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(list(runs.path()).len(), 1);
    let out = statewright(&["runs", "prune", "--before", "2999-01-01"], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(list(runs.path()).is_empty());
    assert!(files_under(&runs.path().join("screens")).is_empty());
    assert!(ids.iter().all(|id| !runs.path().join(id).exists()), "no run folder is left");
}

#[test]
fn a_secret_parameter_appears_nowhere_in_the_database_or_an_export() {
    let runs = tempfile::tempdir().unwrap();
    let secret = "hunter2-Zq8-never-stored";
    let out = statewright(
        &[
            "run",
            "workflows/demo-shop.json",
            "--demo-site",
            "-p",
            "seed=2",
            "-p",
            &format!("password={secret}"),
            "--json",
        ],
        runs.path(),
    );
    assert_eq!(out.status.code(), Some(1), "the site rejects it: {}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = summary["run_id"].as_str().unwrap();
    let export = runs.path().join("export");
    let out = statewright(&["runs", "export", id, export.to_str().unwrap()], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = statewright(&["runs", "show", id, "--json"], runs.path());
    assert!(!text(&out.stdout).contains(secret));
    // The workflow is stored as run, with the defaults of secret parameters masked too.
    let c = Connection::open(runs.path().join("statewright.db")).unwrap();
    let workflow: String = c.query_row("SELECT json FROM workflows", [], |r| r.get(0)).unwrap();
    assert!(workflow.contains("{{password}}") && !workflow.contains("correct horse battery staple"), "{workflow}");
    let parameters: String = c.query_row("SELECT parameters FROM runs", [], |r| r.get(0)).unwrap();
    assert!(parameters.contains("\"password\":\"••••••\""), "{parameters}");
    drop(c);
    let files = files_under(runs.path());
    assert!(files.iter().any(|p| p.ends_with("statewright.db")));
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        // (Not the workflow's default password: the demo site prints it on its login page.)
        assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()), "{} contains the secret", path.display());
    }
}

#[test]
fn unknown_run_ids_exit_2_with_a_clear_message() {
    let runs = tempfile::tempdir().unwrap();
    for args in [&["runs", "show", "nope"][..], &["runs", "export", "nope", "/tmp/never"][..]] {
        let out = statewright(args, runs.path());
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains("no run with id `nope`"), "{}", text(&out.stderr));
    }
    assert!(!Path::new("/tmp/never").exists());
    // With a database too.
    drop(statewright_store_open(runs.path()));
    let out = statewright(&["runs", "show", "nope"], runs.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no run with id `nope`"), "{}", text(&out.stderr));
    let out = statewright(&["runs", "list", "--status", "bogus"], runs.path());
    assert_eq!(out.status.code(), Some(2));
}

fn statewright_store_open(runs: &Path) -> Output {
    statewright(&["runs", "prune", "--keep", "5"], runs)
}

#[test]
fn a_corrupt_or_foreign_database_is_refused_and_left_unchanged() {
    let runs = tempfile::tempdir().unwrap();
    let db = runs.path().join("statewright.db");
    std::fs::write(&db, b"this is not a database at all, just some text that is long enough".repeat(100)).unwrap();
    let before = snapshot(runs.path());
    for args in [&["runs", "list"][..], &["run", "workflows/demo-shop.json"][..]] {
        let out = statewright(args, runs.path());
        assert_ne!(out.status.code(), Some(0));
        assert!(text(&out.stderr).contains("corrupt"), "{}", text(&out.stderr));
        assert_eq!(snapshot(runs.path()), before, "nothing changed");
    }

    std::fs::remove_file(&db).unwrap();
    Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x');")
        .unwrap();
    let before = snapshot(runs.path());
    for args in [&["runs", "list"][..], &["runs", "prune", "--keep", "0"][..], &["run", "workflows/demo-shop.json"][..]]
    {
        let out = statewright(args, runs.path());
        assert_ne!(out.status.code(), Some(0));
        assert!(text(&out.stderr).contains("not a Statewright database"), "{}", text(&out.stderr));
        assert_eq!(snapshot(runs.path()), before, "nothing changed");
    }
}

#[test]
fn a_read_only_runs_folder_is_a_clear_error() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let top = tempfile::tempdir().unwrap();
    std::fs::set_permissions(top.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let runs = top.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    std::fs::set_permissions(&runs, std::fs::Permissions::from_mode(0o555)).unwrap();
    let mut cmd = command(&["run", "workflows/demo-shop.json"], &runs);
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        cmd.uid(65534).gid(65534); // root ignores permissions: run as nobody
    }
    let out = cmd.output().unwrap();
    std::fs::set_permissions(&runs, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("read-only"), "{}", text(&out.stderr));
    assert!(files_under(&runs).is_empty(), "nothing written");
}

#[test]
fn a_full_disk_is_a_clear_error_and_changes_nothing() {
    let runs = tempfile::tempdir().unwrap();
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=1"], runs.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let before = list(runs.path());
    assert_eq!(before.len(), 1);
    // The WAL and shared-memory files are SQLite's scratch space; everything else must be intact.
    let kept = |dir: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut s = snapshot(dir);
        s.retain(|(p, _)| !p.to_string_lossy().ends_with("-wal") && !p.to_string_lossy().ends_with("-shm"));
        s
    };
    let files_before = kept(runs.path());

    // A real write failure: no file of the process may grow past 8 KiB (`ulimit -f` counts
    // 1 KiB blocks), so the first transaction cannot fit in the WAL. SIGXFSZ is ignored so
    // the write fails with EFBIG, as it fails with ENOSPC on a full disk, instead of killing.
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 8; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_statewright"))
        .args(["run", "workflows/demo-shop.json", "--demo-site", "-p", "seed=2"])
        .current_dir(repo())
        .env("STATEWRIGHT_RUNS_DIR", runs.path())
        .env_remove("STATEWRIGHT_DB")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("statewright.db: the disk is full"), "{stderr}");

    let c = Connection::open(runs.path().join("statewright.db")).unwrap();
    let ok: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    drop(c);
    assert_eq!(list(runs.path()), before, "the first run is listed unchanged, and no other");
    assert_eq!(before[0]["status"], "succeeded");
    assert!(kept(runs.path()) == files_before, "no file was changed, added or removed");
}

/// A state whose actions do not move the page is retried, and the store keeps each retry at
/// its step: `runs show` lists them there and counts them on the run, for the app alike.
#[test]
fn a_stored_run_keeps_its_retries_where_they_happened() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = serde_json::json!({
        "version": 1,
        "name": "stays-home",
        "parameters": { "site": { "default": "http://127.0.0.1:8931" } },
        "config": { "verify_timeout": 0.5, "max_retries": 2, "no_states_timeout": 2 },
        "states": [
            {
                "name": "Start",
                "checks": [{ "type": "url", "value": "about:blank" }],
                "actions": [{ "type": "navigate_to", "url": "{{site}}/" }]
            },
            {
                "name": "Home page",
                "checks": [{ "type": "url", "match": "prefix", "value": "{{site}}/" }],
                "actions": [{ "type": "wait", "seconds": 0.1 }],
                "next": ["Never"]
            },
            {
                "name": "Never",
                "checks": [{ "type": "text", "value": "a page the site does not have" }],
                "terminal": { "outcome": "success" }
            }
        ]
    });
    let path = dir.path().join("stays-home.json");
    std::fs::write(&path, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    let runs = dir.path().join("runs");
    let out = statewright(&["run", path.to_str().unwrap(), "--demo-site", "--no-review", "--json"], &runs);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let run_id = summary["run_id"].as_str().unwrap();

    let shown: Value = serde_json::from_slice(&statewright(&["runs", "show", run_id, "--json"], &runs).stdout).unwrap();
    assert_eq!(shown["run"]["retries"], 2, "{shown:#}");
    let retries = shown["retries"].as_array().unwrap();
    let attempts: Vec<_> =
        retries.iter().map(|r| (r["state"].as_str().unwrap(), r["attempt"].as_u64().unwrap())).collect();
    assert_eq!(attempts, [("Home page", 1), ("Home page", 2)], "{shown:#}");
    // Each retry belongs to the step whose actions were not verified: a Home page step.
    for retry in retries {
        let step = shown["steps"].as_array().unwrap().iter().find(|s| s["step"] == retry["step"]).unwrap();
        assert_eq!(step["state"], "Home page", "{shown:#}");
    }
    let listing = text(&statewright(&["runs", "show", run_id], &runs).stdout);
    assert!(listing.contains("retried a state's actions 2 time(s)"), "{listing}");
    assert!(listing.contains("↻ retry 1/2: still in `Home page`"), "{listing}");
    assert!(listing.contains("↻ retry 2/2: still in `Home page`"), "{listing}");
}

/// A run cancelled after one action (Ctrl+C while the second waits for its element) counts
/// that action, and its duration is the time between its record's start and end: launching
/// its browser included, as for a run that was interrupted.
#[test]
fn a_cancelled_run_counts_its_actions_and_lasts_from_its_start_to_its_end() {
    let runs = tempfile::tempdir().unwrap();
    let workflow = runs.path().join("stalls.json");
    let json = serde_json::json!({
        "version": 1,
        "name": "stalls",
        "parameters": {"site": {"default": "http://127.0.0.1:9"}},
        "config": {"action_timeout": 60},
        "states": [
            {"name": "Done", "checks": [{"type": "element", "selector": "#never"}],
             "terminal": {"outcome": "success", "message": "ok"}},
            {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
             "actions": [{"type": "navigate_to", "url": "{{site}}/login.html"},
                         {"type": "click", "target": {"css": "#never"}}],
             "next": ["Done"]}
        ]
    });
    std::fs::write(&workflow, json.to_string()).unwrap();
    let db = runs.path().join("statewright.db");
    let mut child = command(&["run", workflow.to_str().unwrap(), "--demo-site", "--no-review", "--json"], runs.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the run never recorded its first action");
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be cancelled");
        let recorded = Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY).ok().and_then(|c| {
            let _ = c.busy_timeout(Duration::from_secs(5));
            c.query_row("SELECT count(*) FROM actions", [], |r| r.get::<_, i64>(0)).ok()
        });
        if recorded == Some(1) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // The click is waiting for an element that never comes: cancel it there.
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill on the pid of our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["status"], "cancelled", "{summary}");
    assert_eq!((&summary["steps"], &summary["actions"]), (&1.into(), &1.into()), "{summary}");
    assert!(text(&out.stderr).contains("1 actions"), "the live line says so too: {}", text(&out.stderr));

    let run = list(runs.path()).remove(0);
    assert_eq!(run["actions"], 1, "{run}");
    let wall = run["finished_ms"].as_i64().unwrap() - run["started_ms"].as_i64().unwrap();
    let duration = run["duration_ms"].as_i64().unwrap();
    assert!((wall - duration).abs() < 250, "duration {duration} ms, from start to end {wall} ms");
    assert_eq!(summary["duration_ms"], run["duration_ms"], "`run --json` says the same as the store");
}

#[test]
fn export_force_replaces_an_earlier_export_whole_and_nothing_else() {
    let runs = tempfile::tempdir().unwrap();
    let run = |name: &str, workflow: Value| {
        let path = runs.path().join(format!("{name}.json"));
        std::fs::write(&path, workflow.to_string()).unwrap();
        let out = statewright(&["run", path.to_str().unwrap(), "--json"], runs.path());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()["run_id"].as_str().unwrap().to_owned()
    };
    // A longer run, with an action's file, then a run of one step.
    let long = run(
        "long",
        serde_json::json!({"version": 1, "name": "long", "states": [
            {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
             "actions": [{"type": "navigate_to", "url": "data:text/html,<p id=v>one</p>"}], "next": ["One"]},
            {"name": "One", "checks": [{"type": "element", "selector": "#v"}],
             "actions": [{"type": "save_html", "filename": "page.html"},
                         {"type": "navigate_to", "url": "data:text/html,<p id=w>two</p>"}], "next": ["Two"]},
            {"name": "Two", "checks": [{"type": "element", "selector": "#w"}], "terminal": {"outcome": "success"}}]}),
    );
    let short = run(
        "short",
        serde_json::json!({"version": 1, "name": "short", "states": [
            {"name": "Start", "checks": [{"type": "url", "value": "about:blank"}], "terminal": {"outcome": "success"}}]}),
    );
    let export = |id: &str, dir: &Path, force: bool| {
        let args = ["runs", "export", id, dir.to_str().unwrap(), "--force"];
        statewright(&args[..if force { 5 } else { 4 }], runs.path())
    };
    let names = |dir: &Path| -> Vec<String> {
        files_under(dir).iter().map(|p| p.strip_prefix(dir).unwrap().display().to_string()).collect()
    };
    let (dir, fresh) = (runs.path().join("export"), runs.path().join("fresh"));
    assert_eq!(export(&long, &dir, false).status.code(), Some(0));
    assert!(dir.join("step-003.json").exists() && dir.join("page.html").exists(), "{:?}", names(&dir));
    assert_eq!(export(&short, &fresh, false).status.code(), Some(0));
    assert_eq!(export(&short, &dir, false).status.code(), Some(2), "a folder with files needs --force");

    // --force: exactly the new export, none of the longer run's steps or files left over.
    let out = export(&short, &dir, true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(names(&dir), names(&fresh));
    let timeline: Value = serde_json::from_slice(&std::fs::read(dir.join("timeline.json")).unwrap()).unwrap();
    assert_eq!(timeline["run_id"], short.as_str());
    let beside: Vec<_> = std::fs::read_dir(runs.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(!beside.iter().any(|n| n.to_string_lossy().ends_with('~')), "nothing left beside it: {beside:?}");

    // A folder that is not (only) an export is not removed: a person's file in an export, a
    // folder of their own (a home folder), a folder with no timeline.
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let home = runs.path().join("home");
    std::fs::create_dir_all(home.join("Documents")).unwrap();
    std::fs::copy(dir.join("timeline.json"), home.join("timeline.json")).unwrap();
    let plain = runs.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    std::fs::write(plain.join("step-001.json"), "{}").unwrap();
    for (folder, why) in [(&dir, "it holds `notes.txt`"), (&home, "it holds `Documents`"), (&plain, "no timeline.json")]
    {
        let before = names(folder);
        let out = export(&long, folder, true);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("is not an earlier export") && stderr.contains(why), "{stderr}");
        assert_eq!(names(folder), before, "untouched");
    }
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "mine");

    // A timeline.json that is a named pipe is refused at once (it was waited on for ever).
    let piped = runs.path().join("piped");
    std::fs::create_dir(&piped).unwrap();
    fifo(&piped.join("timeline.json"));
    let (code, stderr) = in_time(&["runs", "export", &long, piped.to_str().unwrap(), "--force"], runs.path());
    assert_eq!(code, Some(2), "{stderr}");
    let why = "is not an earlier export (the timeline.json in it is a named pipe (FIFO), not a regular file)";
    assert!(stderr.contains(&format!("{} {why}", piped.display())), "{stderr}");
}
