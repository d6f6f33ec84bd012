//! What the page shows, for the engine's checks: read in its document (with the frames of
//! the same origin, which the library sees into) and in each of its cross-origin frames
//! (frames.rs); a probe holds when it holds in any of them, so a consent banner served from
//! another site is recognised like one of the page's own.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::target::TargetId;
use futures::StreamExt;
use futures::stream::FuturesUnordered;
use serde_json::{Value, json};
use statewright_engine::Signals;

use crate::frames::{FRAME_READ, Frame};
use crate::page::{CallError, PageHandle};

/// How often the page's cross-origin frames are listed while a change is waited for: one
/// that comes is a change.
const LIST_EVERY: Duration = Duration::from_millis(250);
/// How soon a frame that could not be read (loading, say) is read again.
const UNREAD_AGAIN: Duration = Duration::from_secs(1);

/// The last signals read, by document: what waiting for a change compares each one with.
#[derive(Default, Clone)]
pub(super) struct Seen {
    merged: Option<Signals>,
    page: Option<Value>,
    frames: HashMap<TargetId, Value>,
}

/// Reads the signals of `page` at once or, given `since`, once they differ from it (or when
/// `remaining` is up); the read itself has `answer`.
pub(super) async fn read(
    page: &PageHandle,
    probes: &Value,
    since: Option<&Signals>,
    seen: &Seen,
    remaining: Duration,
    answer: Duration,
) -> Result<(Signals, Seen), CallError> {
    let Some(since) = since else { return read_now(page, probes, answer).await };
    // The page's own part of what the engine saw last, when it was read here.
    let known = seen.merged.as_ref() == Some(since);
    let page_since = match (&seen.page, known) {
        (Some(own), true) => own.clone(),
        _ => json!(since),
    };
    let deadline = tokio::time::Instant::now() + remaining;
    let args = [probes.clone(), page_since, json!(remaining.as_millis() as u64)];
    let wait = page.call("waitForChange", &args, remaining);
    tokio::pin!(wait);
    // The frames the wait began with: those read last, when the engine saw that read.
    let mut frames: Option<HashSet<TargetId>> = None;
    let mut frame_waits = FuturesUnordered::new();
    let mut listing = tokio::time::interval(LIST_EVERY);
    loop {
        tokio::select! {
            page_read = &mut wait => {
                let page_read = page_read?;
                if frames.as_ref().is_none_or(HashSet::is_empty) && seen.frames.is_empty() {
                    return single(page_read);
                }
                break;
            }
            Some(()) = frame_waits.next(), if !frame_waits.is_empty() => break,
            _ = listing.tick() => {
                let now = page.frames().await;
                let ids: HashSet<TargetId> = now.iter().map(|f| f.id().clone()).collect();
                let before = frames.get_or_insert_with(|| match known {
                    true => seen.frames.keys().cloned().collect(),
                    false => HashSet::new(),
                });
                // A frame came or went: that is a change.
                if ids != *before {
                    break;
                }
                if frame_waits.is_empty() {
                    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                    for frame in now {
                        let last = seen.frames.get(frame.id()).cloned().unwrap_or(Value::Null);
                        frame_waits.push(wait_in(page, frame, probes.clone(), last, left));
                    }
                }
            }
            () = tokio::time::sleep_until(deadline) => break,
        }
    }
    read_now(page, probes, answer).await
}

/// Reads the signals of the page and its frames at once.
async fn read_now(page: &PageHandle, probes: &Value, answer: Duration) -> Result<(Signals, Seen), CallError> {
    let (page_read, frames) = tokio::join!(page.call("signals", std::slice::from_ref(probes), answer), page.frames());
    merge(page, probes, page_read?, &frames).await
}

/// Waits until what `frame` shows differs from `last` (its results when read last); a frame
/// that could not be read then is read again in a while.
async fn wait_in(page: &PageHandle, frame: Frame, probes: Value, last: Value, left: Duration) {
    if last.is_null() {
        tokio::time::sleep(UNREAD_AGAIN.min(left)).await;
        return;
    }
    let args = [probes, json!({"results": last}), json!(left.as_millis() as u64)];
    // A frame that cannot say waits no more: the others, and the page, still can.
    if page.call_in(&frame, "waitForChange", &args, left).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// The page's signals alone, with no frame to merge.
fn single(page_read: Value) -> Result<(Signals, Seen), CallError> {
    let signals = parse(&page_read)?;
    Ok((signals.clone(), Seen { merged: Some(signals), page: Some(page_read), frames: HashMap::new() }))
}

/// The page's signals with its frames' merged in.
async fn merge(
    page: &PageHandle,
    probes: &Value,
    page_read: Value,
    frames: &[Frame],
) -> Result<(Signals, Seen), CallError> {
    if frames.is_empty() {
        return single(page_read);
    }
    let mut merged = parse(&page_read)?;
    let mut seen = Seen { page: Some(page_read), ..Seen::default() };
    let reads = frames.iter().map(|frame| async move {
        let read = page.call_in(frame, "signals", std::slice::from_ref(probes), FRAME_READ);
        tokio::join!(tokio::time::timeout(FRAME_READ, read), page.frame_shown(frame))
    });
    for (frame, (read, shown)) in frames.iter().zip(futures::future::join_all(reads).await) {
        // A frame that cannot say (it is loading, busy, or gone) shows nothing, and so does
        // one its holder hides (a consent frame in a `display: none` container): read again
        // in a while, as it may be shown later with nothing in it changed.
        let (true, Ok(Ok(Ok(theirs)))) = (shown, read.map(|r| r.map(|r| parse(&r)))) else {
            seen.frames.insert(frame.id().clone(), Value::Null);
            continue;
        };
        for (held, there) in merged.results.iter_mut().zip(&theirs.results) {
            *held |= there;
        }
        seen.frames.insert(frame.id().clone(), json!(theirs.results));
    }
    seen.merged = Some(merged.clone());
    Ok((merged, seen))
}

fn parse(read: &Value) -> Result<Signals, CallError> {
    serde_json::from_value(read.clone()).map_err(|e| CallError::Browser(format!("bad signals from page: {e}")))
}
