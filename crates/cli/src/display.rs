//! A browser window needs a display: `--headed` (and `record`, which shows its browser unless
//! told `--headless`) is refused up front when there is none, rather than left to Chromium
//! to fail at launch with a dump of its own.

/// `Err` (a usage error, exit 2) when a window is asked for and there is no display to show
/// it on; `instead` says what to do about it.
pub fn check(window: bool, instead: &str) -> Result<(), String> {
    let set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty());
    if window && !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
        return Err(format!("no display to show the browser on (DISPLAY and WAYLAND_DISPLAY are unset): {instead}"));
    }
    Ok(())
}

/// What a command that takes `--headed` says to do instead.
pub const NOT_HEADED: &str = "leave out --headed, or attach to a browser on a display with --cdp-url";
