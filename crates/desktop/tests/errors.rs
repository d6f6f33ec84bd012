//! Error cases: each must be a typed error with a message that says what to do, never a
//! panic. The environment cases run this test binary again as a child process with a
//! doctored environment (changing our own environment would race the other tests).

mod common;

use std::process::Command;
use std::time::Duration;

use common::*;
use statewright_desktop::{Desktop, DesktopError, LaunchSpec, WindowQuery, X11Desktop};

/// Runs `helper` (an ignored test in this file) in a child with DISPLAY and Wayland set as
/// given, and returns its combined output.
fn run_helper(helper: &str, display: Option<&str>, wayland: Option<&str>) -> String {
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut cmd = Command::new(exe);
    cmd.args(["--exact", helper, "--include-ignored", "--nocapture", "--test-threads=1"]);
    cmd.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").env("SW_DESKTOP_HELPER", "1");
    if let Some(d) = display {
        cmd.env("DISPLAY", d);
    }
    if let Some(w) = wayland {
        cmd.env("WAYLAND_DISPLAY", w);
    }
    let out = cmd.output().expect("the test binary runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "helper {helper} failed:\n{text}");
    text
}

/// Prints the connect error between markers, for the parent test to read.
#[tokio::test]
#[ignore = "helper, run by the environment tests"]
async fn helper_connect() {
    if std::env::var_os("SW_DESKTOP_HELPER").is_none() {
        return;
    }
    match X11Desktop::connect().await {
        Ok(_) => println!("<<connected>>"),
        Err(e) => println!("<<{}>>: <<{e}>>", variant(&e)),
    }
}

fn variant(e: &DesktopError) -> &'static str {
    match e {
        DesktopError::NoDisplay { .. } => "NoDisplay",
        DesktopError::WaylandOnly { .. } => "WaylandOnly",
        _ => "other",
    }
}

#[test]
fn unset_display_is_no_display() {
    let out = run_helper("helper_connect", None, None);
    assert!(out.contains("<<NoDisplay>>"), "{out}");
    assert!(out.contains("no X display: set DISPLAY or run under Xvfb (scripts/with-display)"), "{out}");
}

#[test]
fn unreachable_display_is_no_display() {
    let out = run_helper("helper_connect", Some(":4711"), None);
    assert!(out.contains("<<NoDisplay>>"), "{out}");
    assert!(out.contains(":4711"), "names the display it tried: {out}");
}

#[test]
fn wayland_only_session_explains_x11_is_needed() {
    let out = run_helper("helper_connect", None, Some("wayland-0"));
    assert!(out.contains("<<WaylandOnly>>"), "{out}");
    assert!(out.contains("needs X11") && out.contains("XWayland"), "{out}");
}

#[tokio::test]
async fn connect_to_a_dead_display_fails_cleanly() {
    let err = X11Desktop::connect_to(":4712").await.err().expect("no server on :4712");
    assert!(matches!(err, DesktopError::NoDisplay { .. }), "{err}");
    assert!(err.is_fatal());
}

#[tokio::test]
async fn missing_window_lists_the_windows_that_exist() {
    let _screen = SCREEN.lock().await;
    let Some(d) = desktop().await else { return };
    if !have("xterm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    d.launch(&xterm("swerr", "Existing window", dir.path(), "40x10+0+0")).await.unwrap();
    d.wait_for_window(&WindowQuery::title_exact("Existing window"), Duration::from_secs(10)).await.unwrap();

    let q = WindowQuery::title_contains("No such window");
    let start = std::time::Instant::now();
    let err = d.wait_for_window(&q, Duration::from_millis(300)).await.unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(3), "the wait honours its timeout");
    let msg = err.to_string();
    assert!(matches!(err, DesktopError::WindowNotFound { .. }), "{msg}");
    assert!(msg.contains(r#"title containing "No such window""#), "says what it searched: {msg}");
    assert!(msg.contains(r#""Existing window" (XTerm"#), "lists what exists: {msg}");
    assert!(msg.contains("after waiting"), "{msg}");

    let err = d.focus(&WindowQuery::app_class("NoSuchClass")).await.unwrap_err();
    assert!(matches!(err, DesktopError::WindowNotFound { .. }), "{err}");
    let err = d.find_window(&WindowQuery::title_regex("(unclosed")).await.unwrap_err();
    assert!(matches!(err, DesktopError::Invalid(_)), "{err}");
    let err = d.press_keys("Control+Nope").await.unwrap_err();
    assert!(matches!(err, DesktopError::Invalid(_)), "{err}");
}

#[tokio::test]
async fn missing_program_says_where_it_looked() {
    let Some(d) = desktop().await else { return };
    let err = d.launch(&LaunchSpec::new("statewright-no-such-program")).await.unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, DesktopError::ProgramNotFound { .. }), "{msg}");
    assert!(msg.contains("statewright-no-such-program") && msg.contains("/usr/bin"), "{msg}");
    let err = d.launch(&LaunchSpec::new("/nonexistent/tool")).await.unwrap_err();
    assert!(err.to_string().contains("/nonexistent/tool"), "{err}");
}
