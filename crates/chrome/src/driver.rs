//! The engine's `Driver` over one Chromium page.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use chromiumoxide::cdp::browser_protocol::page::{CaptureScreenshotFormat, CaptureScreenshotParams};
use chromiumoxide::page::Page;
use serde::Deserialize;
use serde_json::{Value, json};
use statewright_engine::{
    Artifact, Capture, Driver, DriverError, DriverResult, LocateFuture, ObserveFuture, Outcome, Probe, Signals,
};
use statewright_workflow::keys::parse_key_combo;
use statewright_workflow::selector::validate_css;
use statewright_workflow::{Action, Direction, ExtractRead, MouseButton, Position, Target};

use crate::input;
use crate::page::{CallError, PageHandle};
use crate::session::{LaunchOptions, Session};
use crate::tabs::{Following, Input};

mod check;
mod choose;
mod download;
mod drag;
mod navigate;
mod pointer;
mod saved_page;
mod search;
mod signals;
mod typing;
mod upload;

use search::Doc;

/// How long a plain call into the page may take.
pub(crate) const CALL_BUDGET: Duration = Duration::from_secs(10);
/// How long a document may take to replace the one that navigated away.
const NAVIGATION_GRACE: Duration = Duration::from_secs(10);
/// JPEG quality of step screenshots: small text stays readable at 75.
const STEP_JPEG_QUALITY: i64 = 75;

/// How long input may wait for the step's screenshot (see observe.rs).
const CAPTURE_HOLD: Duration = Duration::from_millis(300);

/// A Chromium page under the engine's control.
pub struct ChromeDriver {
    session: Session,
    /// The tab this session opened has shown nothing yet: no action has run in it.
    blank: bool,
    /// The step's screenshot, while input must wait for it.
    capture: Option<crate::observe::CaptureDone>,
    /// The signals read last, by document.
    seen: signals::Seen,
}

impl ChromeDriver {
    /// Launches Chromium (or attaches to `cdp_url`) and opens a fresh page.
    pub async fn start(options: &LaunchOptions) -> Result<Self, crate::ChromeError> {
        let mut session = Session::start(options).await?;
        // Before the first navigation: an `alert` on load would stall it.
        session.answer_dialogs().await?;
        session.following = Following::AfterInput(None);
        let blank = !session.adopted();
        Ok(Self { session, blank, capture: None, seen: Default::default() })
    }

    /// Closes the page and, if launched here, the browser.
    pub async fn close(self) {
        self.session.close().await;
    }

    fn page(&self) -> &PageHandle {
        &self.session.page
    }

    fn raw(&self) -> &Page {
        self.session.page.raw()
    }

    /// Holds input that may change the page until the step's screenshot is taken, so the
    /// record shows the page the step acted on; at most `CAPTURE_HOLD`.
    async fn hold_for_capture(&mut self) {
        if let Some(mut done) = self.capture.take() {
            let began = std::time::Instant::now();
            if tokio::time::timeout(CAPTURE_HOLD, done.wait_for(|taken| *taken)).await.is_err() {
                tracing::debug!("input went ahead of the step's screenshot after {CAPTURE_HOLD:?}");
            }
            tracing::trace!("input waited {:?} for the step's screenshot", began.elapsed());
        }
    }

    /// Reads what an `extract` asks for, waiting for its element as actions do, in the page
    /// or in one of its cross-origin frames.
    async fn extract(
        &self,
        target: &Target,
        read: ExtractRead,
        attribute: &Option<String>,
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let in_frames = self.in_frames(patience, |frame, left| async move {
            let mut outcome = self.extract_in(&Doc::Frame(frame.clone()), target, read, attribute, left).await.ok()?;
            if self.page_has(target).await {
                return None;
            }
            outcome.detail = Some(frame.describe(outcome.detail.as_deref()));
            outcome.element = outcome.element.map(|e| frame.page_element(&e));
            Some(outcome)
        });
        tokio::select! {
            biased;
            read = self.extract_in(&Doc::Page, target, read, attribute, patience) => read,
            (read, _) = in_frames => Ok(read),
        }
    }

