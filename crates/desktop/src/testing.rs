//! For tests against a real X display, this crate's and the drivers' built on it. They
//! skip (print why and return) rather than fail where there is no display, so `cargo test`
//! passes on a machine without X; `scripts/test` runs them under `scripts/with-display`.

use crate::{DesktopError, X11Desktop};

/// The tests of one binary share one screen and one keyboard focus: they take this lock so
/// that one test's typing never lands in another test's window.
pub static SCREEN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Prints past libtest's output capture (which only catches `print!`/`eprint!`), so a
/// skipped test is visible in a plain `cargo test` run.
pub fn skip(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIP: {why}");
}

/// A desktop on `$DISPLAY`, or `None` (after printing why) when there is none. `tested`
/// names what the caller tests, for the message.
pub async fn test_desktop(tested: &str) -> Option<X11Desktop> {
    if std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        skip(&format!("no X display (DISPLAY is unset); run under scripts/with-display to test {tested}"));
        return None;
    }
    match X11Desktop::connect().await {
        Ok(d) => Some(d),
        Err(e @ DesktopError::WaylandOnly { .. }) => {
            skip(&e.to_string());
            None
        }
        // DISPLAY is set but its server does not answer: that is a broken test display, not
        // a missing one (a skip here once hid an X server that reset under the tests).
        Err(e) => panic!("connecting to the display failed unexpectedly: {e}"),
    }
}

/// Whether `program` is on the `PATH`; skips (saying so) when it is not.
pub fn have(program: &str) -> bool {
    let found = std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()));
    if !found {
        skip(&format!("`{program}` is not installed (apt-get install it; see scripts/setup)"));
    }
    found
}
