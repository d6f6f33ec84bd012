//! Running one state's actions. Element actions wait for their target in short slices;
//! between slices the engine looks at the page, so a popup that covers the target (and is
//! recognised as a higher-priority state) takes over instead of stalling the action.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::Value;
use statewright_workflow::params::MASK;
use statewright_workflow::{Action, Config, Params, Target, variables};
use tokio::sync::mpsc::UnboundedSender;
use tokio::time::Instant;

use crate::driver::{Driver, DriverError};
use crate::event::Event;
use crate::executor::DriverErrorAt;
use crate::executor::read::answer_by;
use crate::matcher::Matcher;

/// How long one look for a target lasts before the engine checks whether the page has
/// moved to another state. Short enough to react to a popup within a frame or two of
/// polling, long enough that a normal wait costs few round trips.
const SLICE: Duration = Duration::from_millis(250);
/// How long an `extract` whose pattern did not match waits before reading again.
const REREAD: Duration = Duration::from_millis(50);

pub(crate) enum StateActions {
    Completed,
    /// Another state took over the page while an action waited for its target.
    Preempted,
    /// Action `index` read `value` into the variable `into`: the run sets it and binds the
    /// workflow again before the next action, which may refer to it.
    Extracted {
        index: usize,
        into: String,
        value: serde_json::Value,
    },
    /// Action `index` is a `use_skill`: the run runs the skill (its `ActionFinished` comes
    /// when the skill has ended).
    Skill {
        index: usize,
    },
}

/// An action that was performed (or tried), and the page element it acted on, as the
/// driver identifies it (`None` when it cannot, or the action has no element).
pub(crate) struct Performed {
    pub index: usize,
    pub element: Option<String>,
}

/// How many actions a run has performed (tried, for one that failed or was preempted),
/// counted as each is tried. Cancelling a run drops its work mid-state (a skill's run with
/// it): a count kept only once a state's actions return would lose the actions done so far.
/// Clones share one count, so a skill's actions are its caller's.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally(Arc<AtomicU32>);

impl Tally {
    pub fn get(&self) -> u32 {
        self.0.load(Ordering::Relaxed)
    }

    pub fn add(&self, n: u32) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }
}

impl std::ops::AddAssign<u32> for Tally {
    fn add_assign(&mut self, n: u32) {
        self.add(n);
    }
}

pub(crate) struct ActionRun<'a> {
    pub step: u32,
    /// The state whose actions these are; `None` for a reviewer's corrective actions,
    /// which only an interrupt may preempt.
    pub state_index: Option<usize>,
    pub state: &'a str,
    pub actions: &'a [Action],
    /// The same actions with secrets masked, for events.
    pub display: &'a [Action],
    /// The index of the first action to run (after a healed or skipped one, say).
    pub from: usize,
    /// Per action, a variable it refers to that has no value yet: it fails instead of
    /// typing or looking for `{{name}}` literally.
    pub unset: Vec<Option<String>>,
    pub config: &'a Config,
    pub params: &'a Params,
    pub events: &'a UnboundedSender<Event>,
    pub started: Instant,
    /// The run's count of actions, added to as each one is tried.
    pub tally: &'a Tally,
}

