//! The narrow interface between the engine and a browser (or anything else that can show
//! state and take actions). The engine knows nothing of CDP; drivers know nothing of states.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use statewright_workflow::{Action, SelectorKind, Target, TargetField, TextMatch, WindowSelector};

/// A check that the driver evaluates: inside the page (text, element) or on the desktop's
/// window list (window). URL and title checks are evaluated by the engine from
/// `Signals::url` and `Signals::title`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Probe {
    Text {
        value: String,
        mode: TextMatch,
    },
    Element {
        by: SelectorKind,
        selector: String,
    },
    /// A desktop window predicate; `window` holds the title and/or class to compare.
    Window {
        check: WindowProbe,
        window: WindowSelector,
    },
}

impl Probe {
    /// Whether the desktop (rather than a page) answers this probe.
    pub fn is_window(&self) -> bool {
        matches!(self, Probe::Window { .. })
    }
}

/// What a window probe asks of the desktop's windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowProbe {
    /// The focused window's title matches (`window.title` with `window.mode`).
    FocusedTitle,
    /// The focused window's class matches `window.app_class`.
    FocusedClass,
    /// Some window matches the selector.
    Exists,
    /// The focused window matches the selector.
    Focused,
}

/// What the page shows right now: everything the engine needs to recognise a state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signals {
    pub url: String,
    pub title: String,
    /// One result per probe, in the order the probes were given.
    pub results: Vec<bool>,
    /// Probes the page could not evaluate (e.g. a selector that only fails at run time).
    #[serde(default)]
    pub errors: Vec<ProbeError>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeError {
    pub index: usize,
    pub message: String,
}

/// A record of the page at one step: for people, reviewers and later learning.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Observation {
    pub url: String,
    pub title: String,
    /// The page's visible text, whitespace-normalised and truncated.
    pub text: String,
    /// Interactive elements with stable ids (`e12`), as the driver reports them.
    pub elements: serde_json::Value,
    /// A screenshot of the viewport (PNG, JPEG or WebP, as the driver captures it).
    #[serde(skip)]
    pub screenshot: Option<Arc<Vec<u8>>>,
    /// The run's other open tabs, the one it was on most recently first: filled in where a
    /// model or a person is asked, since only they choose between tabs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tabs: Vec<OpenTab>,
}

/// One of the run's other tabs, as a `switch_tab` may name it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OpenTab {
    pub url: String,
    pub title: String,
    /// The tab the run was on just before this page: `switch_tab` with no tab named.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub previous: bool,
}

impl Observation {
    /// Masks every secret value the page shows: in its address, title, text and element
    /// snapshot (input values, names, hrefs, selectors). The record and any prompt built
    /// from it must not carry one. Then keeps what a record keeps of each address and title
    /// ([`crate::event::recorded`]), masked first so that no secret is cut in two.
    pub fn redact(&mut self, params: &statewright_workflow::Params) {
        for field in [&mut self.url, &mut self.title] {
            *field = crate::event::recorded(&params.redact(field));
        }
        self.text = params.redact(&self.text);
        params.redact_json(&mut self.elements);
        for tab in &mut self.tabs {
            tab.url = crate::event::recorded(&params.redact(&tab.url));
            tab.title = crate::event::recorded(&params.redact(&tab.title));
        }
    }
}

/// Something an action produced that belongs in the run's folder.
#[derive(Debug, Clone)]
pub struct Artifact {
    pub filename: String,
    pub bytes: Arc<Vec<u8>>,
}

/// What a successful action reports back.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// A short human description of what was acted on, e.g. `button "Sign in"`.
    pub detail: Option<String>,
    pub artifact: Option<Artifact>,
    /// Other ways to find the element just acted on, most stable first (role + accessible
    /// name, test ids, label, text, position…), each of which found exactly that element.
    /// Kept so that a later run can heal the action when its own target finds nothing.
    pub alternatives: Vec<Target>,
    /// The same for the element a `drag` let go on, so that a renamed drop zone heals too.
    pub to_alternatives: Vec<Target>,
    /// An identity of the page element acted on, unique within the browser session (a node
    /// made anew has a new one), so that acting on a fresh element is not mistaken for
    /// repeating an action on the same one.
    pub element: Option<String>,
    /// What an `extract` read, before its `pattern` narrows it: a string, a number, or a
    /// list or table as JSON.
    pub value: Option<serde_json::Value>,
    /// The address of a tab the action opened, which the run went on in (the driver follows
    /// it): the engine reports it as `Event::TabOpened`.
    pub opened_tab: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DriverError {
    /// The target is not (yet) actionable; the engine may retry until the action's timeout.
    /// `reason` is a stable code such as `not_found`, `not_visible`, `obscured` (`to_not_found`…
    /// for a drag's `to`: see [`DriverError::about_to`]).
    #[error("{message}")]
    NotActionable { reason: String, message: String },
    /// The action can never succeed as written (an invalid selector, no such option…).
    #[error("{0}")]
    Invalid(String),
    /// The browser went away or stopped answering; the run cannot go on.
    #[error("browser failure: {0}")]
    Browser(String),
}

