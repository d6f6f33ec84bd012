//! `select_option`: a choice in a `<select>` is made as the page's own control makes it. A
//! control that only looks like one (a combobox or a button that opens a list of options,
//! as component libraries draw them) is opened with a click and its option clicked, as a
//! person chooses: the option by its accessible name, the label or value the action gives
//! (else one whose name holds it in any case, as a person reads a list). A list of several
//! options is for a `<select multiple>` only: a list the page draws closes on the option
//! clicked, so it takes one.

use std::time::Duration;

use serde_json::{Value, json};
use statewright_engine::{DriverError, DriverResult, Outcome};
use statewright_workflow::{Choices, MouseButton, Target};

use super::{Actionable, CALL_BUDGET, ChromeDriver, not_actionable};
use crate::input;

/// How long an option is looked for loosely, once the list has had its time to show it.
const LOOSE_PATIENCE: Duration = Duration::from_millis(300);

impl ChromeDriver {
    pub(super) async fn select_option(
        &mut self,
        target: &Target,
        value: &Option<Choices>,
        label: &Option<Choices>,
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let (at, doc) = self.actionable(target, json!({"enabled": true}), patience).await?;
        self.hold_for_capture().await;
        let choice = json!({"value": value, "label": label});
        let reply = self.call_in(&doc, "selectOption", &[json!(target), choice], CALL_BUDGET).await;
        let reply = reply.map_err(not_actionable)?;
        if reply["ok"] == true {
            let selected = chosen(&reply).map(|s| doc.told(s));
            let outcome = at.outcome();
            return Ok(Outcome { detail: selected.or(outcome.detail), ..outcome });
        }
        let message = reply["message"].as_str().unwrap_or("the page refused the choice").to_owned();
        let Some(wanted) = label.as_ref().or(value.as_ref()) else {
            return Err(DriverError::Invalid(message));
        };
        if reply["reason"] != "not_a_select" {
            return Err(DriverError::Invalid(message));
        }
        // A list drawn by the page closes on a click, as a single select does: one option.
        match wanted.single() {
            Some(one) => self.choose_in_list(at, one, patience).await,
            None => Err(DriverError::Invalid(format!(
                "{} is no <select multiple>: it takes one option, not {} ({wanted})",
                at.description.as_deref().unwrap_or("the target"),
                wanted.as_slice().len()
            ))),
        }
    }

    /// Opens the list `opener` shows (unless its option already shows) and clicks the option
    /// named `wanted`.
    async fn choose_in_list(&mut self, opener: Actionable, wanted: &str, patience: Duration) -> DriverResult<Outcome> {
        let option = Target { role: Some("option".into()), name: Some(wanted.to_owned()), ..Target::default() };
        if !self.page_has(&option).await {
            input::click(self.raw(), opener.x, opener.y, MouseButton::Left, 1).await.map_err(DriverError::Browser)?;
        }
        let what = opener.description.clone().unwrap_or_else(|| "the target".into());
        let opts = json!({"enabled": true, "hitTest": true});
        let found = match self.actionable(&option, opts.clone(), patience).await {
            // The list shows, but not as the action spells it ("medium" for "Medium (M)").
            Err(DriverError::NotActionable { reason, .. }) if reason == "not_found" => {
                let loosely = option.loosened().unwrap_or(option);
                self.actionable(&loosely, opts, LOOSE_PATIENCE).await
            }
            found => found,
        };
        let (found, _) = found.map_err(|e| match e {
            DriverError::NotActionable { reason, .. } if reason == "not_found" => DriverError::NotActionable {
                reason: "no_option".into(),
                message: format!("{what} is no <select>, and clicking it showed no option \"{wanted}\""),
            },
            e => e,
        })?;
        input::click(self.raw(), found.x, found.y, MouseButton::Left, 1).await.map_err(DriverError::Browser)?;
        let chosen = found.description.unwrap_or_else(|| format!("option \"{wanted}\""));
        Ok(Outcome { detail: Some(format!("{what} → {chosen}")), ..opener.outcome() })
    }
}

/// What the page chose, for the action's record: the option's value, or, when it chose by a
/// list, each option's label (what a person reads of it) in the order the action names them.
fn chosen(reply: &Value) -> Option<String> {
    match (reply.get("selected")?, reply.get("label")) {
        (Value::String(one), _) => Some(one.clone()),
        (Value::Array(_), Some(Value::Array(several))) => {
            let quoted: Vec<String> = several.iter().filter_map(Value::as_str).map(|v| format!("{v:?}")).collect();
            Some(format!("{} options: {}", quoted.len(), quoted.join(", ")))
        }
        _ => None,
    }
}