impl ActionRun<'_> {
    /// Runs the actions in order from `from`; returns how it ended and the actions
    /// performed (tried, for the last one when it failed or was preempted).
    pub async fn execute<D: Driver>(
        &self,
        driver: &mut D,
        matcher: &Matcher,
    ) -> (Result<StateActions, DriverErrorAt>, Vec<Performed>) {
        let mut performed = Vec::new();
        for (index, action) in self.actions.iter().enumerate().skip(self.from) {
            if index > self.from && self.config.action_period > 0.0 {
                tokio::time::sleep(Duration::try_from_secs_f64(self.config.action_period).unwrap_or(Duration::MAX))
                    .await;
            }
            let display = &self.display[index];
            let _ = self.events.send(Event::ActionStarted {
                step: self.step,
                state: self.state.to_owned(),
                index,
                action: display.clone(),
            });
            let unset = self.unset.get(index).cloned().flatten();
            if unset.is_none() && matches!(action, Action::UseSkill { .. }) {
                performed.push(Performed { index, element: None });
                self.tally.add(1);
                return (Ok(StateActions::Skill { index }), performed);
            }
            let began = Instant::now();
            let result = match unset {
                Some(name) => Attempt::Failed(
                    DriverError::Invalid(format!(
                        "`{{{{{name}}}}}` has no value yet: no `extract` into `{name}` has run in this run"
                    )),
                    0,
                ),
                None => self.perform(driver, matcher, action, index).await,
            };
            let element = match &result {
                Attempt::Done(outcome, _) => outcome.element.clone(),
                _ => None,
            };
            performed.push(Performed { index, element });
            self.tally.add(1);
            let extracted = match (&result, action) {
                (Attempt::Done(outcome, _), Action::Extract { into, .. }) => {
                    outcome.value.clone().map(|value| (into.clone(), value))
                }
                _ => None,
            };
            let (outcome, attempts, error) = match result {
                Attempt::Done(outcome, attempts) => (Some(outcome), attempts, None),
                Attempt::Preempted { by_state, reason } => {
                    tracing::info!(state = self.state, index, by_state, "action preempted");
                    let _ = self.events.send(Event::ActionPreempted {
                        step: self.step,
                        state: self.state.to_owned(),
                        index,
                        by_state,
                        reason,
                    });
                    return (Ok(StateActions::Preempted), performed);
                }
                Attempt::Failed(error, attempts) => (None, attempts, Some(error)),
            };
            self.finished(index, began, attempts, outcome, error.as_ref());
            if let Some(error) = error {
                return (Err(DriverErrorAt { index, error }), performed);
            }
            if let Some((into, value)) = extracted {
                return (Ok(StateActions::Extracted { index, into, value }), performed);
            }
        }
        (Ok(StateActions::Completed), performed)
    }

    /// Emits `ActionFinished` for action `index`, and `TabOpened` after it when it opened a
    /// tab the run went on in.
    pub fn finished(
        &self,
        index: usize,
        began: Instant,
        attempts: u32,
        outcome: Option<crate::driver::Outcome>,
        error: Option<&DriverError>,
    ) {
        let opened_tab = outcome.as_ref().and_then(|o| o.opened_tab.as_deref()).map(|url| self.params.redact(url));
        let (detail, alternatives, to_alternatives, artifact, value) = match outcome {
            Some(o) => {
                (o.detail.map(|d| self.params.redact(&d)), o.alternatives, o.to_alternatives, o.artifact, o.value)
            }
            None => (None, Vec::new(), Vec::new(), None, None),
        };
        let value = value.map(|v| shown_value(self.params, v));
        // A locator that quotes a secret (the text of a field echoing it) is not kept, and a
        // file named after one is renamed: neither may reach the store.
        // The locator is looked at as JSON text, where a secret's `"` or `\` is escaped: the
        // matcher sees secrets through JSON's escapes.
        let kept = |alternatives: Vec<Target>| -> Vec<Target> {
            let reveals = |t: &Target| self.params.reveals_secret(&serde_json::to_string(t).unwrap_or_default());
            alternatives.into_iter().filter(|t| !reveals(t)).collect()
        };
        let artifact = artifact.map(|a| self.shown_artifact(index, a));
        let _ = self.events.send(Event::ActionFinished {
            step: self.step,
            state: self.state.to_owned(),
            index,
            action: self.display[index].clone(),
            elapsed_ms: self.started.elapsed().as_millis() as u64,
            duration_ms: began.elapsed().as_millis() as u64,
            attempts,
            detail,
            error: error.map(|e| self.params.redact_message(&e.to_string())),
            alternatives: kept(alternatives),
            to_alternatives: kept(to_alternatives),
            artifact,
            value,
        });
        if let Some(url) = opened_tab {
            let _ = self.events.send(Event::TabOpened { step: self.step, state: self.state.to_owned(), index, url });
        }
    }

    /// Action `index`'s file as the record keeps it: its name masked, and a `save_html`'s page
    /// too, where a secret the page shows sits in its character references (`w&amp;rd`).
    fn shown_artifact(&self, index: usize, artifact: crate::driver::Artifact) -> crate::driver::Artifact {
        let filename = self.params.redact(&artifact.filename);
        let bytes = match (self.actions.get(index), std::str::from_utf8(&artifact.bytes)) {
            (Some(Action::SaveHtml { .. }), Ok(html)) => Arc::new(self.params.redact(html).into_bytes()),
            _ => artifact.bytes,
        };
        crate::driver::Artifact { filename, bytes }
    }

    async fn perform<D: Driver>(&self, driver: &mut D, matcher: &Matcher, action: &Action, index: usize) -> Attempt {
        let timeout = match action {
            Action::Wait { seconds } => {
                tokio::time::sleep(Duration::try_from_secs_f64(*seconds).unwrap_or(Duration::ZERO)).await;
                return Attempt::Done(Default::default(), 1);
            }
            Action::WaitFor { timeout: Some(t), .. } | Action::WaitForWindow { timeout: Some(t), .. } => *t,
            _ => self.config.action_timeout,
        };
        let deadline =
            crate::executor::deadline(Instant::now(), Duration::try_from_secs_f64(timeout).unwrap_or(Duration::MAX));
        let mut attempts = 0;
        loop {
            attempts += 1;
            let performed = driver.perform(action, self.patience(action, deadline)).await;
            let error = match performed.and_then(|outcome| narrowed(action, outcome)) {
                Ok(outcome) => return Attempt::Done(outcome, attempts),
                Err(error) if error.is_retryable() && Instant::now() < deadline => error,
                Err(error) => return Attempt::Failed(error, attempts),
            };
            // Blocked: has the page become another state (a popup over the target, say)?
            let signals = match driver.signals(matcher.probes(), None, Duration::ZERO, answer_by(deadline)).await {
                Ok(signals) => signals,
                Err(e) => return Attempt::Failed(e, attempts),
            };
            // A state's actions yield to any other state; a reviewer's corrections only to an
            // interrupt (a popup over the target), which is handled before they go on.
            if let Some(top) = matcher.top(&matcher.matching(&signals))
                && self.state_index.map_or(matcher.is_interrupt(top), |own| top != own)
            {
                let by_state = matcher.state_name(top).to_owned();
                return Attempt::Preempted { by_state, reason: format!("action {index} was blocked: {error}") };
            }
            if matches!(&error, DriverError::NotActionable { reason, .. } if reason == "no_match") {
                // The element is there and read at once: give the page time to change.
                tokio::time::sleep(REREAD).await;
            }
            tracing::trace!(attempts, %error, "target not actionable yet");
        }
    }
}

