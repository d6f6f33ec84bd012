//! [`X11Desktop`]: the [`Desktop`] trait over x11rb, xcap and enigo.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use enigo::{Enigo, Key};
use tokio::process::Child;
use tokio::task::spawn_blocking;

use crate::error::{DesktopError, DesktopResult};
use crate::input::{self, InputThread};
use crate::keymap::{KeyMap, Remap};
use crate::types::{
    CaptureTarget, DesktopObservation, LaunchSpec, MouseButton, Position, Screenshot, WindowInfo, WindowQuery,
};
use crate::x11::{self, WindowSource, X11};
use crate::{Desktop, POLL_INTERVAL, capture, launch};

/// How long `focus` waits for X to report the new focus before giving up.
const FOCUS_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the focus must stay on a window before `focus` returns. The window manager
/// acts on our request some time after the X server has passed it on, and may meanwhile
/// still be focusing a window that has just opened: the focus we saw can be taken back.
const FOCUS_SETTLE: Duration = Duration::from_millis(150);
/// How long programs get to read a keyboard mapping change before the keys it binds are
/// pressed, and after the last press before it is undone.
const REMAP_SETTLE: Duration = Duration::from_millis(150);
/// Intermediate pointer positions in a drag.
const DRAG_STEPS: u32 = 12;

/// A connection to one X display. Cheap to clone; clones share the connection, the input
/// thread and the programs launched with `kill_on_drop`.
#[derive(Clone)]
pub struct X11Desktop {
    inner: Arc<Inner>,
}

struct Inner {
    x: Arc<X11>,
    display: String,
    input: InputThread,
    keys: Arc<KeyMap>,
    /// Held while keys are bound for a text, so two texts never share a spare keycode.
    typing: tokio::sync::Mutex<()>,
    children: Mutex<Vec<Child>>,
}

/// Spare keycodes bound for one text; unbound on drop (a blocking round trip of about a
/// millisecond to the X server).
struct Bound {
    x: Arc<X11>,
    unbind: Remap,
}

impl Drop for Bound {
    fn drop(&mut self) {
        if let Err(e) = self.x.remap(&self.unbind) {
            tracing::warn!("could not unbind the keys bound for typing: {e}");
        }
    }
}

impl X11Desktop {
    /// Connects to `$DISPLAY`. Fails with `NoDisplay` or `WaylandOnly` when there is no X
    /// server to talk to.
    pub async fn connect() -> DesktopResult<X11Desktop> {
        Self::open(None).await
    }

    /// Connects to a named display (`:99`). Window queries and input go there; xcap
    /// always captures `$DISPLAY`, so screenshots fail unless it names the same display.
    pub async fn connect_to(display: &str) -> DesktopResult<X11Desktop> {
        Self::open(Some(display.to_owned())).await
    }

    async fn open(display: Option<String>) -> DesktopResult<X11Desktop> {
        let display = x11::display_name(display.as_deref())?;
        let inner = spawn_blocking(move || {
            let x = X11::connect(&display)?;
            let keys = Arc::new(x.key_map()?);
            let input = InputThread::start(display.clone())?;
            let typing = tokio::sync::Mutex::new(());
            Ok::<_, DesktopError>(Inner {
                x: Arc::new(x),
                display,
                input,
                keys,
                typing,
                children: Mutex::new(Vec::new()),
            })
        })
        .await
        .map_err(DesktopError::join)??;
        Ok(X11Desktop { inner: Arc::new(inner) })
    }

    /// Runs an input job with `bound` characters bound to their spare keycodes, with a
    /// pause on each side for programs to read the change (see `keymap.rs`). The caller
    /// holds the typing lock.
    async fn with_bound(
        &self,
        bound: Vec<(char, u8)>,
        job: impl FnOnce(&mut Enigo, &KeyMap) -> DesktopResult<()> + Send + 'static,
    ) -> DesktopResult<()> {
        let Some((bind, unbind)) = self.inner.keys.remaps(&bound) else {
            let keys = self.inner.keys.clone();
            return self.inner.input.run(move |e| job(e, &keys)).await;
        };
        // Unbinds when dropped, also when this future is dropped unfinished (a cancelled run).
        let _bound = Bound { x: self.inner.x.clone(), unbind };
        self.x(move |x| x.remap(&bind)).await?;
        tokio::time::sleep(REMAP_SETTLE).await;
        let keys = self.inner.keys.extended(&bound);
        let done = self.inner.input.run(move |e| job(e, &keys)).await;
        tokio::time::sleep(REMAP_SETTLE).await;
        done
    }

