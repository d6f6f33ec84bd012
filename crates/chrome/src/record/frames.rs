//! Hearing what the person does inside the tab's cross-origin frames (a consent banner's
//! *Accept all*, a card field): the same in-page recorder, installed in each frame through
//! its own session (frames.rs) and reporting through the same binding. An act there is the
//! tab's, told with the tab's page as its record (the frame's document is only part of it).

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::listen::{BINDING, install};
use super::{Heard, News};
use crate::frames::Frame;
use crate::observe::{OBSERVED_TEXT_CHARS, add_frame};
use crate::page::{CallError, LIBRARY, PageHandle, WORLD};

/// How often the tab's frames are looked for: one that comes later is heard too.
const LIST_EVERY: Duration = Duration::from_millis(500);
/// How long installing the recorder in one frame may take.
const LISTEN_BUDGET: Duration = Duration::from_secs(3);

/// Listens to the cross-origin frames of `page`, as they come, until the tab is gone.
pub(super) fn hear_frames(page: PageHandle, tell: mpsc::UnboundedSender<News>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let Some(mut events) = page.frame_events().await else { return };
        let tab = page.raw().target_id().clone();
        // The frames listened to, by the session their reports come through.
        let mut heard: HashMap<String, Frame> = HashMap::new();
        let mut tried = HashSet::new();
        let mut listing = tokio::time::interval(LIST_EVERY);
        loop {
            tokio::select! {
                _ = listing.tick() => {
                    for frame in page.frames().await {
                        // A frame of the page's process is heard with the page (listen.rs).
                        let Some(session) = frame.session().map(str::to_owned) else { continue };
                        // Once each: a frame that does not let the recorder in (its script
                        // never yields) must not hold up hearing the others at every listing.
                        if !tried.insert(session.clone()) {
                            continue;
                        }
                        match tokio::time::timeout(LISTEN_BUDGET, listen_in(&page, &frame)).await {
                            Ok(Ok(())) => drop(heard.insert(session, frame)),
                            Ok(Err(e)) => tracing::debug!("cannot listen in the frame from {}: {e}", frame.origin()),
                            Err(_) => tracing::debug!("the frame from {} did not let the recorder in", frame.origin()),
                        }
                    }
                }
                event = events.recv() => {
                    let Some((session, event)) = event else { return };
                    let Some(frame) = heard.get(&session) else { continue };
                    let Some(act) = reported(&event) else { continue };
                    let at = Instant::now();
                    let act = as_the_tabs(&page, frame, act).await;
                    if tell.send((Some(tab.clone()), Heard::Act(act), at)).is_err() {
                        return;
                    }
                }
            }
        }
    })
}

/// Installs the library and its recorder in the frame's document and in those it loads
/// later, in the library's world, reporting through the binding only that world has.
async fn listen_in(page: &PageHandle, frame: &Frame) -> Result<(), CallError> {
    page.send_to_frame(frame, "Runtime.enable", json!({})).await?;
    let binding = json!({"name": BINDING, "executionContextName": WORLD});
    page.send_to_frame(frame, "Runtime.addBinding", binding).await?;
    for source in [LIBRARY.to_owned(), install()] {
        let script = json!({"source": source, "worldName": WORLD});
        page.send_to_frame(frame, "Page.addScriptToEvaluateOnNewDocument", script).await?;
        page.evaluate_in(frame, &source, LISTEN_BUDGET).await?;
    }
    Ok(())
}

/// The act a frame's recorder reported, if `event` is one: only a JSON object is an act.
fn reported(event: &Value) -> Option<Value> {
    let params = &event["params"];
    if event["method"] != "Runtime.bindingCalled" || params["name"] != BINDING {
        return None;
    }
    serde_json::from_str::<Value>(params["payload"].as_str()?).ok().filter(Value::is_object)
}

/// The act as one done in the tab: its record is the tab's page as it is now, with the
/// frame's document as it was when the act began. Its place in the frame's own sequence of
/// reports says nothing of the tab's.
pub(super) async fn as_the_tabs(page: &PageHandle, frame: &Frame, mut act: Value) -> Value {
    let mut snapshot = page.call("snapshot", &[json!(OBSERVED_TEXT_CHARS)], Duration::from_secs(5)).await;
    if let Ok(snapshot) = &mut snapshot {
        let corner = page.frame_corner(frame).await.unwrap_or_default();
        add_frame(snapshot, frame, &act["page"], corner);
    }
    act["page"] = snapshot.unwrap_or(Value::Null);
    if let Some(act) = act.as_object_mut() {
        act.remove("doc");
        act.remove("seq");
    }
    act["frame"] = json!(frame.origin());
    act
}
