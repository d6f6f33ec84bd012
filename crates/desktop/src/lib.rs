//! Statewright's desktop driver: X11 windows, screenshots, mouse and keyboard input, and
//! launching programs, behind the narrow [`Desktop`] trait (as the engine's browser
//! `Driver` is narrow), so the engine can recognise desktop states and act on them without
//! knowing about X.
//!
//! [`X11Desktop`] implements it with x11rb (windows and focus, with a fallback for bare X
//! servers that have no window manager), xcap (screenshots) and enigo's XTest backend
//! (input). Every blocking call runs off the async runtime. Run tests and tools on a
//! machine without a screen under `scripts/with-display`.

mod capture;
mod desktop;
mod error;
mod input;
mod keymap;
mod launch;
pub mod testing;
mod types;
mod x11;

use std::future::Future;
use std::time::Duration;

pub use capture::encode_png;
pub use desktop::X11Desktop;
pub use error::{DesktopError, DesktopResult};
pub use launch::OWN_ENV;
pub use types::{
    CaptureTarget, DesktopObservation, LaunchSpec, MouseButton, Position, Rect, Screenshot, TitleMatch, WindowInfo,
    WindowMatcher, WindowQuery,
};
pub use x11::WindowSource;

/// How often window waits poll the X server.
pub const POLL_INTERVAL: Duration = Duration::from_millis(50);

/// A desktop under Statewright's control. Methods take `&self` so an observation can run
/// while another task waits for a window; implementations serialise input themselves.
pub trait Desktop: Send + Sync {
    /// Every top-level window, in the window manager's (or the X tree's) order.
    fn windows(&self) -> impl Future<Output = DesktopResult<Vec<WindowInfo>>> + Send;

    /// The window with the keyboard focus, if any.
    fn focused_window(&self) -> impl Future<Output = DesktopResult<Option<WindowInfo>>> + Send;

    /// The first window matching `query`, or `WindowNotFound` listing the windows there are.
    fn find_window(&self, query: &WindowQuery) -> impl Future<Output = DesktopResult<WindowInfo>> + Send;

    /// Polls (every [`POLL_INTERVAL`]) until a *visible* window matches (one still being
    /// set up cannot take input yet), or `timeout` passes.
    fn wait_for_window(
        &self,
        query: &WindowQuery,
        timeout: Duration,
    ) -> impl Future<Output = DesktopResult<WindowInfo>> + Send;

    /// Raises and focuses the matching window, and returns once X has reported it focused
    /// for a moment (a window manager can still hand the focus to a window just opened).
    fn focus(&self, query: &WindowQuery) -> impl Future<Output = DesktopResult<WindowInfo>> + Send;

    fn screenshot(&self, target: &CaptureTarget) -> impl Future<Output = DesktopResult<Screenshot>> + Send;

    fn move_mouse(&self, at: &Position) -> impl Future<Output = DesktopResult<()>> + Send;

    /// `count` clicks in a row (2 = a double click).
    fn click(&self, at: &Position, button: MouseButton, count: u32) -> impl Future<Output = DesktopResult<()>> + Send;

    fn double_click(&self, at: &Position) -> impl Future<Output = DesktopResult<()>> + Send {
        self.click(at, MouseButton::Left, 2)
    }

    /// Presses at `from`, moves through intermediate points, releases at `to`.
    fn drag(
        &self,
        from: &Position,
        to: &Position,
        button: MouseButton,
    ) -> impl Future<Output = DesktopResult<()>> + Send;

    /// Wheel notches at a point: positive `dy` scrolls down, positive `dx` right.
    fn scroll(&self, at: &Position, dx: i32, dy: i32) -> impl Future<Output = DesktopResult<()>> + Send;

    /// Types text into the focused window (`\n` is Enter).
    fn type_text(&self, text: &str) -> impl Future<Output = DesktopResult<()>> + Send;

    /// Presses a key or combination: `Enter`, `Control+Shift+T`, `alt+F4` (case-insensitive).
    fn press_keys(&self, combo: &str) -> impl Future<Output = DesktopResult<()>> + Send;

    /// Starts a program and returns its pid; it does not wait for a window.
    fn launch(&self, spec: &LaunchSpec) -> impl Future<Output = DesktopResult<u32>> + Send;

    /// Screenshot, window list and focused window, for recognising states and the run record.
    fn observe(&self) -> impl Future<Output = DesktopResult<DesktopObservation>> + Send;
}
