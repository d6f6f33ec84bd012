//! A scripted driver for testing engine logic: a page reduced to a URL, a title and sets
//! of visible texts and element selectors, changed on a schedule or in reaction to actions.
//! It runs on tokio time, so tests pause the clock and still exercise every timeout.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use statewright_workflow::{Action, ExtractRead, Target, TargetField, TextMatch};
use tokio::time::Instant;

use crate::driver::{Capture, Driver, DriverError, DriverResult, Observation, ObserveFuture, Outcome, Probe, Signals};

/// One change to the scripted page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Url(String),
    Title(String),
    ShowText(String),
    HideText(String),
    ShowElement(String),
    HideElement(String),
    /// Shows the element with this selector holding this text (what an `extract` reads).
    Content(String, String),
    /// Makes actions on this target key fail as not actionable (e.g. covered by a popup).
    Block(String),
    Unblock(String),
}

#[derive(Debug, Default, Clone)]
struct Page {
    url: String,
    title: String,
    texts: BTreeSet<String>,
    elements: BTreeSet<String>,
    contents: std::collections::BTreeMap<String, String>,
    blocked: BTreeSet<String>,
}

impl Page {
    fn apply(&mut self, change: &Change) {
        match change {
            Change::Url(u) => self.url = u.clone(),
            Change::Title(t) => self.title = t.clone(),
            Change::ShowText(t) => drop(self.texts.insert(t.clone())),
            Change::HideText(t) => drop(self.texts.remove(t)),
            Change::ShowElement(e) => drop(self.elements.insert(e.clone())),
            Change::HideElement(e) => drop(self.elements.remove(e)),
            Change::Content(selector, text) => {
                self.elements.insert(selector.clone());
                self.contents.insert(selector.clone(), text.clone());
            }
            Change::Block(k) => drop(self.blocked.insert(k.clone())),
            Change::Unblock(k) => drop(self.blocked.remove(k)),
        }
    }

    fn signals(&self, probes: &[Probe]) -> Signals {
        let results = probes
            .iter()
            .map(|p| match p {
                Probe::Text { value, mode: TextMatch::Equals } => self.texts.contains(value),
                Probe::Text { value, mode: TextMatch::Contains } => {
                    self.texts.iter().any(|t| t.contains(value.as_str()))
                }
                Probe::Element { selector, .. } => self.elements.contains(selector),
                // The scripted page has no desktop around it.
                Probe::Window { .. } => false,
            })
            .collect();
        Signals { url: self.url.clone(), title: self.title.clone(), results, errors: Vec::new() }
    }

    /// What an `extract` reads here: an element's content (as text, attribute or value
    /// alike), 0 or 1 for a count, a list or table as the content's JSON.
    fn read(&self, target: &Target, read: ExtractRead) -> serde_json::Value {
        let key = target.css.as_ref().or(target.xpath.as_ref()).or(target.text.as_ref());
        let content = key.and_then(|k| self.contents.get(k)).cloned().unwrap_or_default();
        match read {
            ExtractRead::Count => serde_json::Value::from(u32::from(self.target_present(target))),
            ExtractRead::List | ExtractRead::Table => serde_json::from_str(&content).unwrap_or_default(),
            _ => serde_json::Value::String(content),
        }
    }

    fn target_present(&self, target: &Target) -> bool {
        match (&target.css, &target.xpath, &target.text) {
            (Some(s), _, _) | (_, Some(s), _) => self.elements.contains(s),
            (_, _, Some(t)) => self.texts.contains(t),
            _ => true,
        }
    }
}

struct Reaction {
    action: String,
    after: Duration,
    changes: Vec<Change>,
}

