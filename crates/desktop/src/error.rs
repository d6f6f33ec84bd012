//! One error type for the whole driver. Every variant's message is written for the person
//! running a workflow: it says what was missing and how to get it, never just "failed".

use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DesktopError {
    /// `DISPLAY` is unset, or names a display that does not answer.
    #[error("no X display: set DISPLAY or run under Xvfb (scripts/with-display) ({detail})")]
    NoDisplay { detail: String },

    /// A Wayland session with no X server to talk to.
    #[error(
        "Wayland-only session (WAYLAND_DISPLAY={wayland_display}, DISPLAY unset): Statewright's desktop \
         driver needs X11; enable XWayland and set DISPLAY, or run under Xvfb (scripts/with-display)"
    )]
    WaylandOnly { wayland_display: String },

    /// No window matched. `windows` lists what does exist, so the workflow author can see
    /// whether the title or class was merely spelled differently.
    #[error("{}", window_not_found_message(.query, .waited, .windows))]
    WindowNotFound { query: String, waited: Option<Duration>, windows: Vec<String> },

    /// The program is neither an executable path nor on `PATH`.
    #[error("program not found: `{program}` (searched: {})", display_paths(.searched))]
    ProgramNotFound { program: String, searched: Vec<PathBuf> },

    /// The program exists but could not be started.
    #[error("could not launch `{program}`: {message}")]
    Launch { program: String, message: String },

    /// The request can never succeed as written: an unknown key name, an invalid regex…
    #[error("{0}")]
    Invalid(String),

    /// The X server refused a request or the connection broke.
    #[error("X11 error: {0}")]
    X11(String),

    /// xcap could not capture, or the image could not be encoded.
    #[error("screenshot failed: {0}")]
    Capture(String),

    /// enigo could not send input events.
    #[error("input failed: {0}")]
    Input(String),
}

pub type DesktopResult<T> = Result<T, DesktopError>;

impl DesktopError {
    /// Errors after which the desktop itself is unusable (as opposed to one bad request).
    pub fn is_fatal(&self) -> bool {
        matches!(self, DesktopError::NoDisplay { .. } | DesktopError::WaylandOnly { .. } | DesktopError::X11(_))
    }

    pub(crate) fn join(err: tokio::task::JoinError) -> Self {
        DesktopError::X11(format!("a blocking desktop task did not finish: {err}"))
    }
}

fn window_not_found_message(query: &str, waited: &Option<Duration>, windows: &[String]) -> String {
    let mut msg = format!("no window matches {query}");
    if let Some(waited) = waited {
        msg.push_str(&format!(" after waiting {:.1} s", waited.as_secs_f64()));
    }
    if windows.is_empty() {
        msg.push_str("; there are no windows on this display");
    } else {
        msg.push_str("; windows on this display: ");
        msg.push_str(&windows.join(", "));
    }
    msg
}

fn display_paths(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "PATH is empty".into();
    }
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":")
}
