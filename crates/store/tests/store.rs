//! The run store against real database files in temporary folders.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::Connection;
use serde_json::json;
use statewright_engine::{Artifact, CheckResult, Event, Failure, Observation, RunStatus};
use statewright_store::{APPLICATION_ID, Error, NewRun, PruneBy, RunFilter, RunHandle, SCHEMA_VERSION, Store};
use statewright_workflow::{Action, Outcome};

fn db_in(dir: &Path) -> PathBuf {
    Store::default_path(dir)
}

fn start(store: &Store, id: &str) -> RunHandle {
    store
        .start_run(&NewRun {
            id,
            workflow_name: "demo",
            workflow_json: r#"{"version":1,"name":"demo","states":[]}"#,
            parameters: &json!({"user": "demo", "password": "••••••"}),
            browser: "headless Chromium",
            workflow_path: None,
        })
        .unwrap()
}

fn click() -> Action {
    serde_json::from_value(json!({"type": "click", "target": {"css": "#go"}})).unwrap()
}

fn entered(step: u32) -> Event {
    Event::StateEntered {
        step,
        state: format!("State {step}"),
        state_index: step as usize,
        visit: 1,
        elapsed_ms: u64::from(step) * 10,
        url: format!("http://site/{step}"),
        checks: vec![
            CheckResult { check: "url starts with \"http://site\"".into(), passed: true },
            CheckResult { check: "not text \"Oops\"".into(), passed: false },
        ],
        also_matched: vec![],
    }
}

fn observed(step: u32, png: &[u8]) -> Event {
    Event::Observed {
        step,
        observation: Observation {
            url: format!("http://site/{step}"),
            title: format!("Page {step}"),
            text: "Hello there".into(),
            elements: json!([{"id": "e1", "role": "button", "name": "Go"}]),
            screenshot: Some(Arc::new(png.to_vec())),
            tabs: Vec::new(),
        },
    }
}

fn finished_action(step: u32, artifact: Option<Artifact>) -> Event {
    Event::ActionFinished {
        step,
        state: format!("State {step}"),
        index: 0,
        action: click(),
        elapsed_ms: 12,
        duration_ms: 34,
        attempts: 2,
        detail: Some("button#go \"Go\"".into()),
        error: None,
        alternatives: vec![serde_json::from_value(json!({"role": "button", "name": "Go"})).unwrap()],
        to_alternatives: Vec::new(),
        artifact,
        value: None,
    }
}

fn run_finished(status: RunStatus, steps: u32) -> Event {
    Event::RunFinished {
        status,
        end_state: Some("Done".into()),
        outcome: Some(Outcome::Success),
        message: "all done".into(),
        failure: None,
        duration_ms: 1234,
        steps,
        actions: steps,
        outputs: Default::default(),
    }
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() { out.extend(files_under(&p)) } else { out.push(p) }
    }
    out.sort();
    out
}

#[test]
fn migrates_from_empty_and_reopening_is_a_no_op() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_in(dir.path());
    {
        let store = Store::open(&path).unwrap();
        drop(start(&store, "r1"));
    }
    let schema = |path: &Path| {
        let c = Connection::open(path).unwrap();
        let version: i64 = c.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        let app: i32 = c.query_row("PRAGMA application_id", [], |r| r.get(0)).unwrap();
        let mode: String = c.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
        let mut stmt = c.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name").unwrap();
        let objects: Vec<(String, String, Option<String>)> =
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
        (version, app, mode, objects)
    };
    let first = schema(&path);
    assert_eq!(first.0, SCHEMA_VERSION);
    assert_eq!(first.1, APPLICATION_ID);
    assert_eq!(first.2, "wal");
    for table in ["workflows", "runs", "steps", "actions", "escalations", "review_items"] {
        assert!(first.3.iter().any(|(t, n, _)| t == "table" && n == table), "table {table} exists");
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(schema(&path), first, "re-opening changes nothing");
    // The dropped handle had no RunFinished: the run is interrupted, and nothing else.
    let runs = store.list_runs(&RunFilter::default()).unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].status, "interrupted");
}

