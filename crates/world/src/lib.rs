//! The world a workflow runs in: a browser page, the X11 desktop, or both, behind one
//! engine [`Driver`]. The engine stays desktop-agnostic: it sees probes and actions only;
//! [`World`] sends page probes and page actions to Chromium and window probes and desktop
//! actions to the [`Desktop`].

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use statewright_chrome::ChromeDriver;
use statewright_desktop::{
    Desktop, DesktopError, DesktopObservation, LaunchSpec, MouseButton as DesktopButton, Position,
    TitleMatch as WindowTitleMatch, WindowInfo, WindowQuery, X11Desktop,
};
use statewright_engine::{
    Capture, Driver, DriverError, DriverResult, LocateFuture, Observation, ObserveFuture, Outcome, Probe, Signals,
    WindowProbe, driver::ProbeError,
};
use statewright_workflow::{Action, Check, MouseButton, Point, TitleMatch, WindowSelector, Workflow};
use tokio::time::Instant;

/// How often the desktop's windows are read while waiting for a change.
pub const DESKTOP_POLL: Duration = Duration::from_millis(50);

/// Which sides of the world a workflow needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    pub browser: bool,
    pub desktop: bool,
}

/// A desktop if any check or action is a desktop one; a browser if any is a page one, or
/// if nothing needs the desktop (`wait` needs neither).
pub fn needs(workflow: &Workflow) -> Needs {
    let checks = || workflow.states.iter().flat_map(|s| &s.checks);
    let actions = || workflow.states.iter().flat_map(|s| &s.actions);
    let desktop = checks().any(Check::is_desktop) || actions().any(Action::is_desktop);
    let browser = checks().any(|c| !c.is_desktop()) || actions().any(Action::is_browser) || !desktop;
    Needs { browser, desktop }
}

/// A browser page and/or a desktop under the engine's control.
pub struct World<D = X11Desktop> {
    pub browser: Option<ChromeDriver>,
    pub desktop: Option<Arc<D>>,
    /// Kill programs started by `launch` when the desktop driver is dropped (tests want
    /// this; a run that opens an app for the user does not).
    pub kill_launched: bool,
}

impl<D> World<D> {
    pub fn new(browser: Option<ChromeDriver>, desktop: Option<D>) -> Self {
        Self { browser, desktop: desktop.map(Arc::new), kill_launched: false }
    }

    /// Closes the browser, if any (launched programs are left running unless `kill_launched`).
    pub async fn close(self) {
        if let Some(browser) = self.browser {
            browser.close().await;
        }
    }
}

/// Probes split by who answers them, each with its index in the original list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Split {
    /// Probes for the page, in their original order.
    pub page: Vec<Probe>,
    /// `page_index[j]` is the original index of `page[j]`.
    pub page_index: Vec<usize>,
    /// Window probes with their original indexes.
    pub window: Vec<(usize, Probe)>,
}

pub fn split(probes: &[Probe]) -> Split {
    let mut split = Split::default();
    for (i, probe) in probes.iter().enumerate() {
        if probe.is_window() {
            split.window.push((i, probe.clone()));
        } else {
            split.page.push(probe.clone());
            split.page_index.push(i);
        }
    }
    split
}

impl Split {
    fn total(&self) -> usize {
        self.page.len() + self.window.len()
    }

    /// The page's share of `signals` (as the page reported it), for waiting on the page alone.
    pub fn page_part(&self, signals: &Signals) -> Signals {
        let results = self.page_index.iter().map(|&i| signals.results.get(i).copied().unwrap_or(false)).collect();
        let errors = signals
            .errors
            .iter()
            .filter_map(|e| {
                let j = self.page_index.iter().position(|&i| i == e.index)?;
                Some(ProbeError { index: j, message: e.message.clone() })
            })
            .collect();
        Signals { url: signals.url.clone(), title: signals.title.clone(), results, errors }
    }

    /// The page's signals for `self.page` and the window results, in the original order.
    pub fn merge(&self, page: Signals, windows: &[Result<bool, String>]) -> Signals {
        let mut results = vec![false; self.total()];
        let mut errors = Vec::new();
        for (j, &i) in self.page_index.iter().enumerate() {
            results[i] = page.results.get(j).copied().unwrap_or(false);
        }
        for e in page.errors {
            if let Some(&i) = self.page_index.get(e.index) {
                errors.push(ProbeError { index: i, message: e.message });
            }
        }
        for ((i, _), result) in self.window.iter().zip(windows) {
            match result {
                Ok(b) => results[*i] = *b,
                Err(message) => errors.push(ProbeError { index: *i, message: message.clone() }),
            }
        }
        errors.sort_by_key(|e| e.index);
        Signals { url: page.url, title: page.title, results, errors }
    }
}

