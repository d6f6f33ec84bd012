//! `check`: a checkbox, radio button or switch made checked (or unchecked) the way a person
//! does it, by a click, and only when it is not so already: a state entered again must not
//! undo what it did, as a plain click would.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use statewright_engine::{DriverError, DriverResult, Outcome};
use statewright_workflow::{MouseButton, Target};

use super::{ChromeDriver, Doc};

/// How long the page may take to show the click's effect: frameworks that keep the state
/// themselves redraw the box a frame or two later.
const SETTLE: Duration = Duration::from_secs(1);

/// The page's answer to `checkState`.
#[derive(Deserialize)]
struct CheckState {
    /// `true`, `false`, or `"mixed"` (a tri-state box half set).
    checked: Value,
    #[serde(default)]
    radio: bool,
    description: Option<String>,
}

impl CheckState {
    fn is(&self, checked: bool) -> bool {
        self.checked == Value::Bool(checked)
    }
}

impl ChromeDriver {
    pub(super) async fn check(&mut self, target: &Target, checked: bool, patience: Duration) -> DriverResult<Outcome> {
        let opts = json!({"enabled": true, "hitTest": true, "check": true});
        let (at, doc) = self.actionable(target, opts.clone(), patience).await?;
        let before = self.check_state(&doc, target).await?;
        let control = before.description.clone().unwrap_or_else(|| "the control".into());
        let verb = if checked { "checked" } else { "unchecked" };
        if before.is(checked) {
            let detail = Some(doc.told(format!("{control} was already {verb}")));
            return Ok(Outcome { detail, ..at.outcome() });
        }
        if !checked && before.radio {
            return Err(DriverError::Invalid(format!(
                "{control} is a radio button: it is unchecked by checking another of its group"
            )));
        }
        self.hold_for_capture().await;
        let (at, there) = self.pointed_at(target, &opts, at).await?;
        // The document the box is in, told from the one a click may take the page to.
        let world = self.world_in(&doc).await.ok();
        self.press((&at, there), MouseButton::Left, 1).await?;
        let mut outcome = at.outcome();
        let deadline = tokio::time::Instant::now() + SETTLE;
        loop {
            // The click may have taken the page elsewhere (a filter that reloads): the state
            // is then the new page's to show, and the engine recognises it. A control gone only
            // for a moment (a spinner in its place while a server answers) is looked at again
            // when it is back: it may be unchanged. Only the same document answering without
            // it is waited for; another one (or none) means the page was left.
            let after = match self.check_state(&doc, target).await {
                Ok(after) => after,
                Err(DriverError::Browser(e)) => return Err(DriverError::Browser(e)),
                Err(DriverError::Invalid(_))
                    if tokio::time::Instant::now() < deadline
                        && world.is_some()
                        && self.world_in(&doc).await.ok() == world =>
                {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
                Err(_) => {
                    outcome.detail = Some(doc.told(format!("clicked {control}; the page changed")));
                    return Ok(outcome);
                }
            };
            if after.is(checked) {
                outcome.detail = Some(doc.told(format!("{verb} {control}")));
                return Ok(outcome);
            }
            if tokio::time::Instant::now() >= deadline {
                // Retried by the engine: the state is read again before any other click.
                return Err(DriverError::NotActionable {
                    reason: "unchanged".into(),
                    message: format!("clicking {control} did not make it {verb}"),
                });
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn check_state(&self, doc: &Doc, target: &Target) -> DriverResult<CheckState> {
        let reply = self.page_op(doc, "checkState", &[json!(target)]).await?;
        serde_json::from_value(reply).map_err(|e| DriverError::Browser(format!("bad reply from page: {e}")))
    }
}