/// How the reason code of an error about a drag's `to` begins (`to_not_found`…).
const ABOUT_TO: &str = "to_";

/// The reason codes of an element that is not there (rather than covered, disabled…).
const MISSING: [&str; 2] = ["not_found", "not_visible"];

impl DriverError {
    pub fn is_retryable(&self) -> bool {
        matches!(self, DriverError::NotActionable { .. })
    }

    /// The same error, about the element a `drag` lets go on rather than the one it presses:
    /// healing then tries the drop zone's alternatives, not the dragged element's.
    pub fn about_to(self) -> DriverError {
        match self {
            DriverError::NotActionable { reason, message } => DriverError::NotActionable {
                reason: format!("{ABOUT_TO}{reason}"),
                message: format!("where to let go: {message}"),
            },
            other => other,
        }
    }

    /// Which element of its action this error says is not there, if it says so.
    pub fn missing(&self) -> Option<TargetField> {
        let DriverError::NotActionable { reason, .. } = self else { return None };
        match reason.strip_prefix(ABOUT_TO) {
            Some(code) if MISSING.contains(&code) => Some(TargetField::To),
            None if MISSING.contains(&reason.as_str()) => Some(TargetField::Target),
            _ => None,
        }
    }
}

pub type DriverResult<T> = Result<T, DriverError>;

/// Whether a recording of the page includes a screenshot, and whether the step's input
/// waits for it. Input that navigates while a capture is under way can cost the picture,
/// so a step's input waits for its screenshot, tens of milliseconds; a continuous state
/// reacts first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// The step's input waits for the screenshot: the record shows the page acted on.
    WithScreenshot,
    /// A screenshot taken beside the step's input (a continuous state's first visit).
    ScreenshotBeside,
    /// None (a continuous state's later visits: they would show what the first showed).
    WithoutScreenshot,
}

/// A recording of the page that finishes on its own, independent of the driver.
pub type ObserveFuture = Pin<Box<dyn Future<Output = DriverResult<Observation>> + Send + 'static>>;

/// Other ways to find the elements some element probes found, probe by probe.
pub type LocateFuture = Pin<Box<dyn Future<Output = DriverResult<Vec<Vec<Target>>>> + Send + 'static>>;

/// A browser (or desktop) under the engine's control.
pub trait Driver: Send {
    /// Reads the current signals for `probes`. With `since`, first waits until the signals
    /// differ from it, or until `timeout` passes; drivers should wake up as soon as the
    /// page changes rather than sleep the whole timeout. The page has `answer` to answer
    /// the read itself (drivers may allow less): the time its caller has left, so that a
    /// page too busy to answer costs a run no more than the run can spare.
    fn signals(
        &mut self,
        probes: &[Probe],
        since: Option<&Signals>,
        timeout: Duration,
        answer: Duration,
    ) -> impl Future<Output = DriverResult<Signals>> + Send;

    /// Performs one action (never `wait`, which the engine does itself). An element action
    /// waits up to `patience` for its target to become actionable and otherwise fails with
    /// `NotActionable`, so the engine can look around before trying again.
    fn perform(&mut self, action: &Action, patience: Duration) -> impl Future<Output = DriverResult<Outcome>> + Send;

    /// Starts recording the page. The returned future owns what it needs, so the engine
    /// can let it finish in the background while the next action runs.
    fn observe(&mut self, capture: Capture) -> ObserveFuture;

    /// Starts finding, for each element probe, other locators of the first visible element
    /// it finds (most stable first, none when it finds nothing), as `observe` runs beside
    /// the actions. Drivers without a page to ask find none.
    fn locate(&mut self, probes: &[Probe]) -> LocateFuture {
        let none = vec![Vec::new(); probes.len()];
        Box::pin(async move { Ok(none) })
    }

    /// Makes the tab the run was on before its page again, as `switch_tab` without a tab
    /// named does, leaving this one open; false when there is none. Drivers without tabs
    /// have none.
    fn look_back(&mut self) -> impl Future<Output = bool> + Send {
        std::future::ready(false)
    }

    /// The run's other open tabs, the one it was on most recently first, for a model or a
    /// person to choose from. Drivers without tabs have none.
    fn other_tabs(&mut self) -> impl Future<Output = Vec<OpenTab>> + Send {
        std::future::ready(Vec::new())
    }
}
