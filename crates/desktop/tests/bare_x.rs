//! The fallback for X servers without a window manager: this test starts its own bare
//! Xvfb (no openbox, so no EWMH properties) and checks that windows are still found, with
//! title, class, pid and geometry, by walking the X tree, and that focus and typing work.
//! It talks to that display by name, so it needs no `$DISPLAY`, only the Xvfb binary.

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::*;
use statewright_desktop::{Desktop, WindowQuery, WindowSource, X11Desktop};

fn free_display() -> Option<u32> {
    (300..400).find(|n| {
        !std::path::Path::new(&format!("/tmp/.X{n}-lock")).exists()
            && !std::path::Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
    })
}

#[tokio::test]
async fn bare_xvfb_windows_come_from_the_x_tree() {
    if !have("Xvfb") || !have("xterm") {
        return;
    }
    let Some(n) = free_display() else {
        skip("no free display number for a private Xvfb");
        return;
    };
    let display = format!(":{n}");
    let _xvfb = tokio::process::Command::new("Xvfb")
        .args([display.as_str(), "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("Xvfb starts");
    let mut d = None;
    for _ in 0..100 {
        if let Ok(x) = X11Desktop::connect_to(&display).await {
            d = Some(x);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let d = d.expect("the private Xvfb accepts connections within 5 s");
    assert_eq!((d.screen().width, d.screen().height), (1024, 768));
    let (windows, _) = d.windows_with_source().await.unwrap();
    assert!(windows.is_empty(), "a fresh server has no client windows: {windows:?}");

    let dir = tempfile::tempdir().unwrap();
    let spec = xterm("swbare", "Bare xterm", dir.path(), "80x24+100+50").env("DISPLAY", display.as_str());
    let pid = d.launch(&spec).await.unwrap();
    let w = d.wait_for_window(&WindowQuery::title_exact("Bare xterm"), Duration::from_secs(10)).await.unwrap();
    let (_, source) = d.windows_with_source().await.unwrap();
    assert_eq!(source, WindowSource::XTree);
    assert_eq!((w.app_class.as_str(), w.instance.as_str()), ("XTerm", "swbare"));
    assert_eq!(w.pid, Some(pid));
    // No window manager, so the window sits where -geometry put its outer edge; the
    // client area starts inside xterm's X border (1 pixel by default).
    assert!((100..=102).contains(&w.geometry.x) && (50..=52).contains(&w.geometry.y), "{:?}", w.geometry);

    // Focus without a window manager: set_input_focus directly.
    let f = d.focus(&WindowQuery::app_class("swbare")).await.unwrap();
    assert!(f.focused);
    assert_eq!(d.focused_window().await.unwrap().map(|f| f.id), Some(w.id));
    d.type_text("echo bare > bare.txt\n").await.unwrap();
    let file = dir.path().join("bare.txt");
    assert!(eventually(Duration::from_secs(10), || read(&file) == "bare\n").await, "{:?}", read(&file));

    // Screenshots follow $DISPLAY (xcap's rule); the driver refuses to capture another one.
    if std::env::var("DISPLAY").ok().as_deref() != Some(display.as_str()) {
        let err = d.screenshot(&statewright_desktop::CaptureTarget::Screen).await.unwrap_err();
        assert!(err.to_string().contains(&display), "{err}");
    }
}