#[test]
fn every_record_kind_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&db_in(dir.path())).unwrap();
    let mut run = start(&store, "20261122-101010-abcd");
    let events = vec![
        Event::RunStarted { workflow: "demo".into(), states: 3 },
        entered(1),
        observed(1, b"png-one"),
        Event::ActionStarted { step: 1, state: "State 1".into(), index: 0, action: click() },
        finished_action(1, Some(Artifact { filename: "page.html".into(), bytes: Arc::new(b"<html>".to_vec()) })),
        entered(2),
        observed(2, b"png-one"), // an identical frame: stored once
        Event::ActionPreempted {
            step: 2,
            state: "State 2".into(),
            index: 0,
            by_state: "Consent popup".into(),
            reason: "covered".into(),
        },
        Event::ActionFinished {
            alternatives: Vec::new(),
            to_alternatives: Vec::new(),
            step: 2,
            state: "State 2".into(),
            index: 1,
            action: click(),
            elapsed_ms: 5,
            duration_ms: 6,
            attempts: 1,
            detail: None,
            error: Some("no element matches #go".into()),
            artifact: None,
            value: None,
        },
        Event::RunFinished {
            status: RunStatus::Failed,
            end_state: None,
            outcome: None,
            message: "an action failed".into(),
            failure: Some(Failure::Action {
                state: "State 2".into(),
                index: 1,
                action: "click".into(),
                error: "no element matches #go".into(),
            }),
            duration_ms: 999,
            steps: 2,
            actions: 2,
            outputs: Default::default(),
        },
    ];
    for e in &events {
        store.record(&mut run, e).unwrap();
    }
    drop(run);
    drop(store);

    let store = Store::open(&db_in(dir.path())).unwrap();
    let id = store.resolve_run("20261122-1010").unwrap();
    let d = store.run_detail(&id, true).unwrap();
    assert_eq!(d.run.status, "failed");
    assert_eq!(d.run.workflow, "demo");
    assert_eq!(d.run.parameters, json!({"user": "demo", "password": "••••••"}));
    assert_eq!(d.run.failure.as_ref().unwrap()["kind"], "action");
    assert_eq!(d.run.message.as_deref(), Some("an action failed"));
    assert_eq!(
        (d.run.steps, d.run.actions, d.run.duration_ms, d.run.llm_calls, d.run.llm_tokens),
        (2, 2, Some(999), 0, 0)
    );
    assert_eq!(
        store.workflow_json(&d.run.workflow_hash).unwrap().as_deref(),
        Some(r#"{"version":1,"name":"demo","states":[]}"#)
    );

    assert_eq!(d.steps.len(), 2);
    let s = &d.steps[0];
    assert_eq!((s.step, s.state.as_str(), s.state_index, s.visit, s.elapsed_ms), (1, "State 1", 1, 1, 10));
    assert_eq!(
        s.checks,
        json!([{"check": "url starts with \"http://site\"", "passed": true}, {"check": "not text \"Oops\"", "passed": false}])
    );
    let page = s.page.as_ref().unwrap();
    assert_eq!(
        (page.url.as_str(), page.title.as_str(), page.text.as_str()),
        ("http://site/1", "Page 1", "Hello there")
    );
    assert_eq!(page.elements[0]["name"], "Go");
    let shot = s.screenshot.clone().unwrap();
    assert!(shot.starts_with("screens/") && shot.ends_with(".png"), "{shot}");
    assert_eq!(d.steps[1].screenshot.as_ref(), Some(&shot), "identical frames share one file");
    assert_eq!(store.read_blob(&shot).unwrap().unwrap(), b"png-one");

    assert_eq!(d.actions.len(), 3);
    let a = &d.actions[0];
    assert_eq!((a.seq, a.step, a.kind.as_str(), a.duration_ms, a.attempts), (1, 1, "click", Some(34), Some(2)));
    assert_eq!(a.args, Some(json!({"target": {"css": "#go"}})));
    assert_eq!(a.detail.as_deref(), Some("button#go \"Go\""));
    assert_eq!(a.artifact_name.as_deref(), Some("page.html"));
    assert_eq!(store.read_blob(a.artifact_path.as_ref().unwrap()).unwrap().unwrap(), b"<html>");
    assert_eq!((d.actions[1].kind.as_str(), d.actions[1].by_state.as_deref()), ("preempted", Some("Consent popup")));
    assert_eq!(d.actions[2].error.as_deref(), Some("no element matches #go"));

    let files = files_under(&dir.path().join("screens"));
    assert_eq!(files.len(), 2, "one screenshot and one artifact: {files:?}");
}