    async fn extract_in(
        &self,
        doc: &Doc,
        target: &Target,
        read: ExtractRead,
        attribute: &Option<String>,
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let opts = json!({"timeoutMs": patience.as_millis() as u64, "alternatives": true});
        let args = [json!(target), json!(read), json!(attribute), opts];
        let reply = self.call_in(doc, "extract", &args, patience).await.map_err(not_actionable)?;
        let read: Extracted =
            serde_json::from_value(reply).map_err(|e| DriverError::Browser(format!("bad reply from page: {e}")))?;
        let message = || read.message.clone().unwrap_or_else(|| "nothing could be read".into());
        match (read.ok, read.reason.as_deref()) {
            (true, _) => Ok(Outcome {
                detail: read.description,
                alternatives: alternatives(read.alternatives),
                element: read.element,
                value: Some(read.value),
                ..Default::default()
            }),
            // A selector that cannot parse, or an element that can never hold what is asked.
            (false, Some("invalid_selector" | "not_a_field" | "not_a_table")) => Err(DriverError::Invalid(message())),
            (false, reason) => {
                Err(DriverError::NotActionable { reason: reason.unwrap_or("not_found").to_owned(), message: message() })
            }
        }
    }

    /// Calls a library function that answers `{ok, message}`, where the target was found.
    async fn page_op(&self, doc: &Doc, function: &str, args: &[Value]) -> DriverResult<Value> {
        let value = self.call_in(doc, function, args, CALL_BUDGET).await.map_err(not_actionable)?;
        if value.get("ok").and_then(Value::as_bool) == Some(true) {
            Ok(value)
        } else {
            let message = value.get("message").and_then(Value::as_str).unwrap_or("the page refused the action");
            Err(DriverError::Invalid(message.to_owned()))
        }
    }

    /// A page that did not answer in time (a document of tens of thousands of elements, a
    /// script busy for a while) is not a dead browser: the engine may try again, look
    /// around, escalate. Unless the browser itself does not answer either.
    ///
    /// A browser failure says why the connection was closed when its guard closed it.
    async fn unless_gone(&self, error: DriverError) -> DriverError {
        // A page whose renderer died answers nothing ever again: not slow, and not to be
        // looked at again. The browser itself may still answer.
        if let Some(how) = self.session.page_crashed() {
            return DriverError::Browser(format!("the page crashed: its renderer process ended, {how}"));
        }
        match error {
            DriverError::NotActionable { ref reason, .. } if reason == "timeout" && !self.session.answers().await => {
                DriverError::Browser(self.session.cut.explain(format!("the browser stopped answering ({error})")))
            }
            DriverError::Browser(what) => DriverError::Browser(self.session.cut.explain(what)),
            _ => error,
        }
    }

    /// A PNG, for the `screenshot` action (the user named the file).
    async fn screenshot_png(page: &Page) -> Result<Vec<u8>, String> {
        let params =
            CaptureScreenshotParams::builder().format(CaptureScreenshotFormat::Png).optimize_for_speed(true).build();
        Self::capture(page, params).await
    }

    /// A step's record: JPEG at a quality that keeps text legible, about a quarter of the
    /// PNG's size (the demo's pages: ~30 KB instead of ~130 KB), and cheaper to encode.
    pub(crate) async fn screenshot_jpeg(page: &Page) -> Result<Vec<u8>, String> {
        let params = CaptureScreenshotParams::builder()
            .format(CaptureScreenshotFormat::Jpeg)
            .quality(STEP_JPEG_QUALITY)
            .optimize_for_speed(true)
            .build();
        Self::capture(page, params).await
    }

    async fn capture(page: &Page, params: CaptureScreenshotParams) -> Result<Vec<u8>, String> {
        let reply = page.execute(params).await.map_err(|e| e.to_string())?;
        let data: &str = reply.result.data.as_ref();
        base64::engine::general_purpose::STANDARD.decode(data).map_err(|e| e.to_string())
    }

