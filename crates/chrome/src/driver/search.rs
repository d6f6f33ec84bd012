//! Finding an action's target: in the page (and its frames of the same origin, which the
//! in-page library sees into), or in one of its cross-origin frames (frames.rs), all waited
//! on at once, since a consent banner's frame may come late.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::js_protocol::runtime::ExecutionContextId;
use futures::StreamExt;
use futures::stream::FuturesUnordered;
use serde_json::{Value, json};
use statewright_engine::{DriverError, DriverResult};
use statewright_workflow::Target;

use super::{Actionable, CALL_BUDGET, ChromeDriver, not_actionable};
use crate::frames::Frame;
use crate::page::CallError;

/// How often the page's cross-origin frames are listed while a target is waited for.
const LIST_EVERY: Duration = Duration::from_millis(250);

/// Where a target was found.
pub(crate) enum Doc {
    /// The page's document.
    Page,
    /// A cross-origin frame of the page; the point found is already the page's.
    Frame(Frame),
}

impl Doc {
    /// What an action says it did, naming the frame it did it in (by its origin only).
    pub(crate) fn told(&self, done: String) -> String {
        match self {
            Doc::Page => done,
            Doc::Frame(frame) => frame.describe(Some(&done)),
        }
    }
}

impl ChromeDriver {
    /// Waits until the target is actionable under `opts`, in the page or in a cross-origin
    /// frame of it, returning the action point (in the page) and the element's alternative
    /// locators (every element action reports them, for healing). The page's answer wins a
    /// tie; when neither has it, the page says why, unless the page has no such element and
    /// a frame has, covered: then that is why.
    pub(super) async fn actionable(
        &self,
        target: &Target,
        opts: Value,
        patience: Duration,
    ) -> DriverResult<(Actionable, Doc)> {
        let opts = &opts;
        let covered = &Mutex::new(None);
        let in_frames = self.in_frames(patience, |frame, left| async move {
            let at = self.actionable_in(&Doc::Frame(frame.clone()), target, opts.clone(), left).await.ok()?;
            if self.page_has(target).await {
                return None;
            }
            let placed = self.in_page(at, &frame, opts).await;
            if let Err(Some(why)) = &placed {
                *covered.lock().unwrap_or_else(PoisonError::into_inner) = Some(why.clone());
            }
            placed.ok()
        });
        let found = tokio::select! {
            biased;
            found = self.actionable_in(&Doc::Page, target, opts.clone(), patience) => found.map(|at| (at, Doc::Page)),
            (at, frame) = in_frames => Ok((at, Doc::Frame(frame))),
        };
        match (found, covered.lock().unwrap_or_else(PoisonError::into_inner).take()) {
            (Err(DriverError::NotActionable { reason, .. }), Some(why)) if reason == "not_found" => {
                Err(DriverError::NotActionable { reason: "obscured".into(), message: why })
            }
            (found, _) => found,
        }
    }

    /// Calls the library where the target was found.
    pub(super) async fn call_in(
        &self,
        doc: &Doc,
        function: &str,
        args: &[Value],
        budget: Duration,
    ) -> Result<Value, CallError> {
        match doc {
            Doc::Page => self.page().call(function, args, budget).await,
            Doc::Frame(frame) => self.page().call_in(frame, function, args, budget).await,
        }
    }

    /// Sends a DevTools command to the document where the target was found; its result.
    pub(super) async fn send_in(&self, doc: &Doc, method: &str, params: Value) -> Result<Value, CallError> {
        match doc {
            Doc::Page => self.page().send(method, params).await,
            Doc::Frame(frame) => self.page().send_to_frame(frame, method, params).await,
        }
    }

    /// The library's world in the document where the target was found.
    pub(super) async fn world_in(&self, doc: &Doc) -> Result<ExecutionContextId, CallError> {
        match doc {
            Doc::Page => self.page().world().await,
            Doc::Frame(frame) => self.page().frame_world(frame).await,
        }
    }

