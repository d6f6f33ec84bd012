//! `statewright batch` over a pool of real Chromiums started with `--remote-debugging-port`:
//! 40 rows (some naming a product the shop does not have) two at a time on each of two
//! browsers, killed half-way and resumed with nothing lost and nothing run twice; a dead
//! endpoint's rows go to the live one and it is reported, with the URL's token masked; the
//! batch's own shared browsers; and the pool's usage errors.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use common::{Browser, command, statewright, text};
use serde_json::Value;

const MISSING: &str = "Titanium spork";

/// Rows of the demo workflow, one seed each; every seventh names a product the shop does
/// not have. Returns the CSV and which rows (1-based) are bad.
fn orders(count: usize) -> (String, HashSet<usize>) {
    let products = ["Stainless steel kettle", "Ceramic teapot", "Camping lantern"];
    let mut csv = String::from("seed,product,quantity\n");
    let mut bad = HashSet::new();
    for row in 1..=count {
        let product = if row % 7 == 3 {
            bad.insert(row);
            MISSING
        } else {
            products[row % products.len()]
        };
        csv.push_str(&format!("{row},{product},{}\n", row % 3 + 1));
    }
    (csv, bad)
}

fn results(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str::<Vec<Value>>(&t).ok()).unwrap_or_default()
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Each of these tests drives several pages at once: run together on two cores, their pages
/// starved for over ten seconds and runs failed as "the page did not answer in time".
static BROWSER_HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    BROWSER_HEAVY.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[test]
fn forty_rows_over_two_browsers_survive_a_kill_with_nothing_lost_or_run_twice() {
    let _heavy = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let (a, b) = (Browser::start(&dir.path().join("a")), Browser::start(&dir.path().join("b")));
    let data = dir.path().join("orders.csv");
    let (csv, bad) = orders(40);
    std::fs::write(&data, csv).unwrap();
    let table = dir.path().join("orders.results.json");
    let args = [
        "batch",
        "workflows/demo-shop.json",
        "--data",
        data.to_str().unwrap(),
        "--demo-site",
        "--no-review",
        "--cdp-url",
        &a.1,
        "--cdp-url",
        &b.1,
        "--per-endpoint",
        "2",
        "--concurrency",
        "4",
        "--json",
    ];
    let began = Instant::now();

    // The first go is killed outright once about half the rows are done.
    let mut first =
        command(&args, &runs).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let done_when_killed = loop {
        let done = results(&table).iter().filter(|r| r["status"] != "running").count();
        if done >= 20 {
            first.kill().unwrap(); // SIGKILL: no clean-up of any kind
            first.wait().unwrap();
            break done;
        }
        assert!(first.try_wait().unwrap().is_none(), "the batch ended before it could be killed half-way");
        assert!(began.elapsed() < Duration::from_secs(300), "20 rows not done in 5 minutes");
        std::thread::sleep(Duration::from_millis(100));
    };
    let killed = results(&table);
    let succeeded_before: HashSet<u64> =
        killed.iter().filter(|r| r["status"] == "succeeded").map(|r| r["row"].as_u64().unwrap()).collect();
    let first_go = began.elapsed();

    // The second go runs what is left.
    let out = statewright(&args, &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "the bad rows fail: {stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 40, "{report:#}");
    assert!(report["skipped"].as_u64().unwrap() as usize >= succeeded_before.len(), "{report:#}");
    for r in rows {
        let row = r["row"].as_u64().unwrap() as usize;
        if bad.contains(&row) {
            assert_eq!(r["status"], "failed", "row {row}: {r}");
            assert_eq!(r["end_state"], "No such product", "row {row}: {r}");
            let message = r["message"].as_str().unwrap();
            assert!(message.starts_with("The shop sells no such product"), "row {row}: {message}");
        } else {
            assert_eq!(r["status"], "succeeded", "row {row}: {r}");
            assert_eq!(r["end_state"], "Order confirmed", "row {row}: {r}");
        }
        assert!(r["endpoint"].as_str().is_some_and(|e| e == a.1 || e == b.1), "row {row} ran on a pool endpoint: {r}");
    }
    assert_eq!(report["succeeded"].as_u64(), Some(40 - bad.len() as u64));

    // Both browsers ran rows, over the two goes and in the second alone.
    let used: HashSet<&str> = rows.iter().filter_map(|r| r["endpoint"].as_str()).collect();
    assert_eq!(used.len(), 2, "{used:?}");
    let endpoints = report["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), 2, "{report:#}");
    for e in endpoints {
        assert!(e["runs"].as_u64().unwrap() > 0 && e["dead"].is_null(), "{e}");
    }

    // The store: one run per row that succeeded, the one the table names; a row that
    // succeeded before the kill was not run again.
    let listed = statewright(&["runs", "list", "--json"], &runs);
    let listed: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    let mut succeeded_runs: HashMap<String, Vec<String>> = HashMap::new();
    for run in &listed {
        if run["status"] == "succeeded" {
            let seed = run["parameters"]["seed"].as_str().unwrap().to_owned();
            succeeded_runs.entry(seed).or_default().push(run["id"].as_str().unwrap().to_owned());
        }
    }
    for r in rows.iter().filter(|r| r["status"] == "succeeded") {
        let seed = r["values"]["seed"].as_str().unwrap();
        assert_eq!(succeeded_runs.get(seed), Some(&vec![r["run_id"].as_str().unwrap().to_owned()]), "row {seed}");
    }
    for row in &succeeded_before {
        let before = killed.iter().find(|r| r["row"] == *row).unwrap();
        assert_eq!(rows[*row as usize - 1]["run_id"], before["run_id"], "row {row} was not run again");
    }
    // A run under way at the kill is marked interrupted and its row run again, unless it
    // had succeeded by then (the table had not been written yet): then it is taken as is.
    let status: HashMap<&str, &str> =
        listed.iter().map(|r| (r["id"].as_str().unwrap(), r["status"].as_str().unwrap())).collect();
    let in_flight: Vec<&Value> = killed.iter().filter(|r| r["status"] == "running").collect();
    for before in &in_flight {
        let (row, id) = (before["row"].as_u64().unwrap() as usize, before["run_id"].as_str().unwrap());
        match status[id] {
            "succeeded" => assert_eq!(rows[row - 1]["run_id"], id, "row {row}"),
            other => {
                assert_eq!(other, "interrupted", "row {row}'s run {id}");
                assert_ne!(rows[row - 1]["run_id"], id, "row {row} ran again");
            }
        }
    }
    let ids: HashSet<&str> = rows.iter().filter_map(|r| r["run_id"].as_str()).collect();
    assert_eq!(ids.len(), 40, "every row has its own run");
    eprintln!(
        "40 rows: first go killed after {first_go:.0?} with {done_when_killed} rows done and {} under way, whole \
         test {:.0?}",
        in_flight.len(),
        began.elapsed()
    );
}

#[test]
fn a_dead_endpoint_is_reported_and_its_rows_go_to_the_live_one() {
    let _heavy = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let live = Browser::start(&dir.path().join("live"));
    let dead = format!("ws://127.0.0.1:{}/devtools/browser/gone?token=s3cret-token", closed_port());
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "seed\n1\n2\n3\n4\n").unwrap();
    let out = statewright(
        &[
            "batch",
            "workflows/demo-shop.json",
            "--data",
            data.to_str().unwrap(),
            "--demo-site",
            "--no-review",
            "--cdp-url",
            &dead,
            "--cdp-url",
            &live.1,
            "--per-endpoint",
            "2",
            "--json",
        ],
        &runs,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["succeeded"].as_u64(), Some(4), "{report:#}");
    let endpoints = report["endpoints"].as_array().unwrap();
    assert_eq!(endpoints[0]["runs"].as_u64(), Some(0), "{report:#}");
    let why = endpoints[0]["dead"].as_str().unwrap();
    assert!(why.contains("cannot connect") && why.contains("refused"), "{why}");
    assert_eq!((endpoints[1]["runs"].as_u64(), &endpoints[1]["dead"]), (Some(4), &Value::Null), "{report:#}");
    assert!(stderr.contains("is dead, its rows go to the others"), "{stderr}");
    assert!(report["rows"].as_array().unwrap().iter().all(|r| r["endpoint"] == live.1.as_str()), "{report:#}");

    // The token is masked in everything printed or stored.
    let masked = dead.replace("s3cret-token", "***");
    assert!(stderr.contains(&masked) && text(&out.stdout).contains(&masked), "{stderr}");
    for (what, bytes) in [
        ("stdout", out.stdout.clone()),
        ("stderr", out.stderr.clone()),
        ("csv", std::fs::read(dir.path().join("orders.results.csv")).unwrap()),
        ("json", std::fs::read(dir.path().join("orders.results.json")).unwrap()),
        ("store", std::fs::read(runs.join("statewright.db")).unwrap()),
    ] {
        assert!(!String::from_utf8_lossy(&bytes).contains("s3cret"), "the token is in the {what}");
    }
}

#[test]
fn shared_browsers_are_launched_once_for_the_batch_and_closed_after_it() {
    let _heavy = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let data = dir.path().join("orders.csv");
    std::fs::write(
        &data,
        format!("seed,product\n1,Ceramic teapot\n2,{MISSING}\n3,Camping lantern\n4,Ceramic teapot\n"),
    )
    .unwrap();
    let out = statewright(
        &[
            "batch",
            "workflows/demo-shop.json",
            "--data",
            data.to_str().unwrap(),
            "--demo-site",
            "--no-review",
            "--shared-browsers",
            "2",
            "--per-endpoint",
            "2",
            "--json",
        ],
        &runs,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "row 2 fails: {stderr}");
    assert!(stderr.contains("4 at a time · 2 shared browsers"), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let statuses: Vec<&str> =
        report["rows"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["succeeded", "failed", "succeeded", "succeeded"], "{report:#}");
    let endpoints = report["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), 2, "{report:#}");
    assert!(
        endpoints
            .iter()
            .all(|e| e["runs"].as_u64() == Some(2) && e["url"].as_str().unwrap().starts_with("ws://127.0.0.1:"))
    );
    // Closed with the batch: nothing listens on their ports any more.
    for e in endpoints {
        let address = e["url"].as_str().unwrap().trim_start_matches("ws://").split('/').next().unwrap().to_owned();
        assert!(std::net::TcpStream::connect(&address).is_err(), "{address} still listens");
    }
}

#[test]
fn with_every_endpoint_dead_the_rows_end_in_error_and_the_batch_fails() {
    let _heavy = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let data = dir.path().join("orders.csv");
    std::fs::write(&data, "seed\n1\n2\n3\n").unwrap();
    let pool = dir.path().join("pool.json");
    let (p1, p2) = (closed_port(), closed_port());
    std::fs::write(
        &pool,
        format!(r#"{{"endpoints": [{{"cdp_url": "http://127.0.0.1:{p1}"}}, {{"cdp_url": "ws://127.0.0.1:{p2}/x", "max_runs": 2}}]}}"#),
    )
    .unwrap();
    let args = ["batch", "workflows/demo-shop.json", "--data", data.to_str().unwrap(), "--demo-site", "--no-review"];
    let out = statewright(&[&args[..], &["--pool", pool.to_str().unwrap(), "--json"]].concat(), &runs);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    for r in report["rows"].as_array().unwrap() {
        assert_eq!(r["status"], "error", "{r}");
        let message = r["message"].as_str().unwrap();
        assert!(message.starts_with("no browser endpoint is left to run this row: http://127.0.0.1:"), "{message}");
        assert!(message.contains(&format!("ws://127.0.0.1:{p2}/x (")), "{message}");
        assert!(r["run_id"].is_null(), "no run was recorded for a row that never had a browser: {r}");
    }
    assert_eq!(report["endpoints"].as_array().unwrap().iter().filter(|e| e["dead"].is_string()).count(), 2);
    assert!(!runs.join("statewright.db").exists() || runs_in_store(&runs) == 0);

    // A malformed pool file is exit 2 naming the file, line and column; so is a bad URL.
    std::fs::write(&pool, "{\"endpoints\": [\n  {\"cdp_url\": \"ws://127.0.0.1:9222\",}\n]}").unwrap();
    let out = statewright(&[&args[..], &["--pool", pool.to_str().unwrap()]].concat(), &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("pool.json:2:"), "{}", text(&out.stderr));
    let out = statewright(&[&args[..], &["--cdp-url", "127.0.0.1:9222"]].concat(), &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("is not a DevTools endpoint URL"), "{}", text(&out.stderr));
    // --per-endpoint needs endpoints to bound; shared browsers are the batch's own, alone.
    let out = statewright(&[&args[..], &["--per-endpoint", "2"]].concat(), &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--per-endpoint is for --cdp-url or --shared-browsers"),
        "{}",
        text(&out.stderr)
    );
    let out = statewright(&[&args[..], &["--shared-browsers", "2", "--cdp-url", "http://127.0.0.1:1"]].concat(), &runs);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // A single run takes one browser.
    let out = statewright(
        &["run", "workflows/demo-shop.json", "--cdp-url", "http://127.0.0.1:1", "--cdp-url", "http://127.0.0.1:2"],
        &runs,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

fn runs_in_store(runs: &Path) -> usize {
    let out = statewright(&["runs", "list", "--json"], runs);
    serde_json::from_slice::<Vec<Value>>(&out.stdout).map(|v| v.len()).unwrap_or_default()
}