#[test]
fn in_memory_store_works_too() {
    let store = Store::open_in_memory().unwrap();
    let mut run = start(&store, "mem");
    store.record(&mut run, &entered(1)).unwrap();
    store.record(&mut run, &observed(1, b"x")).unwrap();
    store.record(&mut run, &run_finished(RunStatus::Succeeded, 1)).unwrap();
    let d = store.run_detail("mem", false).unwrap();
    assert_eq!(d.run.status, "succeeded");
    assert_eq!(d.run.outcome.as_deref(), Some("success"));
    assert_eq!(store.read_blob(d.steps[0].screenshot.as_ref().unwrap()).unwrap().unwrap(), b"x");
}

#[test]
fn a_run_whose_process_died_is_interrupted_and_a_live_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_in(dir.path());
    let store = Store::open(&path).unwrap();
    let mut live = start(&store, "live");
    store.record(&mut live, &entered(1)).unwrap();
    let mut dead = start(&store, "dead");
    store.record(&mut dead, &entered(1)).unwrap();
    // A dead process's lock file stays behind, unlocked.
    std::mem::forget(dead);
    let dead_lock = dir.path().join("locks/dead.lock");
    let stale = std::fs::read(&dead_lock).unwrap();
    // Simulate the process dying: the open file descriptor (and its flock) go away.
    // `forget` leaked it, so re-create the file under a new inode with no lock.
    std::fs::remove_file(&dead_lock).unwrap();
    std::fs::write(&dead_lock, stale).unwrap();

    let other = Store::open(&path).unwrap();
    let status = |id: &str| other.run(id).unwrap().status;
    assert_eq!(status("live"), "running", "its lock is held");
    assert_eq!(status("dead"), "interrupted");
    assert!(other.run("dead").unwrap().message.unwrap().contains("stopped before the run finished"));
    assert!(!dead_lock.exists());
    store.record(&mut live, &run_finished(RunStatus::Succeeded, 1)).unwrap();
    drop(live);
    let again = Store::open(&path).unwrap();
    assert_eq!(again.run("live").unwrap().status, "succeeded");
    assert!(files_under(&dir.path().join("locks")).is_empty());
}

#[test]
fn processes_creating_the_same_new_database_together_all_open_it() {
    // A batch's first runs (or two terminals) open a runs folder's new database at the same
    // moment: each must see either an empty file or a whole Statewright database.
    for _ in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let path = db_in(dir.path());
        let gate = std::sync::Arc::new(std::sync::Barrier::new(6));
        let opened: Vec<_> = (0..6)
            .map(|_| {
                let (path, gate) = (path.clone(), gate.clone());
                std::thread::spawn(move || {
                    gate.wait();
                    Store::open(&path).map(|_| ()).map_err(|e| e.to_string())
                })
            })
            .collect();
        for t in opened {
            t.join().unwrap().unwrap();
        }
    }
}

