//! `select_option`: a choice in a `<select>` is made as the page's own control makes it. A
//! control that only looks like one (a combobox or a button that opens a list of options,
//! as component libraries draw them) is opened with a click and its option clicked, as a
//! person chooses: the option by its accessible name, the label or value the action gives
//! (else one whose name holds it in any case, as a person reads a list).

use std::time::Duration;

use serde_json::{Value, json};
use statewright_engine::{DriverError, DriverResult, Outcome};
use statewright_workflow::{MouseButton, Target};

use super::{Actionable, CALL_BUDGET, ChromeDriver, not_actionable};
use crate::input;

/// How long an option is looked for loosely, once the list has had its time to show it.
const LOOSE_PATIENCE: Duration = Duration::from_millis(300);

impl ChromeDriver {
    pub(super) async fn select_option(
        &mut self,
        target: &Target,
        value: &Option<String>,
        label: &Option<String>,
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let (at, doc) = self.actionable(target, json!({"enabled": true}), patience).await?;
        self.hold_for_capture().await;
        let choice = json!({"value": value, "label": label});
        let reply = self.call_in(&doc, "selectOption", &[json!(target), choice], CALL_BUDGET).await;
        let reply = reply.map_err(not_actionable)?;
        if reply["ok"] == true {
            let selected = reply.get("selected").and_then(Value::as_str).map(|s| doc.told(s.to_owned()));
            let outcome = at.outcome();
            return Ok(Outcome { detail: selected.or(outcome.detail), ..outcome });
        }
        let message = reply["message"].as_str().unwrap_or("the page refused the choice").to_owned();
        match label.as_ref().or(value.as_ref()) {
            Some(wanted) if reply["reason"] == "not_a_select" => self.choose_in_list(at, wanted, patience).await,
            _ => Err(DriverError::Invalid(message)),
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