    /// Performs `action` on the run's page.
    async fn act(&mut self, action: &Action, patience: Duration) -> DriverResult<Outcome> {
        match action {
            Action::NavigateTo { url } => {
                self.hold_for_capture().await;
                self.navigate(url, patience).await
            }
            Action::GoBack {} => {
                self.hold_for_capture().await;
                self.go_back(patience).await
            }
            Action::Click { target, button, count, position: pos } => {
                let opts = json!({"enabled": true, "hitTest": true, "position": position(pos)});
                let (at, _) = self.actionable(target, opts.clone(), patience).await?;
                self.hold_for_capture().await;
                let (at, there) = self.pointed_at(target, &opts, at).await?;
                self.press((&at, there), *button, *count).await?;
                Ok(at.outcome())
            }
            Action::Hover { target } => {
                let (at, _) = self.actionable(target, json!({"hitTest": true}), patience).await?;
                self.hold_for_capture().await;
                input::move_to(self.raw(), at.x, at.y).await.map_err(DriverError::Browser)?;
                Ok(at.outcome())
            }
            Action::Drag { target, to, position } => self.drag(target, to, position, patience).await,
            Action::Type { target, text, clear } => {
                let opts = json!({"enabled": true, "editable": true});
                let (at, doc) = self.actionable(target, opts, patience).await?;
                self.hold_for_capture().await;
                if matches!(doc, Doc::Frame(_)) {
                    // Into a frame from another site, as a person does, with a click: the focus
                    // its own script gives may reach the browser after the keys, which then go
                    // where the focus was (a consent frame the page just removed, whose keys
                    // are never answered).
                    input::click(self.raw(), at.x, at.y, MouseButton::Left, 1).await.map_err(DriverError::Browser)?;
                }
                let prepared = self.page_op(&doc, "prepareTyping", &[json!(target), json!(clear)]).await?;
                if prepared["whole"] == true {
                    // A date, time, colour or range field: given its value whole (see setValue).
                    self.page_op(&doc, "setValue", &[json!(target), json!(text)]).await?;
                    return Ok(at.outcome());
                }
                if *clear {
                    // The content is selected: one Backspace empties it, as a person would.
                    let backspace = parse_key_combo("Backspace").map_err(DriverError::Invalid)?;
                    input::press(self.raw(), &backspace).await.map_err(DriverError::Browser)?;
                }
                self.type_into(&doc, text).await?;
                Ok(at.outcome())
            }
            Action::PressKey { key } => {
                let combo = parse_key_combo(key).map_err(DriverError::Invalid)?;
                self.hold_for_capture().await;
                input::press(self.raw(), &combo).await.map_err(DriverError::Browser)?;
                Ok(Outcome::default())
            }
            Action::Scroll { direction, amount, target } => {
                let amount = f64::from(*amount);
                let (dx, dy) = match direction {
                    Direction::Up => (0.0, -amount),
                    Direction::Down => (0.0, amount),
                    Direction::Left => (-amount, 0.0),
                    Direction::Right => (amount, 0.0),
                };
                let (outcome, doc) = match target {
                    Some(target) => {
                        let (at, doc) = self.actionable(target, json!({}), patience).await?;
                        (at.outcome(), doc)
                    }
                    None => (Outcome::default(), Doc::Page),
                };
                self.hold_for_capture().await;
                self.page_op(&doc, "scrollBy", &[json!(target), json!(dx), json!(dy)]).await?;
                Ok(outcome)
            }
            Action::ScrollTo { target } => {
                let (at, doc) = self.actionable(target, json!({}), patience).await?;
                self.hold_for_capture().await;
                self.page_op(&doc, "scrollIntoView", &[json!(target)]).await?;
                Ok(at.outcome())
            }
            Action::SelectOption { target, value, label } => self.select_option(target, value, label, patience).await,
            Action::Check { target, checked } => self.check(target, *checked, patience).await,
            Action::Upload { target, files } => self.upload(target, files, patience).await,
            Action::Download { target, filename, timeout } => self.download(target, filename, *timeout, patience).await,
            Action::WaitFor { target, .. } => {
                let (at, _) = self.actionable(target, json!({"scroll": false}), patience).await?;
                Ok(at.outcome())
            }
            Action::SaveHtml { filename } => {
                // Through the library, whose answers are well-formed (99-install.js) in any
                // engine, old ones without `toWellFormed` too: a lone surrogate would make the
                // answer one that is dropped, never heard.
                let html = self.page().call("html", &[], CALL_BUDGET).await.map_err(not_actionable)?;
                let bytes = saved_page::saved_page(html.as_str().unwrap_or_default());
                Ok(Outcome {
                    artifact: Some(Artifact { filename: filename.clone(), bytes: Arc::new(bytes) }),
                    ..Default::default()
                })
            }
            Action::Screenshot { filename } => {
                let png = Self::screenshot_png(self.raw()).await.map_err(DriverError::Browser)?;
                Ok(Outcome {
                    artifact: Some(Artifact { filename: filename.clone(), bytes: Arc::new(png) }),
                    ..Default::default()
                })
            }
            Action::Extract { target, read, attribute, .. } => self.extract(target, *read, attribute, patience).await,
            Action::SwitchTab { tab, close } => {
                // The tab may not be open, or titled, yet: the engine tries again until the
                // action's timeout.
                let detail = self
                    .session
                    .switch_tab(tab, *close)
                    .await
                    .map_err(|message| DriverError::NotActionable { reason: "no_such_tab".into(), message })?;
                Ok(Outcome { detail: Some(detail), ..Default::default() })
            }
            // The engine sleeps for `wait` itself; nothing to do in the page.
            Action::Wait { .. } => Ok(Outcome::default()),
            other => Err(DriverError::Invalid(format!(
                "`{}` is a desktop action; the browser driver cannot perform it",
                other.kind()
            ))),
        }
    }
}