    async fn actionable_in(
        &self,
        doc: &Doc,
        target: &Target,
        opts: Value,
        patience: Duration,
    ) -> DriverResult<Actionable> {
        let mut opts = opts;
        opts["timeoutMs"] = json!(patience.as_millis() as u64);
        opts["alternatives"] = json!(true);
        let value = self.call_in(doc, "actionable", &[json!(target), opts], patience).await.map_err(not_actionable)?;
        let result: Actionable =
            serde_json::from_value(value).map_err(|e| DriverError::Browser(format!("bad reply from page: {e}")))?;
        match result.ok {
            true => Ok(result),
            false if result.reason.as_deref() == Some("invalid_selector") => {
                Err(DriverError::Invalid(result.message.unwrap_or_else(|| "invalid selector".into())))
            }
            false => Err(DriverError::NotActionable {
                reason: result.reason.unwrap_or_else(|| "not_actionable".into()),
                message: result.message.unwrap_or_else(|| "the target is not actionable".into()),
            }),
        }
    }

    /// Whether the page itself shows an element the target names: then it is the page's
    /// to act on, once it can be (a frame's look-alike, an ad's *Accept*, is not taken).
    pub(super) async fn page_has(&self, target: &Target) -> bool {
        let described = self.page().call("describe", &[json!(target)], CALL_BUDGET).await;
        described.is_ok_and(|d| d["visibleCount"].as_u64().is_some_and(|n| n > 0))
    }

    /// What `ask` finds in one of the page's cross-origin frames, asked of each frame as it
    /// comes, with the patience left; never, when no frame has it. A frame that had nothing
    /// is asked again at the next listing: it may have loaded another document, or what
    /// covered it may be gone.
    pub(super) async fn in_frames<T, F, Fut>(&self, patience: Duration, ask: F) -> (T, Frame)
    where
        F: Fn(Frame, Duration) -> Fut,
        Fut: Future<Output = Option<T>>,
    {
        let began = Instant::now();
        let mut asked = HashSet::new();
        let mut calls = FuturesUnordered::new();
        let mut listing = tokio::time::interval(LIST_EVERY);
        loop {
            tokio::select! {
                _ = listing.tick() => {
                    for frame in self.page().frames().await {
                        if asked.insert(frame.id().clone()) {
                            let call = ask(frame.clone(), patience.saturating_sub(began.elapsed()));
                            calls.push(async move { (call.await, frame) });
                        }
                    }
                }
                Some((found, frame)) = calls.next(), if !calls.is_empty() => match found {
                    Some(found) => return (found, frame),
                    None => {
                        asked.remove(frame.id());
                    }
                },
            }
        }
    }

    /// The point found in `frame` as a point of the page, when the page shows the frame
    /// there (a hit test was asked for); the description says which frame. `Err` says what
    /// covers it there, when that is known.
    async fn in_page(&self, mut at: Actionable, frame: &Frame, opts: &Value) -> Result<Actionable, Option<String>> {
        // An action that does not scroll (`wait_for`) leaves the page where it is.
        let placed = match opts["scroll"] == json!(false) {
            true => self.page().frame_corner(frame).await.map(|corner| (corner, Vec::new())),
            false => self.page().frame_into_view(frame).await,
        };
        let ((left, top), shown) = placed.ok_or(None)?;
        at.x += left;
        at.y += top;
        let described = frame.describe(at.description.as_deref());
        if opts["hitTest"] == json!(true)
            && let Some(cover) = self.page().frame_covering(&shown, (at.x, at.y)).await
        {
            let why = format!("{described} is covered at ({:.0}, {:.0}) by {cover}", at.x, at.y);
            tracing::debug!("{why}");
            tokio::time::sleep(LIST_EVERY).await;
            return Err(Some(why));
        }
        at.description = Some(described);
        at.element = at.element.map(|e| frame.page_element(&e));
        Ok(at)
    }
}