    /// The display this driver talks to.
    pub fn display(&self) -> &str {
        &self.inner.display
    }

    /// Runs a blocking X query on the blocking pool.
    async fn x<T: Send + 'static>(
        &self,
        f: impl FnOnce(&X11) -> DesktopResult<T> + Send + 'static,
    ) -> DesktopResult<T> {
        let x = self.inner.x.clone();
        spawn_blocking(move || f(&x)).await.map_err(DesktopError::join)?
    }

    /// The window list and whether it came from the window manager or the X tree.
    pub async fn windows_with_source(&self) -> DesktopResult<(Vec<WindowInfo>, WindowSource)> {
        self.x(|x| x.windows()).await
    }

    /// The screen's size in pixels.
    pub fn screen(&self) -> crate::Rect {
        self.inner.x.screen()
    }

    fn not_found(query: &WindowQuery, waited: Option<Duration>, windows: &[WindowInfo]) -> DesktopError {
        DesktopError::WindowNotFound {
            query: query.describe(),
            waited,
            windows: windows.iter().map(WindowInfo::describe).collect(),
        }
    }

    async fn resolve(&self, at: &Position) -> DesktopResult<(i32, i32)> {
        match at {
            Position::Screen { x, y } => Ok((*x, *y)),
            Position::Window { window, x, y } => {
                let w = self.find_window(window).await?;
                Ok((w.geometry.x + x, w.geometry.y + y))
            }
        }
    }

    /// xcap reads `$DISPLAY` itself; refuse rather than capture some other display.
    fn check_capture_display(&self) -> DesktopResult<()> {
        match std::env::var("DISPLAY") {
            Ok(d) if d == self.inner.display => Ok(()),
            other => Err(DesktopError::Capture(format!(
                "screenshots are taken from $DISPLAY ({}) but this driver is connected to {}",
                other.unwrap_or_default(),
                self.inner.display
            ))),
        }
    }

    /// Forgets exited children and keeps the rest (their `kill_on_drop` must outlive us).
    fn keep_child(&self, child: Child) {
        if let Ok(mut children) = self.inner.children.lock() {
            children.retain_mut(|c| matches!(c.try_wait(), Ok(None)));
            children.push(child);
        }
    }
}

impl Desktop for X11Desktop {
    async fn windows(&self) -> DesktopResult<Vec<WindowInfo>> {
        Ok(self.windows_with_source().await?.0)
    }

    async fn focused_window(&self) -> DesktopResult<Option<WindowInfo>> {
        Ok(self.windows().await?.into_iter().find(|w| w.focused))
    }

    async fn find_window(&self, query: &WindowQuery) -> DesktopResult<WindowInfo> {
        let matcher = query.matcher()?;
        let windows = self.windows().await?;
        let mut matching = windows.iter().filter(|w| matcher.matches(w));
        let first = matching.next();
        // Prefer a visible match over a hidden one that happens to come first.
        match first.filter(|w| w.visible).or_else(|| matching.find(|w| w.visible)).or(first) {
            Some(w) => Ok(w.clone()),
            None => Err(Self::not_found(query, None, &windows)),
        }
    }

    async fn wait_for_window(&self, query: &WindowQuery, timeout: Duration) -> DesktopResult<WindowInfo> {
        let matcher = query.matcher()?;
        let start = Instant::now();
        loop {
            let windows = self.windows().await?;
            if let Some(w) = windows.iter().find(|w| w.visible && matcher.matches(w)) {
                return Ok(w.clone());
            }
            if start.elapsed() >= timeout {
                return Err(Self::not_found(query, Some(start.elapsed()), &windows));
            }
            tokio::time::sleep(POLL_INTERVAL).await;
        }
    }