#[test]
fn several_writers_at_once_never_see_database_is_locked() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_in(dir.path());
    Store::open(&path).unwrap();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let store = Store::open(&path).unwrap();
                let id = format!("run-{t}");
                let mut run = start(&store, &id);
                for step in 1..=150 {
                    store.record(&mut run, &entered(step)).unwrap();
                    store.record(&mut run, &observed(step, format!("png {t} {}", step % 7).as_bytes())).unwrap();
                    store.record(&mut run, &finished_action(step, None)).unwrap();
                    if step % 50 == 0 {
                        // A reader in the middle of it all.
                        assert!(!store.list_runs(&RunFilter::default()).unwrap().is_empty());
                    }
                }
                store.record(&mut run, &run_finished(RunStatus::Succeeded, 150)).unwrap();
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let store = Store::open(&path).unwrap();
    let runs = store.list_runs(&RunFilter { status: Some("succeeded".into()), ..Default::default() }).unwrap();
    assert_eq!(runs.len(), 4);
    for r in runs {
        assert_eq!(store.run_detail(&r.id, false).unwrap().steps.len(), 150);
    }
    assert_eq!(files_under(&dir.path().join("screens")).len(), 4 * 7);
}

#[test]
fn prune_leaves_no_orphan_and_deletes_no_referenced_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&db_in(dir.path())).unwrap();
    for (i, id) in ["a-old", "b-mid", "c-new"].iter().enumerate() {
        let mut run = start(&store, id);
        store.record(&mut run, &entered(1)).unwrap();
        store.record(&mut run, &observed(1, b"shared frame")).unwrap();
        store.record(&mut run, &entered(2)).unwrap();
        store.record(&mut run, &observed(2, format!("own frame {i}").as_bytes())).unwrap();
        store.record(&mut run, &run_finished(RunStatus::Succeeded, 2)).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let mut running = start(&store, "0-running"); // oldest id, but running: never pruned
    store.record(&mut running, &entered(1)).unwrap();
    store.record(&mut running, &observed(1, b"running frame")).unwrap();
    // An orphan left by a crash between writing a file and committing its reference.
    let orphan = dir.path().join("screens/00/00deadbeef.png");
    std::fs::create_dir_all(orphan.parent().unwrap()).unwrap();
    std::fs::write(&orphan, b"orphan").unwrap();

    let report = store.prune(PruneBy::Keep(2)).unwrap();
    assert_eq!(report.runs, 2, "a-old and b-mid go; c-new (and the running one) stay");
    let left: Vec<String> = store.list_runs(&RunFilter::default()).unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(left.len(), 2);
    assert!(left.contains(&"c-new".to_owned()) && left.contains(&"0-running".to_owned()), "{left:?}");

    let check = |store: &Store| {
        let mut referenced = std::collections::BTreeSet::new();
        for r in store.list_runs(&RunFilter::default()).unwrap() {
            for s in store.run_detail(&r.id, false).unwrap().steps {
                if let Some(rel) = s.screenshot {
                    assert!(dir.path().join(&rel).exists(), "referenced {rel} exists");
                    referenced.insert(dir.path().join(rel));
                }
            }
        }
        let on_disk: std::collections::BTreeSet<_> = files_under(&dir.path().join("screens")).into_iter().collect();
        assert_eq!(on_disk, referenced, "no orphan files");
    };
    check(&store);
    assert_eq!(report.files, 3, "two own frames and the orphan");

    let report = store.prune(PruneBy::Before(i64::MAX)).unwrap();
    assert_eq!(report.runs, 1);
    check(&store);
    assert_eq!(store.list_runs(&RunFilter::default()).unwrap()[0].id, "0-running");
}