impl ActionRun<'_> {
    /// How long one try may wait: a slice for element actions, so that the page is looked
    /// at between tries, otherwise all the time left.
    fn patience(&self, action: &Action, deadline: Instant) -> Duration {
        let left = deadline.saturating_duration_since(Instant::now());
        if action.target().is_some() { SLICE.min(left) } else { left }
    }
}

/// An `extract`'s reading narrowed by its `pattern`. A text the pattern does not match yet
/// is retried like a target not found: the page may still be filling it in.
pub(crate) fn narrowed(
    action: &Action,
    mut outcome: crate::driver::Outcome,
) -> Result<crate::driver::Outcome, DriverError> {
    let Action::Extract { read, pattern, .. } = action else {
        return Ok(outcome);
    };
    let Some(value) = outcome.value.take() else {
        return Err(DriverError::Invalid("the driver read no value".into()));
    };
    let value = match (pattern, value) {
        (Some(pattern), Value::String(text)) if read.is_text() => {
            let re = regex::Regex::new(pattern).map_err(|e| DriverError::Invalid(format!("invalid pattern: {e}")))?;
            match variables::narrow(&re, &text) {
                Some(kept) => Value::String(kept),
                None => {
                    return Err(DriverError::NotActionable {
                        reason: "no_match".into(),
                        message: format!("the pattern /{pattern}/ does not match the text {:?}", clip(&text, 200)),
                    });
                }
            }
        }
        (_, value) => value,
    };
    outcome.value = Some(value);
    Ok(outcome)
}

/// A value as a record may show it: masked whole when it shows a secret.
pub(crate) fn shown_value(params: &Params, value: Value) -> Value {
    if params.reveals_secret(&variables::as_text(&value)) { Value::String(MASK.to_owned()) } else { value }
}

/// `text` up to `chars` characters, and `…` when it went on.
pub(crate) fn clip(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

enum Attempt {
    Done(crate::driver::Outcome, u32),
    Preempted { by_state: String, reason: String },
    Failed(DriverError, u32),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{Artifact, Outcome};
    use serde_json::json;

    /// What `finished` records of a `click` whose element can also be found by a locator that
    /// quotes the secret, and of a `save_html` of a page that shows it.
    #[test]
    fn a_locator_or_saved_page_that_shows_a_secret_keeps_none_of_it() {
        let secret = r#"p"w\rd&<"#;
        let workflow = serde_json::from_value(json!({"version": 1, "name": "w",
            "parameters": {"pw": {"secret": true}}, "states": []}))
        .unwrap();
        let params = Params::bind(&workflow, &[("pw".into(), secret.into())]).unwrap();
        let actions: Vec<Action> = serde_json::from_value(json!([
            {"type": "click", "target": {"css": "#go"}},
            {"type": "save_html", "filename": "page.html"}]))
        .unwrap();
        let (config, tally) = (Config::default(), Tally::default());
        let (events, mut recorded) = tokio::sync::mpsc::unbounded_channel();
        let run = ActionRun {
            step: 1,
            state_index: Some(0),
            state: "Start",
            actions: &actions,
            display: &actions,
            from: 0,
            unset: vec![None, None],
            config: &config,
            params: &params,
            events: &events,
            started: Instant::now(),
            tally: &tally,
        };
        let by_text = |text: &str| Target { text: Some(text.into()), ..Target::default() };
        let clicked = Outcome {
            alternatives: vec![by_text(&format!("Hello {secret}")), by_text("Sign in")],
            ..Outcome::default()
        };
        run.finished(0, Instant::now(), 1, Some(clicked), None);
        let page = format!(r#"<p title="{}">{}</p>"#, "p&quot;w\\rd&amp;&lt;", "p\"w\\rd&amp;&lt;");
        let saved = Outcome {
            artifact: Some(Artifact { filename: "page.html".into(), bytes: Arc::new(page.into_bytes()) }),
            ..Outcome::default()
        };
        run.finished(1, Instant::now(), 1, Some(saved), None);
        let Some(Event::ActionFinished { alternatives, .. }) = recorded.try_recv().ok() else { panic!("no click") };
        assert_eq!(alternatives, [by_text("Sign in")], "the locator quoting the secret is not kept");
        let Some(Event::ActionFinished { artifact: Some(artifact), .. }) = recorded.try_recv().ok() else {
            panic!("no saved page")
        };
        let html = String::from_utf8(artifact.bytes.to_vec()).unwrap();
        assert_eq!(html, format!(r#"<p title="{MASK}">{MASK}</p>"#));
    }
}
