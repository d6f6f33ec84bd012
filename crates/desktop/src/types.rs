//! The values the desktop API speaks in. All are serde types so a workflow step, a run's
//! timeline and an observation can carry them as JSON.

use std::sync::Arc;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::error::{DesktopError, DesktopResult};

/// A rectangle in root-window (screen) coordinates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

/// A top-level window as the user sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowInfo {
    /// The X window id of the client window (not the window manager's frame).
    pub id: u32,
    pub title: String,
    /// The application class, the second string of `WM_CLASS` (e.g. `XTerm`).
    pub app_class: String,
    /// The instance name, the first string of `WM_CLASS` (e.g. `xterm`).
    pub instance: String,
    /// From `_NET_WM_PID`, else from the X-Resource extension; `None` if neither knows.
    pub pid: Option<u32>,
    /// The client area in screen coordinates, without decorations.
    pub geometry: Rect,
    pub focused: bool,
    /// Mapped and viewable: false while a program is still setting its window up, and for
    /// minimised windows.
    pub visible: bool,
}

impl WindowInfo {
    /// A one-line description for error messages: `"xterm" (XTerm, pid 42)`.
    pub fn describe(&self) -> String {
        match self.pid {
            Some(pid) => format!("{:?} ({}, pid {pid})", self.title, self.app_class),
            None => format!("{:?} ({})", self.title, self.app_class),
        }
    }
}

/// How a window's title is matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "match", content = "value", rename_all = "snake_case")]
pub enum TitleMatch {
    Exact(String),
    Contains(String),
    /// A Rust regex, searched anywhere in the title.
    Regex(String),
}

/// Which window a step means. Every field that is set must match; an empty query matches
/// any window. The class is compared case-insensitively against both `WM_CLASS` strings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<TitleMatch>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_class: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
}

impl WindowQuery {
    pub fn title_exact(title: impl Into<String>) -> Self {
        Self { title: Some(TitleMatch::Exact(title.into())), ..Self::default() }
    }
    pub fn title_contains(title: impl Into<String>) -> Self {
        Self { title: Some(TitleMatch::Contains(title.into())), ..Self::default() }
    }
    pub fn title_regex(pattern: impl Into<String>) -> Self {
        Self { title: Some(TitleMatch::Regex(pattern.into())), ..Self::default() }
    }
    pub fn app_class(class: impl Into<String>) -> Self {
        Self { app_class: Some(class.into()), ..Self::default() }
    }
    pub fn pid(pid: u32) -> Self {
        Self { pid: Some(pid), ..Self::default() }
    }
    pub fn id(id: u32) -> Self {
        Self { id: Some(id), ..Self::default() }
    }

    /// Compiles the query once, so polling does not recompile a regex every 50 ms.
    pub fn matcher(&self) -> DesktopResult<WindowMatcher> {
        let regex = match &self.title {
            Some(TitleMatch::Regex(p)) => {
                Some(Regex::new(p).map_err(|e| DesktopError::Invalid(format!("invalid title regex `{p}`: {e}")))?)
            }
            _ => None,
        };
        Ok(WindowMatcher { query: self.clone(), regex })
    }

    /// A human description for error messages, e.g. `title contains "Terminal", class "XTerm"`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match &self.title {
            Some(TitleMatch::Exact(t)) => parts.push(format!("title {t:?}")),
            Some(TitleMatch::Contains(t)) => parts.push(format!("title containing {t:?}")),
            Some(TitleMatch::Regex(t)) => parts.push(format!("title matching /{t}/")),
            None => {}
        }
        if let Some(c) = &self.app_class {
            parts.push(format!("class {c:?}"));
        }
        if let Some(p) = self.pid {
            parts.push(format!("pid {p}"));
        }
        if let Some(id) = self.id {
            parts.push(format!("id 0x{id:x}"));
        }
        if parts.is_empty() { "any window".into() } else { parts.join(", ") }
    }
}

/// A compiled [`WindowQuery`].
#[derive(Debug, Clone)]
pub struct WindowMatcher {
    query: WindowQuery,
    regex: Option<Regex>,
}

impl WindowMatcher {
    pub fn matches(&self, w: &WindowInfo) -> bool {
        let q = &self.query;
        let title_ok = match &q.title {
            None => true,
            Some(TitleMatch::Exact(t)) => w.title == *t,
            Some(TitleMatch::Contains(t)) => w.title.contains(t.as_str()),
            Some(TitleMatch::Regex(_)) => self.regex.as_ref().is_some_and(|r| r.is_match(&w.title)),
        };
        let class_ok = q
            .app_class
            .as_ref()
            .is_none_or(|c| w.app_class.eq_ignore_ascii_case(c) || w.instance.eq_ignore_ascii_case(c));
        title_ok && class_ok && q.pid.is_none_or(|p| w.pid == Some(p)) && q.id.is_none_or(|id| w.id == id)
    }

    pub fn query(&self) -> &WindowQuery {
        &self.query
    }
}

/// Where a pointer action happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "relative_to", rename_all = "snake_case")]
pub enum Position {
    /// Screen (root window) coordinates.
    Screen { x: i32, y: i32 },
    /// Coordinates inside a window's client area; resolved when the action runs, so the
    /// window may move between steps.
    Window { window: WindowQuery, x: i32, y: i32 },
}

impl Position {
    pub fn screen(x: i32, y: i32) -> Self {
        Position::Screen { x, y }
    }
    pub fn in_window(window: WindowQuery, x: i32, y: i32) -> Self {
        Position::Window { window, x, y }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MouseButton {
    #[default]
    Left,
    Middle,
    Right,
}

/// What a screenshot covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CaptureTarget {
    /// The whole X screen (every monitor).
    Screen,
    /// One monitor, by its index in xcap's list (0 is usually the primary).
    Monitor { index: usize },
    /// A window's client area as it appears on screen (what covers it is captured too).
    Window { window: WindowQuery },
}

/// A PNG screenshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Screenshot {
    pub width: u32,
    pub height: u32,
    /// Where the image sits on the screen.
    pub area: Rect,
    #[serde(skip)]
    pub png: Arc<Vec<u8>>,
}

/// A program to start.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchSpec {
    /// A path, or a name looked up on `PATH`.
    pub program: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Extra environment variables (the rest is inherited).
    #[serde(default)]
    pub env: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<std::path::PathBuf>,
    /// Kill the program when the driver is dropped (tests want this; a workflow that
    /// opens an app for the user does not).
    #[serde(default)]
    pub kill_on_drop: bool,
}

impl LaunchSpec {
    pub fn new(program: impl Into<String>) -> Self {
        Self { program: program.into(), ..Self::default() }
    }
    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }
    pub fn args<I: IntoIterator<Item = S>, S: Into<String>>(mut self, args: I) -> Self {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }
    pub fn kill_on_drop(mut self, yes: bool) -> Self {
        self.kill_on_drop = yes;
        self
    }
}

/// What the desktop shows at one step: the record a desktop state is recognised from and
/// that goes into the run's folder. The PNG is in `screenshot.png` (not serialised; the
/// recorder writes it next to the JSON).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DesktopObservation {
    /// Milliseconds since the Unix epoch.
    pub timestamp_ms: u64,
    pub screen: Rect,
    pub windows: Vec<WindowInfo>,
    pub focused: Option<WindowInfo>,
    pub screenshot: Option<Screenshot>,
}