#[derive(Deserialize)]
struct Actionable {
    ok: bool,
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    description: Option<String>,
    /// Where the action landed when that is not the centre (a covered centre, say).
    note: Option<String>,
    /// The node acted on: its id in the page and the page's time origin.
    element: Option<String>,
    /// A file field, to be given files rather than clicked (`fileInput` asked), and whether
    /// it takes several.
    #[serde(default, rename = "fileInput")]
    file_input: bool,
    #[serde(default)]
    multiple: bool,
    reason: Option<String>,
    message: Option<String>,
    /// Kept raw: one malformed entry must not cost the action or the other entries.
    #[serde(default)]
    alternatives: Vec<Value>,
}

/// The page's answer to `extract`.
#[derive(Deserialize)]
struct Extracted {
    ok: bool,
    #[serde(default)]
    value: Value,
    description: Option<String>,
    element: Option<String>,
    reason: Option<String>,
    message: Option<String>,
    #[serde(default)]
    alternatives: Vec<Value>,
}

impl Actionable {
    /// The outcome of an action on this element.
    fn outcome(self) -> Outcome {
        let detail = match (self.description, self.note) {
            (Some(description), Some(note)) => Some(format!("{description} {note}")),
            (description, note) => description.or(note),
        };
        Outcome { detail, alternatives: alternatives(self.alternatives), element: self.element, ..Default::default() }
    }
}

/// The page's alternatives that are targets a workflow could carry; others are dropped.
fn alternatives(values: Vec<Value>) -> Vec<Target> {
    values.into_iter().filter_map(|v| serde_json::from_value::<Target>(v).ok()).filter(well_formed).collect()
}

/// Exactly one non-empty locator, `name` only with `role`, and CSS that `validate` accepts:
/// an alternative may be proposed as a change to the workflow file.
fn well_formed(target: &Target) -> bool {
    let kinds = [&target.css, &target.xpath, &target.text, &target.role];
    let set: Vec<&String> = kinds.iter().filter_map(|k| k.as_ref()).collect();
    let one = set.len() == 1 && !set[0].trim().is_empty();
    let css_ok = target.css.as_deref().is_none_or(|css| validate_css(css).is_ok());
    one && (target.name.is_none() || target.role.is_some()) && css_ok
}

/// A DevTools command that failed: the browser's trouble, not the page's.
pub(crate) fn cdp_failed(e: chromiumoxide::error::CdpError) -> DriverError {
    DriverError::Browser(e.to_string())
}

pub(crate) fn not_actionable(e: CallError) -> DriverError {
    match e {
        CallError::Navigated => {
            DriverError::NotActionable { reason: "navigated".into(), message: "the page navigated".into() }
        }
        CallError::Timeout => DriverError::NotActionable { reason: "timeout".into(), message: e.to_string() },
        CallError::Script(m) => DriverError::Browser(m),
        CallError::Browser(m) => DriverError::Browser(m),
    }
}

fn position(position: &Option<Position>) -> Value {
    position.map_or(Value::Null, |p| json!({"x": p.x, "y": p.y}))
}

