//! Statewright's Chrome driver: Chromium over the DevTools Protocol (chromiumoxide),
//! implementing the engine's `Driver` with the in-page library `assets/js/statewright.js`.
//!
//! Element actions use real input events at coordinates the library found actionable
//! (attached, visible, stable, enabled, receiving pointer events), as Playwright does.

mod driver;
mod input;
mod page;
mod session;

pub use driver::ChromeDriver;
pub use session::LaunchOptions;

#[derive(Debug, thiserror::Error)]
pub enum ChromeError {
    #[error("cannot launch Chromium: {0} (is it installed? set STATEWRIGHT_CHROME to its path)")]
    Launch(String),
    #[error("cannot attach to the browser at {0}")]
    Connect(String),
}