    async fn focus(&self, query: &WindowQuery) -> DesktopResult<WindowInfo> {
        let target = self.find_window(query).await?;
        let id = target.id;
        self.x(move |x| x.request_focus(id, false)).await?;
        let start = Instant::now();
        let mut forced = false;
        let mut held_since = None;
        loop {
            let windows = self.windows().await?;
            match windows.iter().find(|w| w.id == id) {
                Some(w) if w.focused => {
                    if held_since.get_or_insert_with(Instant::now).elapsed() >= FOCUS_SETTLE {
                        return Ok(w.clone());
                    }
                }
                // The focus came and went: ask again.
                Some(_) if held_since.take().is_some() => self.x(move |x| x.request_focus(id, forced)).await?,
                Some(_) => {}
                None => return Err(Self::not_found(query, Some(start.elapsed()), &windows)),
            }
            // A window manager may refuse (focus-stealing prevention): after half the
            // budget, set the focus ourselves.
            if !forced && start.elapsed() >= FOCUS_TIMEOUT / 2 {
                forced = true;
                self.x(move |x| x.request_focus(id, true)).await?;
            }
            if start.elapsed() >= FOCUS_TIMEOUT {
                let now = windows.iter().find(|w| w.focused).map_or("no window".into(), WindowInfo::describe);
                return Err(DesktopError::X11(format!(
                    "could not focus {}: after {:.1} s the focus is on {now}",
                    target.describe(),
                    FOCUS_TIMEOUT.as_secs_f64()
                )));
            }
            tokio::time::sleep(POLL_INTERVAL).await;
        }
    }

    async fn screenshot(&self, target: &CaptureTarget) -> DesktopResult<Screenshot> {
        self.check_capture_display()?;
        let area = match target {
            CaptureTarget::Window { window } => Some(self.find_window(window).await?.geometry),
            _ => None,
        };
        let target = target.clone();
        spawn_blocking(move || {
            let (img, rect) = match (target, area) {
                (_, Some(area)) => capture::region(area)?,
                (CaptureTarget::Monitor { index }, _) => capture::monitor(index)?,
                _ => capture::screen()?,
            };
            capture::to_screenshot(&img, rect)
        })
        .await
        .map_err(DesktopError::join)?
    }

    async fn move_mouse(&self, at: &Position) -> DesktopResult<()> {
        let (x, y) = self.resolve(at).await?;
        self.inner.input.run(move |e| input::move_to(e, x, y)).await
    }

    async fn click(&self, at: &Position, button: MouseButton, count: u32) -> DesktopResult<()> {
        let (x, y) = self.resolve(at).await?;
        self.inner.input.run(move |e| input::click(e, x, y, button, count)).await
    }

    async fn drag(&self, from: &Position, to: &Position, button: MouseButton) -> DesktopResult<()> {
        let from = self.resolve(from).await?;
        let to = self.resolve(to).await?;
        self.inner.input.run(move |e| input::drag(e, from, to, button, DRAG_STEPS)).await
    }

    async fn scroll(&self, at: &Position, dx: i32, dy: i32) -> DesktopResult<()> {
        let (x, y) = self.resolve(at).await?;
        self.inner.input.run(move |e| input::scroll(e, x, y, dx, dy)).await
    }

    async fn type_text(&self, text: &str) -> DesktopResult<()> {
        let _typing = self.inner.typing.lock().await;
        for (piece, bound) in self.inner.keys.pieces(text) {
            self.with_bound(bound, move |e, keys| input::type_text(e, keys, &piece)).await?;
        }
        Ok(())
    }

    async fn press_keys(&self, combo: &str) -> DesktopResult<()> {
        let combo = input::parse_combo(combo)?;
        let key = match combo.key {
            Key::Unicode(c) => c.to_string(),
            _ => String::new(),
        };
        let _typing = self.inner.typing.lock().await;
        let bound = self.inner.keys.pieces(&key).pop().map(|(_, bound)| bound).unwrap_or_default();
        self.with_bound(bound, move |e, keys| input::press_combo(e, keys, &combo)).await
    }

    async fn launch(&self, spec: &LaunchSpec) -> DesktopResult<u32> {
        let (pid, child) = launch::spawn(spec)?;
        self.keep_child(child);
        Ok(pid)
    }

    async fn observe(&self) -> DesktopResult<DesktopObservation> {
        let (windows, _) = self.windows_with_source().await?;
        let screenshot = self.screenshot(&CaptureTarget::Screen).await?;
        let timestamp_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        Ok(DesktopObservation {
            timestamp_ms,
            screen: self.screen(),
            focused: windows.iter().find(|w| w.focused).cloned(),
            windows,
            screenshot: Some(screenshot),
        })
    }
}