/// The desktop driver's query for a workflow's window selector.
pub fn window_query(selector: &WindowSelector) -> WindowQuery {
    let title = selector.title.clone().map(|t| match selector.mode {
        TitleMatch::Exact => WindowTitleMatch::Exact(t),
        TitleMatch::Contains => WindowTitleMatch::Contains(t),
        TitleMatch::Pattern => WindowTitleMatch::Regex(t),
    });
    WindowQuery { title, app_class: selector.app_class.clone(), ..WindowQuery::default() }
}

/// Answers one window probe from the window list.
pub fn evaluate(probe: &Probe, windows: &[WindowInfo]) -> Result<bool, String> {
    let Probe::Window { check, window } = probe else {
        return Err("not a window probe".into());
    };
    let matcher = window_query(window).matcher().map_err(|e| e.to_string())?;
    Ok(match check {
        WindowProbe::Exists => windows.iter().any(|w| matcher.matches(w)),
        WindowProbe::FocusedTitle | WindowProbe::FocusedClass | WindowProbe::Focused => {
            windows.iter().any(|w| w.focused && matcher.matches(w))
        }
    })
}

fn desktop_error(e: DesktopError) -> DriverError {
    match e {
        DesktopError::WindowNotFound { .. } => {
            DriverError::NotActionable { reason: "window_not_found".into(), message: e.to_string() }
        }
        e if e.is_fatal() => DriverError::Browser(format!("the desktop failed: {e}")),
        e => DriverError::Invalid(e.to_string()),
    }
}

fn no_desktop(what: &str) -> DriverError {
    DriverError::Invalid(format!("{what} needs the desktop, but this run has no desktop"))
}

impl<D: Desktop + 'static> World<D> {
    fn desktop(&self, what: &str) -> DriverResult<Arc<D>> {
        self.desktop.clone().ok_or_else(|| no_desktop(what))
    }

    async fn page_signals(
        &mut self,
        probes: &[Probe],
        since: Option<&Signals>,
        timeout: Duration,
        answer: Duration,
    ) -> DriverResult<Signals> {
        match &mut self.browser {
            Some(browser) => browser.signals(probes, since, timeout, answer).await,
            // No page: nothing will ever change there.
            None => Ok(Signals { results: vec![false; probes.len()], ..Signals::default() }),
        }
    }
}

impl<D: Desktop + 'static> Driver for World<D> {
    async fn signals(
        &mut self,
        probes: &[Probe],
        since: Option<&Signals>,
        timeout: Duration,
        answer: Duration,
    ) -> DriverResult<Signals> {
        let split = split(probes);
        if split.window.is_empty() {
            if self.browser.is_none()
                && let Some(since) = since
            {
                // Nothing to look at: the signals cannot change.
                tokio::time::sleep(timeout).await;
                return Ok(since.clone());
            }
            return self.page_signals(probes, since, timeout, answer).await;
        }
        let desktop = self.desktop("a window check")?;
        let start = Instant::now();
        let deadline = start.checked_add(timeout).unwrap_or(start + Duration::from_secs(86_400 * 365));
        let page_since = since.map(|s| split.page_part(s));
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            // The page waits in short slices, so the desktop is read every DESKTOP_POLL.
            let page = match (&page_since, self.browser.is_some()) {
                (Some(page_since), true) => {
                    self.page_signals(&split.page, Some(page_since), remaining.min(DESKTOP_POLL), answer).await?
                }
                _ => self.page_signals(&split.page, None, Duration::ZERO, answer).await?,
            };
            let windows = desktop.windows().await.map_err(desktop_error)?;
            let results: Vec<_> = split.window.iter().map(|(_, p)| evaluate(p, &windows)).collect();
            let signals = split.merge(page, &results);
            let remaining = deadline.saturating_duration_since(Instant::now());
            match since {
                Some(since) if *since == signals && !remaining.is_zero() => {
                    if self.browser.is_none() {
                        tokio::time::sleep(remaining.min(DESKTOP_POLL)).await;
                    }
                }
                _ => return Ok(signals),
            }
        }
    }

    async fn perform(&mut self, action: &Action, patience: Duration) -> DriverResult<Outcome> {
        if !action.is_desktop() {
            return match &mut self.browser {
                Some(browser) => browser.perform(action, patience).await,
                None if matches!(action, Action::Wait { .. }) => Ok(Outcome::default()),
                None => Err(DriverError::Invalid(format!(
                    "`{}` acts on a web page, but this run has no browser",
                    action.kind()
                ))),
            };
        }
        let desktop = self.desktop(&format!("`{}`", action.kind()))?;
        perform_desktop(&*desktop, action, patience, self.kill_launched).await
    }

    fn locate(&mut self, probes: &[Probe]) -> LocateFuture {
        match &mut self.browser {
            Some(browser) => browser.locate(probes),
            None => Box::pin(std::future::ready(Ok(vec![Vec::new(); probes.len()]))),
        }
    }

    async fn look_back(&mut self) -> bool {
        match &mut self.browser {
            Some(browser) => browser.look_back().await,
            None => false,
        }
    }

    async fn other_tabs(&mut self) -> Vec<statewright_engine::OpenTab> {
        match &mut self.browser {
            Some(browser) => browser.other_tabs().await,
            None => Vec::new(),
        }
    }

    fn observe(&mut self, capture: Capture) -> ObserveFuture {
        if let Some(browser) = &mut self.browser {
            return browser.observe(capture);
        }
        let Some(desktop) = self.desktop.clone() else {
            return Box::pin(async { Ok(Observation::default()) });
        };
        Box::pin(async move {
            let observed = match desktop.observe().await {
                Ok(observed) => observed,
                // Without a screenshot the window list is still worth recording.
                Err(e) => {
                    tracing::debug!("no desktop screenshot for this step: {e}");
                    let windows = desktop.windows().await.map_err(desktop_error)?;
                    DesktopObservation {
                        timestamp_ms: 0,
                        screen: Default::default(),
                        focused: windows.iter().find(|w| w.focused).cloned(),
                        windows,
                        screenshot: None,
                    }
                }
            };
            Ok(desktop_observation(observed))
        })
    }
}

