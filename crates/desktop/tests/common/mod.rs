//! Shared helpers for the real-X tests. They skip (print and return) rather than fail when
//! there is no display, so `cargo test` passes on a machine without X; `scripts/test`
//! runs them under `scripts/with-display`.
#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

use statewright_desktop::{Desktop, LaunchSpec, Rect, WindowInfo, WindowQuery, X11Desktop};

// Not every test binary uses all of them.
#[allow(unused_imports)]
pub use statewright_desktop::testing::{SCREEN, have, skip};

/// A desktop on `$DISPLAY`, or `None` (after printing why) when there is none.
pub async fn desktop() -> Option<X11Desktop> {
    statewright_desktop::testing::test_desktop("the desktop driver").await
}

/// An xterm running a plain `sh` in `dir`: `sh` sets no window title and has no line
/// editor, so the title stays ours and Control+U is the terminal's line kill.
pub fn xterm(instance: &str, title: &str, dir: &Path, geometry: &str) -> LaunchSpec {
    let mut spec = LaunchSpec::new("xterm")
        .args(["-name", instance, "-T", title, "-geometry", geometry, "-fn", "fixed", "+sb", "-e", "sh"])
        .env("PS1", "$ ")
        .kill_on_drop(true);
    spec.cwd = Some(dir.to_path_buf());
    spec
}

/// Starts [`xterm`] and waits for its window at a terminal's size (every xterm here is at
/// least 40x10 cells, over 100 px each way); returns its pid and window.
///
/// xterm sizes its window only after creating it, and it adopts any size a configure event
/// reports. When the window manager is busy, as after a keyboard mapping change (openbox
/// re-grabs its key bindings on each), a new xterm can come up at one cell and stay so
/// (its own WM_NORMAL_HINTS then say "user specified size: 10 by 17"): seen in CI, and
/// here after the test that types characters the layout lacks. The size is xterm's and
/// the window manager's, not the driver's: such a window is closed and the xterm started
/// again, up to three times.
pub async fn open_xterm(d: &X11Desktop, instance: &str, title: &str, dir: &Path, geometry: &str) -> (u32, WindowInfo) {
    open_xterm_spec(d, &xterm(instance, title, dir, geometry), title).await
}

/// [`open_xterm`] for an xterm [`LaunchSpec`] changed further (its environment, say).
pub async fn open_xterm_spec(d: &X11Desktop, spec: &LaunchSpec, title: &str) -> (u32, WindowInfo) {
    use std::io::Write;
    let query = WindowQuery::title_exact(title);
    let mut last = None;
    for _ in 0..3 {
        let pid = d.launch(spec).await.unwrap();
        let mut w = d.wait_for_window(&query, Duration::from_secs(10)).await.unwrap();
        // A window can also be listed a moment before the window manager gives it its size.
        for _ in 0..40 {
            if w.geometry.width > 100 && w.geometry.height > 100 {
                return (pid, w);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            w = d.wait_for_window(&query, Duration::from_secs(10)).await.unwrap();
        }
        let _ = writeln!(std::io::stderr(), "xterm {title:?} came up at {:?}; starting it again", w.geometry);
        let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
        for _ in 0..100 {
            if d.find_window(&query).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        last = Some(w.geometry);
    }
    panic!("xterm {title:?} came up at {last:?} three times");
}

/// A window's place on the screen and size as `xwininfo` (x11-utils) reads them: a check
/// on the driver that does not go through it.
pub fn server_geometry(window: u32) -> Rect {
    let out =
        std::process::Command::new("xwininfo").args(["-id", &window.to_string()]).output().expect("xwininfo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| -> i64 {
        let line =
            text.lines().find_map(|l| l.trim().strip_prefix(name)).unwrap_or_else(|| panic!("no {name} in {text}"));
        line.trim().parse().unwrap()
    };
    Rect {
        x: field("Absolute upper-left X:") as i32,
        y: field("Absolute upper-left Y:") as i32,
        width: field("Width:") as u32,
        height: field("Height:") as u32,
    }
}

/// Types `touch ready` into the focused shell until the file appears (up to 3 tries), so
/// a test types only once the shell is reading its terminal.
pub async fn shell_ready(d: &X11Desktop, dir: &Path) -> bool {
    let ready = dir.join("ready");
    for _ in 0..3 {
        if d.type_text("touch ready\n").await.is_err() {
            return false;
        }
        if eventually(Duration::from_secs(3), || ready.exists()).await {
            return true;
        }
    }
    false
}

/// Polls `cond` every 25 ms until it holds or `timeout` passes.
pub async fn eventually(timeout: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if cond() {
            return true;
        }
        if start.elapsed() > timeout {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Decodes a PNG into RGB pixels.
pub fn pixels(png: &[u8]) -> image::RgbImage {
    image::load_from_memory(png).expect("the driver's PNG decodes").to_rgb8()
}

/// How many pixels differ between two same-sized images (all differ if the sizes differ).
pub fn changed_pixels(a: &image::RgbImage, b: &image::RgbImage) -> usize {
    if a.dimensions() != b.dimensions() {
        return (a.width() * a.height()).max(b.width() * b.height()) as usize;
    }
    a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count()
}
