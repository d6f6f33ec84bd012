//! Statewright's Chrome driver: Chromium over the DevTools Protocol (chromiumoxide),
//! implementing the engine's `Driver` with the in-page library `assets/js/statewright/`.
//!
//! Element actions use real input events at coordinates the library found actionable
//! (attached, visible, stable, enabled, receiving pointer events), as Playwright does.

mod address;
mod dialog;
mod driver;
mod frames;
mod guard;
mod input;
mod observe;
mod page;
mod record;
mod refusal;
mod session;
mod shared;
mod tabs;
mod tls;
mod version;

pub use address::{endpoint_address, mask_url};
pub use driver::ChromeDriver;
pub use record::{Heard, Recording};
pub use session::LaunchOptions;
pub use shared::SharedBrowser;
pub use tls::check_authorities;

#[derive(Debug, thiserror::Error)]
pub enum ChromeError {
    #[error("cannot launch Chromium: {0} (is it installed? set STATEWRIGHT_CHROME to its path)")]
    Launch(String),
    #[error("cannot attach to the browser at {0}")]
    Connect(String),
    /// The `--cdp-url` itself is malformed: the caller's input, not the machine.
    #[error("`{url}` is not a DevTools endpoint URL: {reason}")]
    InvalidUrl { url: String, reason: String },
}

impl ChromeError {
    /// Whether the caller's input is at fault (rather than the browser or the machine).
    pub fn is_invalid_input(&self) -> bool {
        matches!(self, Self::InvalidUrl { .. })
    }
}