/// A run folder's step images are hard links to the store's files: pruning the rows and
/// files alone frees nothing while the folder keeps a link.
#[test]
fn prune_deletes_the_pruned_runs_folders_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&db_in(dir.path())).unwrap();
    let folder = |id: &str| dir.path().join(id);
    for id in ["a-old", "b-new"] {
        let mut run = start(&store, id);
        store.record(&mut run, &entered(1)).unwrap();
        store.record(&mut run, &observed(1, format!("frame of {id}").as_bytes())).unwrap();
        store.record(&mut run, &run_finished(RunStatus::Succeeded, 1)).unwrap();
        let shot = store.run_detail(id, false).unwrap().steps[0].screenshot.clone().unwrap();
        std::fs::create_dir_all(folder(id)).unwrap();
        std::fs::hard_link(dir.path().join(shot), folder(id).join("step-001.jpg")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // A symlink inside the pruned folder is removed, never followed.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("keep.txt"), b"not the store's").unwrap();
    std::os::unix::fs::symlink(outside.path(), folder("a-old").join("link")).unwrap();
    std::fs::create_dir_all(folder("unrelated")).unwrap();

    let report = store.prune(PruneBy::Keep(1)).unwrap();
    assert_eq!((report.runs, report.files, report.folders), (1, 1, 1), "{report:?}");
    assert!(!folder("a-old").exists(), "the pruned run's folder is gone");
    assert!(folder("b-new").join("step-001.jpg").exists(), "the kept run's folder stays");
    assert!(folder("unrelated").exists() && folder("locks").exists(), "other folders stay");
    assert!(outside.path().join("keep.txt").exists(), "nothing outside the runs folder is touched");
    let screens = files_under(&dir.path().join("screens"));
    assert_eq!(screens.len(), 1, "the pruned run's frame is freed: {screens:?}");

    // A run folder that is a symlink is not followed out of the runs folder either, and a
    // database elsewhere prunes the folders of the runs folder it is given.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(elsewhere.path().join("b-new")).unwrap();
    std::fs::remove_dir_all(folder("b-new")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path().join("b-new"), folder("b-new")).unwrap();
    let report = store.prune(PruneBy::Before(i64::MAX)).unwrap();
    assert_eq!((report.runs, report.folders), (1, 0));
    assert!(elsewhere.path().join("b-new").exists(), "a symlinked run folder's target stays");

    let runs_dir = tempfile::tempdir().unwrap();
    let mut run = start(&store, "c-run");
    store.record(&mut run, &run_finished(RunStatus::Succeeded, 0)).unwrap();
    std::fs::create_dir_all(runs_dir.path().join("c-run")).unwrap();
    let report = store.prune_in(PruneBy::Keep(0), runs_dir.path()).unwrap();
    assert_eq!((report.runs, report.folders), (1, 1));
    assert!(!runs_dir.path().join("c-run").exists());
}

#[test]
fn unknown_and_ambiguous_run_ids_are_clear_errors() {
    let store = Store::open_in_memory().unwrap();
    drop(start(&store, "20261122-aaaa"));
    drop(start(&store, "20261122-aabb"));
    assert!(matches!(store.resolve_run("nope"), Err(Error::UnknownRun(_))));
    assert!(matches!(store.run_detail("nope", false), Err(Error::UnknownRun(_))));
    let e = store.resolve_run("20261122-aa").unwrap_err();
    assert!(e.to_string().contains("ambiguous"), "{e}");
    assert_eq!(store.resolve_run("20261122-aab").unwrap(), "20261122-aabb");
    assert!(matches!(store.set_status("nope", "failed"), Err(Error::UnknownRun(_))));
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(dir).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect()
}

#[test]
fn a_corrupt_file_is_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_in(dir.path());
    let garbage: Vec<u8> = (0..8192u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    std::fs::write(&path, &garbage).unwrap();
    let before = snapshot(dir.path());
    let e = Store::open(&path).err().expect("refused");
    assert!(matches!(e, Error::Corrupt { .. }), "{e:?}");
    assert!(e.to_string().contains("corrupt"), "{e}");
    assert_eq!(snapshot(dir.path()), before, "nothing changed");
}

#[test]
fn another_applications_database_is_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_in(dir.path());
    {
        let c = Connection::open(&path).unwrap();
        c.execute_batch(
            "CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO accounts (name) VALUES ('x');",
        )
        .unwrap();
    }
    let before = snapshot(dir.path());
    let e = Store::open(&path).err().expect("refused");
    assert!(matches!(e, Error::NotStatewright { .. }), "{e:?}");
    assert!(e.to_string().contains("not a Statewright database"), "{e}");
    assert_eq!(snapshot(dir.path()), before, "nothing changed");
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_in(dir.path());
    drop(Store::open(&path).unwrap());
    Connection::open(&path).unwrap().execute_batch("PRAGMA user_version = 999").unwrap();
    let e = Store::open(&path).err().expect("refused");
    assert!(matches!(e, Error::TooNew { found: 999, .. }), "{e:?}");
}