/// A short key naming an action and its target: `click #go`, `navigate_to http://x/`,
/// `type #q`, `press_key Enter`. Tests use it to script reactions and read the log.
pub fn action_key(action: &Action) -> String {
    let target = action.target().map(|t| {
        t.css
            .clone()
            .or_else(|| t.xpath.clone())
            .or_else(|| t.text.clone())
            .or_else(|| t.role.clone())
            .unwrap_or_default()
    });
    let arg = match action {
        Action::NavigateTo { url } => Some(url.clone()),
        Action::PressKey { key } => Some(key.clone()),
        Action::Drag { to, .. } => {
            Some(format!("{} to {}", target.unwrap_or_default(), to.css.clone().unwrap_or_default()))
        }
        _ => target,
    };
    match arg {
        Some(arg) => format!("{} {arg}", action.kind()),
        None => action.kind().to_owned(),
    }
}

/// The scripted driver. Build it, schedule changes, run the engine on it, read `log`.
pub struct ScriptedDriver {
    page: Page,
    start: Instant,
    schedule: Vec<(Instant, Change)>,
    reactions: Vec<Reaction>,
    invalid: BTreeSet<String>,
    /// Every action performed (its `action_key`), in order.
    pub log: Arc<Mutex<Vec<String>>>,
    /// Every action performed, in full as the driver received it (typed text included).
    pub performed: Arc<Mutex<Vec<Action>>>,
    /// How long each performed action takes.
    pub action_latency: Duration,
    /// From when, and for how many reads, the page is too busy to answer one.
    busy: Option<(Instant, u32)>,
    /// Whether the browser is gone: every read fails as a browser failure.
    gone: bool,
    /// Actions (by key) that open a tab at an address, which the run goes on in.
    tabs: std::collections::BTreeMap<String, String>,
}

/// How long a read of a busy page takes to fail at most (after its wait): a real page's
/// call budget. A read given less time to answer fails sooner.
pub const BUSY_READ: Duration = Duration::from_secs(10);

impl ScriptedDriver {
    /// A page at `url` with nothing on it, scripted from now (call under paused time).
    pub fn new(url: &str) -> Self {
        Self {
            page: Page { url: url.to_owned(), ..Page::default() },
            start: Instant::now(),
            schedule: Vec::new(),
            reactions: Vec::new(),
            invalid: BTreeSet::new(),
            log: Arc::default(),
            performed: Arc::default(),
            action_latency: Duration::ZERO,
            busy: None,
            gone: false,
            tabs: Default::default(),
        }
    }

    /// The action with key `action` opens a tab at `url`, and the run goes on in it: the page
    /// is at `url` from then on, and the action's outcome says so.
    pub fn opens_tab(mut self, action: &str, url: &str) -> Self {
        self.tabs.insert(action.to_owned(), url.to_owned());
        self
    }

    /// From `at` after the driver was created, the page does not answer the next `reads`
    /// reads: each fails as a call that timed out, after its wait or the time it had to
    /// answer (`BUSY_READ` at most), whichever is longer.
    pub fn busy(mut self, at: Duration, reads: u32) -> Self {
        self.busy = Some((self.start + at, reads));
        self
    }

    /// The browser is gone: every read fails as a browser failure.
    pub fn gone(mut self) -> Self {
        self.gone = true;
        self
    }

    /// Applies `changes` now, before the run starts.
    pub fn with(mut self, changes: impl IntoIterator<Item = Change>) -> Self {
        for change in changes {
            self.page.apply(&change);
        }
        self
    }

    /// Schedules `changes` at `at` after the driver was created.
    pub fn at(mut self, at: Duration, changes: impl IntoIterator<Item = Change>) -> Self {
        let when = self.start + at;
        self.schedule.extend(changes.into_iter().map(|c| (when, c)));
        self
    }

    /// When the action with key `action` is performed, applies `changes` `after` later.
    pub fn on(mut self, action: &str, after: Duration, changes: impl IntoIterator<Item = Change>) -> Self {
        self.reactions.push(Reaction { action: action.to_owned(), after, changes: changes.into_iter().collect() });
        self
    }

    /// The action with this key fails with an `Invalid` error.
    pub fn invalid(mut self, action: &str) -> Self {
        self.invalid.insert(action.to_owned());
        self
    }

