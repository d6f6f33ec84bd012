//! `drag`: press on the target, carry it to `to` and let go, as a person drags a card to
//! another column, a row within its list or a slider's handle. The mouse is pressed and
//! lifted a little first; a page that then begins an HTML drag and drop (`dragstart`) is
//! given the browser's drag events for the rest of the way, as a real drag would give it
//! (Chromium hands them over through `Input.setInterceptDrags`, as Playwright's drag does);
//! any other page follows the mouse, moved in steps as a hand moves it.

use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::input::EventDragIntercepted;
use futures::StreamExt;
use serde_json::{Value, json};
use statewright_engine::{DriverError, DriverResult, Outcome};
use statewright_workflow::{Position, Target};

use super::{CALL_BUDGET, ChromeDriver, cdp_failed, not_actionable, position};
use crate::input;
use crate::page::command;

/// The first moves with the button held: past the few pixels every drag library waits for
/// before it takes a press for a drag rather than a click.
const LIFT: [f64; 2] = [4.0, 12.0];
/// Moves from there to where the element is let go, a frame apart: libraries that follow
/// the pointer (sortable lists, sliders) see it travel, and HTML drop targets see it enter.
const STEPS: u32 = 10;
const STEP_PAUSE: Duration = Duration::from_millis(16);
/// How long the browser may take to hand over a drag the page began.
const HANDOVER: Duration = Duration::from_secs(2);

/// How the element is being carried.
enum Carried {
    /// By the mouse, its button held.
    Mouse,
    /// By the browser's drag events, with the page's drag data.
    Html(Value),
}

impl ChromeDriver {
    pub(super) async fn drag(
        &mut self,
        target: &Target,
        to: &Target,
        at: &Option<Position>,
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let opts = json!({"enabled": true, "hitTest": true});
        let (from, doc) = self.actionable(target, opts, patience).await?;
        let start = (from.x, from.y);
        let mut outcome = from.outcome();
        self.page_op(&doc, "watch", &[json!(["dragstart"])]).await?;
        let handed = self.raw().event_listener::<EventDragIntercepted>().await.map_err(cdp_failed)?;
        self.intercept_drags(true).await?;
        self.hold_for_capture().await;
        let mut last = start;
        let mut carried = Carried::Mouse;
        let gesture = async {
            input::press_at(self.raw(), start.0, start.1).await.map_err(DriverError::Browser)?;
            for dx in LIFT {
                last = (start.0 + dx, start.1);
                input::move_held(self.raw(), last.0, last.1).await.map_err(DriverError::Browser)?;
                tokio::time::sleep(STEP_PAUSE).await;
            }
            let began = &self.page_op(&doc, "watched", &[json!(true)]).await?["events"]["dragstart"];
            if began["seen"] == true && began["prevented"] == false {
                carried = Carried::Html(drag_data(handed).await?);
                self.drag_event("dragEnter", last, &carried).await?;
            }
            // Found now: lifting the element may have moved the others (a list closes up).
            let opts = json!({"position": position(at)});
            let (end, _) = self.actionable(to, opts, patience).await.map_err(DriverError::about_to)?;
            let lifted = last;
            for step in 1..=STEPS {
                let t = f64::from(step) / f64::from(STEPS);
                last = (lifted.0 + (end.x - lifted.0) * t, lifted.1 + (end.y - lifted.1) * t);
                match &carried {
                    Carried::Mouse => {
                        input::move_held(self.raw(), last.0, last.1).await.map_err(DriverError::Browser)?
                    }
                    Carried::Html(_) => self.drag_event("dragOver", last, &carried).await?,
                }
                tokio::time::sleep(STEP_PAUSE).await;
            }
            match &carried {
                Carried::Mouse => input::release(self.raw(), last.0, last.1).await.map_err(DriverError::Browser)?,
                Carried::Html(_) => self.drag_event("drop", last, &carried).await?,
            }
            Ok(end.outcome())
        }
        .await;
        if gesture.is_err() {
            // Let go wherever the hand is, so the page is not left mid-drag.
            if matches!(carried, Carried::Html(_)) {
                let _ = self.drag_event("dragCancel", last, &carried).await;
            }
            let _ = input::release(self.raw(), last.0, last.1).await;
        }
        let _ = self.intercept_drags(false).await;
        let dropped_on = gesture?;
        let from = outcome.detail.take().unwrap_or_else(|| "the element".into());
        outcome.detail = Some(format!("{from} → {}", dropped_on.detail.unwrap_or_else(|| "its place".into())));
        outcome.to_alternatives = dropped_on.alternatives;
        Ok(outcome)
    }

    /// Whether the browser hands a drag the page begins to the run instead of starting one
    /// of its own, which a headless browser could never finish.
    async fn intercept_drags(&self, enabled: bool) -> DriverResult<()> {
        let params = json!({"enabled": enabled});
        command(self.raw(), "Input.setInterceptDrags", params, CALL_BUDGET).await.map(drop).map_err(not_actionable)
    }

    async fn drag_event(&self, kind: &str, at: (f64, f64), carried: &Carried) -> DriverResult<()> {
        match carried {
            Carried::Html(data) => self.dispatch_drag(kind, at, data).await,
            Carried::Mouse => Ok(()),
        }
    }

    /// One of the browser's drag events (`dragEnter`, `dragOver`, `drop`, `dragCancel`) at a
    /// point of the top viewport, carrying `data` (its items, files, allowed operations).
    pub(super) async fn dispatch_drag(&self, kind: &str, (x, y): (f64, f64), data: &Value) -> DriverResult<()> {
        let params = json!({"type": kind, "x": x, "y": y, "data": data});
        command(self.raw(), "Input.dispatchDragEvent", params, CALL_BUDGET).await.map(drop).map_err(not_actionable)
    }
}

/// The drag data of the drag the page began, as the browser hands it over.
async fn drag_data(
    mut handed: impl futures::Stream<Item = std::sync::Arc<EventDragIntercepted>> + Unpin,
) -> DriverResult<Value> {
    let event = tokio::time::timeout(HANDOVER, handed.next()).await.ok().flatten().ok_or_else(|| {
        DriverError::NotActionable {
            reason: "no_drag".into(),
            message: "the page began a drag the browser did not hand over".into(),
        }
    })?;
    let mut data = serde_json::to_value(&event.data).map_err(|e| DriverError::Browser(e.to_string()))?;
    // Left out when empty, but the protocol requires it back.
    if data.get("items").is_none() {
        data["items"] = json!([]);
    }
    Ok(data)
}