/// A desktop observation in the engine's record: the focused window's title as the title,
/// the window list as text and elements, the screen as the screenshot.
pub fn desktop_observation(observed: DesktopObservation) -> Observation {
    let text = observed.windows.iter().map(WindowInfo::describe).collect::<Vec<_>>().join("\n");
    Observation {
        url: String::new(),
        title: observed.focused.as_ref().map(|w| w.title.clone()).unwrap_or_default(),
        text,
        elements: json!(observed.windows),
        screenshot: observed.screenshot.map(|s| s.png),
        tabs: Vec::new(),
    }
}

fn button(button: MouseButton) -> DesktopButton {
    match button {
        MouseButton::Left => DesktopButton::Left,
        MouseButton::Right => DesktopButton::Right,
        MouseButton::Middle => DesktopButton::Middle,
    }
}

/// A point on the screen, or in the window `window` names (waiting up to `patience` for
/// it); the window found is pinned by id so every point of one action uses the same one.
async fn position<D: Desktop>(
    desktop: &D,
    window: &Option<WindowSelector>,
    points: &[Point],
    patience: Duration,
) -> DriverResult<(Vec<Position>, Option<String>)> {
    match window {
        None => Ok((points.iter().map(|p| Position::screen(p.x, p.y)).collect(), None)),
        Some(selector) => {
            let found = desktop.wait_for_window(&window_query(selector), patience).await.map_err(desktop_error)?;
            let at = points.iter().map(|p| Position::in_window(WindowQuery::id(found.id), p.x, p.y)).collect();
            Ok((at, Some(found.describe())))
        }
    }
}

async fn perform_desktop<D: Desktop>(
    desktop: &D,
    action: &Action,
    patience: Duration,
    kill_launched: bool,
) -> DriverResult<Outcome> {
    let done = |detail: Option<String>| Ok(Outcome { detail, ..Default::default() });
    match action {
        Action::Launch { program, args } => {
            let spec = LaunchSpec::new(program.clone()).args(args.iter().cloned()).kill_on_drop(kill_launched);
            let pid = desktop.launch(&spec).await.map_err(desktop_error)?;
            done(Some(format!("{program} (pid {pid})")))
        }
        Action::FocusWindow { window } => {
            let query = window_query(window);
            desktop.wait_for_window(&query, patience).await.map_err(desktop_error)?;
            let focused = desktop.focus(&query).await.map_err(desktop_error)?;
            done(Some(focused.describe()))
        }
        Action::WaitForWindow { window, .. } => {
            let found = desktop.wait_for_window(&window_query(window), patience).await.map_err(desktop_error)?;
            done(Some(found.describe()))
        }
        Action::MouseClick { x, y, window, button: b, count } => {
            let (at, detail) = position(desktop, window, &[Point { x: *x, y: *y }], patience).await?;
            desktop.click(&at[0], button(*b), *count).await.map_err(desktop_error)?;
            done(detail)
        }
        Action::MouseDrag { from, to, window } => {
            let (at, detail) = position(desktop, window, &[*from, *to], patience).await?;
            desktop.drag(&at[0], &at[1], DesktopButton::Left).await.map_err(desktop_error)?;
            done(detail)
        }
        Action::ScrollAt { x, y, window, dx, dy } => {
            let (at, detail) = position(desktop, window, &[Point { x: *x, y: *y }], patience).await?;
            desktop.scroll(&at[0], *dx, *dy).await.map_err(desktop_error)?;
            done(detail)
        }
        Action::KeyCombo { keys } => {
            desktop.press_keys(keys).await.map_err(desktop_error)?;
            done(None)
        }
        Action::TypeText { text } => {
            desktop.type_text(text).await.map_err(desktop_error)?;
            done(None)
        }
        other => Err(DriverError::Invalid(format!("`{}` is not a desktop action", other.kind()))),
    }
}

#[cfg(test)]
mod tests;
