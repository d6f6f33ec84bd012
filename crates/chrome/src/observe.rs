//! A step's record of the page: its text and elements (the library's snapshot) and a JPEG
//! screenshot, asked for the moment the step is entered.
//!
//! The requests leave before the step's first action: a session's commands reach the page
//! in order, so the snapshot reads the page the step acts on. A screenshot is not ordered
//! so: Chromium copies the next frame, and input that navigates at once left it waiting for
//! a frame of a page that was gone (the demo's *Results loaded* step lost its picture in 2
//! runs of 3). So the action's input, and only that, waits for the capture: the action
//! finds its target beside it, and a capture that hangs holds it up for at most
//! `CAPTURE_HOLD` (driver.rs).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use serde_json::{Value, json};
// How much visible text an observation keeps: the engine's figure, since it decides checks
// from a step's record knowing where the record may have been cut.
pub(crate) use statewright_engine::OBSERVED_TEXT_CHARS;
use statewright_engine::{Capture, DriverError, Observation, ObserveFuture};

use crate::driver::{CALL_BUDGET, ChromeDriver, not_actionable};
use crate::frames::{FRAME_READ, Frame};
use crate::guard::Cut;
use crate::page::{CallError, PageHandle};

/// How long a screenshot may take.
const SCREENSHOT_BUDGET: Duration = Duration::from_secs(2);

/// Says when a step's screenshot is taken (or has failed): `true` once it is.
pub(crate) type CaptureDone = tokio::sync::watch::Receiver<bool>;

/// Records the page as it is now. `blank`: the page is known to show nothing yet (the
/// session's fresh tab before its first action), so no screenshot is asked for. For
/// `Capture::WithScreenshot`, also says when it is taken: the step's input waits for it.
pub(crate) fn observe(
    page: &PageHandle,
    capture: Capture,
    blank: bool,
    cut: Cut,
) -> (ObserveFuture, Option<CaptureDone>) {
    let snapshot = {
        let page = page.clone();
        sent_now(async move {
            let snapshot = page.call("snapshot", &[json!(OBSERVED_TEXT_CHARS)], CALL_BUDGET).await?;
            Ok(with_frames(&page, snapshot).await)
        })
    };
    let (screenshot, done) = match (capture, blank) {
        (Capture::WithScreenshot | Capture::ScreenshotBeside, false) => {
            let raw = page.raw().clone();
            let (taken, done) = tokio::sync::watch::channel(false);
            let shot = sent_now(async move {
                let shot = tokio::time::timeout(SCREENSHOT_BUDGET, ChromeDriver::screenshot_jpeg(&raw))
                    .await
                    .map_err(|_| "timed out".to_owned())
                    .and_then(|r| r);
                let _ = taken.send(true);
                shot
            });
            // Its own task, so that it says it is done as soon as it is, whatever the
            // record awaits first.
            (Some(tokio::spawn(shot)), (capture == Capture::WithScreenshot).then_some(done))
        }
        _ => (None, None),
    };
    let record = Box::pin(async move {
        let snapshot = snapshot.await;
        // A page that turned out blank has nothing to show: its capture is not waited for.
        let blank = snapshot.as_ref().is_ok_and(|s| s.get("url").and_then(Value::as_str) == Some("about:blank"));
        let screenshot = match (screenshot, blank) {
            (Some(capture), false) => capture.await.unwrap_or_else(|e| Err(e.to_string())),
            (None, false) if capture != Capture::WithoutScreenshot => Err("blank page".to_owned()),
            (None, false) => Err("not asked for".to_owned()),
            (_, true) => Err("blank page".to_owned()),
        };
        if let Err(e) = &screenshot {
            tracing::debug!("no screenshot for this step: {e}");
        }
        // A browser whose connection the guard closed says why, as the driver's failures do.
        let snapshot = snapshot.map_err(|e: CallError| match not_actionable(e) {
            DriverError::Browser(what) => DriverError::Browser(cut.explain(what)),
            other => other,
        })?;
        let text = |key: &str| snapshot.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        Ok(Observation {
            url: text("url"),
            title: text("title"),
            text: text("text"),
            elements: snapshot.get("elements").cloned().unwrap_or(Value::Null),
            screenshot: screenshot.ok().map(Arc::new),
            tabs: Vec::new(),
        })
    });
    (record, done)
}

/// The page's snapshot with its cross-origin frames' (frames.rs) text and elements after
/// its own, each element where it shows in the page and numbered after the page's.
async fn with_frames(page: &PageHandle, mut snapshot: Value) -> Value {
    let args = [json!(OBSERVED_TEXT_CHARS)];
    for frame in page.frames().await {
        let theirs = tokio::time::timeout(FRAME_READ, page.call_in(&frame, "snapshot", &args, FRAME_READ));
        let (theirs, corner) = tokio::join!(theirs, page.frame_corner(&frame));
        if let (Ok(Ok(theirs)), Some(corner)) = (theirs, corner) {
            add_frame(&mut snapshot, &frame, &theirs, corner);
        }
    }
    snapshot
}

/// Adds the text and elements of `theirs`, a snapshot of `frame`'s document, to the page's
/// `snapshot`: the elements placed by where the frame's viewport begins in the page's
/// (`corner`), numbered as the page's, each with the frame's origin.
pub(crate) fn add_frame(snapshot: &mut Value, frame: &Frame, theirs: &Value, (left, top): (f64, f64)) {
    let text = snapshot["text"].as_str().unwrap_or_default();
    let added = theirs["text"].as_str().unwrap_or_default();
    if !added.is_empty() {
        let joined: String = format!("{text}\n{added}").chars().take(OBSERVED_TEXT_CHARS).collect();
        snapshot["text"] = json!(joined);
    }
    let Some(elements) = snapshot["elements"].as_array_mut() else { return };
    for mut element in theirs["elements"].as_array().cloned().unwrap_or_default() {
        let id = element["id"].as_str().map(|id| frame.page_id(id));
        element["id"] = json!(id);
        for (axis, by) in [("x", left), ("y", top)] {
            if let Some(at) = element["rect"][axis].as_f64() {
                element["rect"][axis] = json!(((at + by) * 10.0).round() / 10.0);
            }
        }
        element["frame"] = json!(frame.origin());
        elements.push(element);
    }
}

/// `future`, polled once right away so that the CDP commands it starts with are queued
/// now, ahead of any sent later, rather than whenever a task first polls it. Whoever
/// awaits it later polls it again with a real waker.
pub(crate) fn sent_now<F>(future: F) -> Pin<Box<dyn Future<Output = F::Output> + Send>>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let mut future = Box::pin(future);
    match future.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => Box::pin(std::future::ready(output)),
        Poll::Pending => future,
    }
}