    fn apply_due(&mut self) {
        let now = Instant::now();
        self.schedule.sort_by_key(|(when, _)| *when);
        let due = self.schedule.iter().take_while(|(when, _)| *when <= now).count();
        for (_, change) in self.schedule.drain(..due) {
            self.page.apply(&change);
        }
    }

    /// Sleeps until the next scheduled change or `deadline`, whichever is first.
    async fn sleep_toward(&self, deadline: Instant) {
        let next = self.schedule.iter().map(|(when, _)| *when).min().map_or(deadline, |w| w.min(deadline));
        tokio::time::sleep_until(next).await;
    }
}

impl Driver for ScriptedDriver {
    async fn signals(
        &mut self,
        probes: &[Probe],
        since: Option<&Signals>,
        timeout: Duration,
        answer: Duration,
    ) -> DriverResult<Signals> {
        let deadline = Instant::now() + timeout;
        if self.gone {
            return Err(DriverError::Browser("the browser is gone".into()));
        }
        if let Some((from, reads)) = &mut self.busy
            && Instant::now() >= *from
            && *reads > 0
        {
            *reads -= 1;
            tokio::time::sleep(timeout.max(answer.min(BUSY_READ))).await;
            let message = "the page did not answer in time".into();
            return Err(DriverError::NotActionable { reason: "timeout".into(), message });
        }
        loop {
            self.apply_due();
            let signals = self.page.signals(probes);
            if since != Some(&signals) || Instant::now() >= deadline {
                return Ok(signals);
            }
            self.sleep_toward(deadline).await;
        }
    }

    async fn perform(&mut self, action: &Action, patience: Duration) -> DriverResult<Outcome> {
        let key = action_key(action);
        let deadline = Instant::now() + patience;
        if self.invalid.contains(&key) {
            return Err(DriverError::Invalid(format!("{key} cannot be performed")));
        }
        // The elements it needs: the target, and a drag's `to`.
        let elements: Vec<(TargetField, &Target)> = [TargetField::Target, TargetField::To]
            .into_iter()
            .filter_map(|field| Some((field, action.target_in(field)?)))
            .collect();
        if !elements.is_empty() {
            loop {
                self.apply_due();
                let missing = elements.iter().find(|(_, target)| !self.page.target_present(target));
                let blocked = self.page.blocked.contains(&key);
                if missing.is_none() && !blocked {
                    break;
                }
                if Instant::now() >= deadline {
                    let reason = if blocked { "obscured" } else { "not_found" };
                    let error =
                        DriverError::NotActionable { reason: reason.into(), message: format!("{key}: {reason}") };
                    return Err(match missing {
                        Some((TargetField::To, _)) if !blocked => error.about_to(),
                        _ => error,
                    });
                }
                self.sleep_toward(deadline).await;
            }
        }
        tokio::time::sleep(self.action_latency).await;
        self.log.lock().expect("log lock").push(key.clone());
        self.performed.lock().expect("performed lock").push(action.clone());
        let now = Instant::now();
        for reaction in self.reactions.iter().filter(|r| r.action == key) {
            self.schedule.extend(reaction.changes.iter().map(|c| (now + reaction.after, c.clone())));
        }
        if let Action::NavigateTo { url } = action {
            self.page.url = url.clone();
        }
        let opened_tab = self.tabs.get(&key).cloned();
        if let Some(url) = &opened_tab {
            self.page.url = url.clone();
        }
        let value = match action {
            Action::Extract { target, read, .. } => Some(self.page.read(target, *read)),
            _ => None,
        };
        Ok(Outcome { detail: Some(key), value, opened_tab, ..Default::default() })
    }

    fn observe(&mut self, _capture: Capture) -> ObserveFuture {
        let observation =
            Observation { url: self.page.url.clone(), title: self.page.title.clone(), ..Observation::default() };
        Box::pin(async move { Ok(observation) })
    }
}
