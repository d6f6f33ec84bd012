//! A rewritten site serves its html, js and css with the rules applied and everything else
//! untouched; the drift fixture of the demo site applies in full.

use std::path::{Path, PathBuf};

use statewright_demo::{Rewrite, Site, SiteError, SiteServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn drift_fixture() -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo"))
        .join("../../tests/fixtures/drift/demo-drift.json")
}

/// The body of `GET path`, over plain HTTP/1.1 (no client crate needed for loopback).
async fn get(server: &SiteServer, path: &str) -> String {
    let addr = server.url().trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("receive");
    let response = String::from_utf8(response).expect("utf-8 response");
    let (head, body) = response.split_once("\r\n\r\n").expect("head and body");
    assert!(head.starts_with("HTTP/1.1 200"), "GET {path}: {head}");
    body.to_owned()
}

fn rule(from: &str, to: &str) -> Rewrite {
    Rewrite { from: from.into(), to: to.into(), note: None }
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write fixture file");
}

#[tokio::test]
async fn pages_scripts_and_styles_are_rewritten_and_data_is_not() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "index.html", "<b id=\"old\">Old</b>");
    write(dir.path(), "app.js", "getElementById('old')");
    write(dir.path(), "style.css", "#old { color: red }");
    write(dir.path(), "data.json", "{\"id\": \"old\"}");
    let rules = vec![rule("old", "new"), rule(">Old<", ">New<")];
    let site = Site::rewritten(Site::Dir(dir.path().to_owned()), rules).expect("every rule matches");
    let server = SiteServer::start(site, 0).await.unwrap();
    assert_eq!(get(&server, "/index.html").await, "<b id=\"new\">New</b>");
    assert_eq!(get(&server, "/app.js").await, "getElementById('new')");
    assert_eq!(get(&server, "/style.css").await, "#new { color: red }");
    assert_eq!(get(&server, "/data.json").await, "{\"id\": \"old\"}", "data is not part of a redesign");
}

#[tokio::test]
async fn a_rule_that_matches_nothing_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "index.html", "<b id=\"old\">Old</b>");
    write(dir.path(), "data.json", "{\"only\": \"here\"}");
    let site = Site::Dir(dir.path().to_owned());
    match Site::rewritten(site.clone(), vec![rule("old", "new"), rule("missing", "x")]) {
        Err(e @ SiteError::Unmatched { number: 2, .. }) => assert!(e.to_string().contains("\"missing\""), "{e}"),
        other => panic!("an unmatched rule must be reported: {other:?}"),
    }
    assert!(
        matches!(Site::rewritten(site.clone(), vec![rule("here", "there")]), Err(SiteError::Unmatched { .. })),
        "text only in data files does not count as a match"
    );
    // Rewriting a rewritten site checks the new rules against the rewritten text.
    let once = Site::rewritten(site, vec![rule("old", "new")]).unwrap();
    assert!(matches!(Site::rewritten(once.clone(), vec![rule("old", "x")]), Err(SiteError::Unmatched { .. })));
    assert!(Site::rewritten(once, vec![rule("new", "newer")]).is_ok());
}

#[test]
fn a_malformed_drift_file_is_reported_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("drift.json");
    write(dir.path(), "drift.json", r#"{"rules": [{"from": "a", "too": "b"}]}"#);
    let error = Site::drifted(Site::Demo, &path).expect_err("`too` is not a field");
    assert!(matches!(error, SiteError::Parse { .. }), "{error}");
    assert!(error.to_string().contains("drift.json"), "{error}");
    let missing = Site::drifted(Site::Demo, &dir.path().join("absent.json")).expect_err("no such file");
    assert!(matches!(missing, SiteError::Read { .. }), "{missing}");
}

#[tokio::test]
async fn the_demo_drift_fixture_applies_to_the_demo_site() {
    let site = Site::drifted(Site::Demo, &drift_fixture()).unwrap_or_else(|e| panic!("the drift fixture rotted: {e}"));
    let server = SiteServer::start(site, 0).await.unwrap();
    let login = get(&server, "/login.html").await;
    assert!(login.contains("id=\"login-submit\"") && login.contains(">Log in</button>"), "{login}");
    assert!(!login.contains("id=\"sign-in\"") && !login.contains("id=\"password\""), "old ids are gone: {login}");
    let script = get(&server, "/login.js").await;
    assert!(script.contains("getElementById('login-password')") && script.contains("getElementById('signin-form')"));
    assert!(get(&server, "/style.css").await.contains("#basket {"), "the css follows the renamed id");
    assert!(get(&server, "/index.html").await.contains("id=\"welcome\""));
    let products = get(&server, "/data/products.json").await;
    let original = SiteServer::start(Site::Demo, 0).await.unwrap();
    assert_eq!(products, get(&original, "/data/products.json").await, "data is served as is");
}

/// The status line of `GET path`.
async fn status(server: &SiteServer, path: &str) -> String {
    let addr = server.url().trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("receive");
    String::from_utf8_lossy(&response).lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_pipe_or_a_device_in_a_served_folder_is_not_found_at_once() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "index.html", "<p>home</p>");
    let fifo = dir.path().join("stuck.html");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.js")).unwrap();
    let server = SiteServer::start(Site::Dir(dir.path().to_owned()), 0).await.unwrap();
    // The pipe first: read as before, it never answered (and /dev/zero was read until memory
    // ran out).
    let within = std::time::Duration::from_secs(10);
    let Ok(stuck) = tokio::time::timeout(within, status(&server, "/stuck.html")).await else {
        // A writer that closes at once lets the blocked read end, so the test fails, not hangs.
        std::thread::spawn(move || std::fs::OpenOptions::new().write(true).open(fifo));
        panic!("GET /stuck.html had no answer after 10 s");
    };
    assert_eq!(stuck, "HTTP/1.1 404 Not Found");
    assert_eq!(status(&server, "/zero.js").await, "HTTP/1.1 404 Not Found");
    assert_eq!(get(&server, "/index.html").await, "<p>home</p>", "a regular file is served as before");
}