impl Driver for ChromeDriver {
    async fn signals(
        &mut self,
        probes: &[Probe],
        since: Option<&Signals>,
        timeout: Duration,
        answer: Duration,
    ) -> DriverResult<Signals> {
        let answer = answer.min(CALL_BUDGET);
        let deadline = tokio::time::Instant::now() + timeout;
        let mut since = since;
        loop {
            // Another page is a change: read it without waiting.
            if self.session.follow_tabs().await {
                since = None;
            }
            let page = self.page().clone();
            let (probes, seen) = (json!(probes), self.seen.clone());
            let remaining = deadline.saturating_duration_since(tokio::time::Instant::now());
            let read = signals::read(&page, &probes, since, &seen, remaining, answer);
            // A page opened or closed meanwhile ends the read: a call into a page that closed
            // may otherwise wait out its whole budget.
            let call = tokio::select! {
                call = read => call,
                change = self.session.tab_change() => {
                    if self.session.follow(change).await {
                        since = None;
                    }
                    continue;
                }
            };
            match call {
                Ok((read, seen)) => {
                    self.seen = seen;
                    return Ok(read);
                }
                // Mid-navigation there is no document to read yet; the next one comes soon.
                // A navigation is a change, so read the new page without waiting further.
                Err(CallError::Navigated) if tokio::time::Instant::now() < deadline + NAVIGATION_GRACE => {
                    since = None;
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                // A page that closed itself (a popup): the opener is the run's page again.
                Err(_) if self.session.moved_back().await => since = None,
                Err(CallError::Timeout) => return Err(self.unless_gone(not_actionable(CallError::Timeout)).await),
                Err(e) => return Err(self.unless_gone(DriverError::Browser(e.to_string())).await),
            }
        }
    }

    async fn perform(&mut self, action: &Action, patience: Duration) -> DriverResult<Outcome> {
        self.blank = false;
        self.session.follow_tabs().await;
        // A click, a key or a choice may open a tab; going to an address or waiting does not.
        if matches!(
            action,
            Action::Click { .. }
                | Action::Check { .. }
                | Action::Download { .. }
                | Action::Type { .. }
                | Action::PressKey { .. }
                | Action::SelectOption { .. }
        ) {
            // A `<select>`'s choice is made by script (choose.rs): the page sees no gesture.
            let scripted = matches!(action, Action::SelectOption { .. });
            self.session.following = Following::AfterInput(Some(Input::now(scripted)));
        }
        // The run leaves its page itself, and may close it.
        if matches!(action, Action::SwitchTab { .. }) {
            return self.act(action, patience).await;
        }
        // A page may close itself in answer to the action (a sign-in popup's *Allow*): its
        // input is then never acknowledged, and the action is done.
        let closed = self.session.page_closed();
        let acted = tokio::select! {
            acted = self.act(action, patience) => Some(acted),
            () = closed => None,
        };
        match acted {
            // A tab the action opened, when the browser has told of it already: the action's
            // record says the run went on there (one told later is followed all the same).
            Some(Ok(mut outcome)) if self.session.follow_tabs().await => {
                let url = crate::address::mask_url(&self.raw().url().await.ok().flatten().unwrap_or_default());
                let moved = format!("opened a tab; the run went on in it, at {url}");
                outcome.detail = Some(outcome.detail.map_or(moved.clone(), |done| format!("{done}; {moved}")));
                outcome.opened_tab = Some(url);
                Ok(outcome)
            }
            Some(acted @ Ok(_)) => acted,
            Some(Err(e)) => Err(self.unless_gone(e).await),
            None => {
                self.session.follow_tabs().await;
                Ok(Outcome { detail: Some("the page closed itself".into()), ..Default::default() })
            }
        }
    }

    async fn look_back(&mut self) -> bool {
        let back = self.session.switch_tab(&statewright_workflow::TabSelector::default(), false).await;
        back.inspect(|now| tracing::info!("back to the tab the run was on before: {now}")).is_ok()
    }

    async fn other_tabs(&mut self) -> Vec<statewright_engine::OpenTab> {
        self.session.other_tabs().await
    }

    fn locate(&mut self, probes: &[Probe]) -> LocateFuture {
        let page = self.page().clone();
        let probes = json!(probes);
        // Asked now, before the step's first action changes the page (see `observe`).
        crate::observe::sent_now(async move {
            let reply =
                page.call("locate", std::slice::from_ref(&probes), CALL_BUDGET).await.map_err(not_actionable)?;
            let mut found: Vec<Vec<Value>> =
                serde_json::from_value(reply).map_err(|e| DriverError::Browser(format!("bad reply from page: {e}")))?;
            // What the page has not, a cross-origin frame may (its banner, its card field).
            if found.iter().any(Vec::is_empty) {
                for frame in page.frames().await {
                    let theirs = page.call_in(&frame, "locate", std::slice::from_ref(&probes), CALL_BUDGET).await;
                    let Ok(theirs) = theirs.map(serde_json::from_value::<Vec<Vec<Value>>>) else { continue };
                    for (ours, theirs) in found.iter_mut().zip(theirs.unwrap_or_default()) {
                        if ours.is_empty() {
                            *ours = theirs;
                        }
                    }
                }
            }
            Ok(found.into_iter().map(alternatives).collect())
        })
    }

    fn observe(&mut self, capture: Capture) -> ObserveFuture {
        let (record, done) = crate::observe::observe(self.page(), capture, self.blank, self.session.cut.clone());
        self.capture = done;
        record
    }
}

#[cfg(test)]
mod tests;