#[test]
fn a_read_only_folder_is_a_clear_error() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        eprintln!("skipped: root ignores permissions (the CLI test covers this as an unprivileged user)");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    let e = Store::open(&db_in(dir.path())).err().expect("refused");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(matches!(e, Error::ReadOnly { .. }), "{e:?}");
    assert!(files_under(dir.path()).is_empty());
}

#[test]
fn state_visits_come_back_per_run_in_order_with_what_else_matched() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&db_in(dir.path())).unwrap();
    for (id, lost) in [("run-a", vec!["Other".to_owned()]), ("run-b", vec![])] {
        let mut run = start(&store, id);
        let events: Vec<Event> = (1..=3)
            .map(|step| match entered(step) {
                Event::StateEntered { step, state, state_index, visit, elapsed_ms, url, checks, .. } => {
                    Event::StateEntered {
                        step,
                        state,
                        state_index,
                        visit,
                        elapsed_ms,
                        url,
                        checks,
                        also_matched: if step == 2 { lost.clone() } else { vec![] },
                    }
                }
                _ => unreachable!(),
            })
            .collect();
        store.record_all(&mut run, &events).unwrap();
    }
    let runs = store.state_visits("demo").unwrap();
    assert_eq!(runs.len(), 2);
    for run in &runs {
        let states: Vec<&str> = run.iter().map(|v| v.state.as_str()).collect();
        assert_eq!(states, ["State 1", "State 2", "State 3"]);
        assert_eq!(run.iter().map(|v| v.elapsed_ms).collect::<Vec<_>>(), [10, 20, 30]);
    }
    let lost: Vec<&Vec<String>> = runs.iter().map(|r| &r[1].also_matched).collect();
    assert!(lost.contains(&&vec!["Other".to_owned()]) && lost.contains(&&vec![]), "{lost:?}");
    assert!(store.state_visits("another workflow").unwrap().is_empty());
}

#[test]
fn extracted_values_are_kept_per_action_and_as_the_runs_outputs_even_before_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&db_in(dir.path())).unwrap();
    let mut run = start(&store, "r-outputs");
    let extract = |into: &str, value: serde_json::Value, seq_step: u32| Event::ActionFinished {
        step: seq_step,
        state: "Orders".into(),
        index: 0,
        action: serde_json::from_value(json!({"type": "extract", "target": {"css": "#t"}, "into": into})).unwrap(),
        elapsed_ms: 1,
        duration_ms: 1,
        attempts: 1,
        detail: None,
        error: None,
        alternatives: Vec::new(),
        to_alternatives: Vec::new(),
        artifact: None,
        value: Some(value),
    };
    store.record(&mut run, &entered(1)).unwrap();
    store.record(&mut run, &extract("total", json!("$12.50"), 1)).unwrap();
    store.record(&mut run, &extract("orders", json!([{"id": "1"}, {"id": "2"}]), 1)).unwrap();
    store.record(&mut run, &extract("total", json!("$13.00"), 1)).unwrap();
    // Before the run ends (a crash would leave it here), the outputs are already there.
    let detail = store.run_detail("r-outputs", false).unwrap();
    assert_eq!(detail.run.outputs, json!({"total": "$13.00", "orders": [{"id": "1"}, {"id": "2"}]}));
    let values: Vec<_> = detail.actions.iter().map(|a| a.value.clone()).collect();
    assert_eq!(values, [Some(json!("$12.50")), Some(json!([{"id": "1"}, {"id": "2"}])), Some(json!("$13.00"))]);
    store.record(&mut run, &run_finished(RunStatus::Succeeded, 1)).unwrap();
    assert_eq!(store.run("r-outputs").unwrap().outputs["total"], "$13.00");
    let other = start(&store, "r-none");
    drop(other);
    assert_eq!(store.run("r-none").unwrap().outputs, json!({}), "a run that read nothing has no outputs");
}
