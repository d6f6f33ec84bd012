//! Listening to a tab for a recording: the acts its documents report through a DevTools
//! binding, and where its main frame goes (another document, a route of the same one, back).

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, EventFrameNavigated, EventFrameStartedNavigating,
    EventNavigatedWithinDocument, FrameStartedNavigatingNavigationType,
};
use chromiumoxide::cdp::js_protocol::runtime::{AddBindingParams, EventBindingCalled, ExecutionContextId};
use chromiumoxide::error::CdpError;
use chromiumoxide::page::Page;
use futures::StreamExt;
use serde_json::Value;
use tokio::sync::mpsc;

use super::frames::{as_the_tabs, hear_frames};
use super::{Heard, News};
use crate::driver::CALL_BUDGET;
use crate::frames::Frame;
use crate::page::{PageHandle, WORLD};

pub(super) const BINDING: &str = "__statewrightRecord";

/// Starts the in-page recorder of a document, reporting through the binding (evaluated in
/// the library's world).
pub(super) fn install() -> String {
    format!("window.__statewright && window.__statewright.record('{BINDING}')")
}

/// Listens to `tab`: the acts its documents report (its cross-origin frames' too) and its
/// main frame's navigations, each told with the page it came from.
pub(super) async fn hear(
    tab: &PageHandle,
    tell: mpsc::UnboundedSender<News>,
) -> Result<Vec<tokio::task::JoinHandle<()>>, chromiumoxide::error::CdpError> {
    let page = tab.raw();
    // Only the library's world has the binding: the page's own scripts cannot report acts.
    let binding = AddBindingParams::builder().name(BINDING).execution_context_name(WORLD).build();
    page.execute(binding.map_err(CdpError::msg)?).await?;
    let script = AddScriptToEvaluateOnNewDocumentParams::builder().source(install()).world_name(WORLD).build();
    page.execute(script.map_err(CdpError::msg)?).await?;
    // The document already there (a tab followed after it loaded) is told now.
    let _ = tab.evaluate(&install(), CALL_BUDGET).await;
    let mut calls = page.event_listener::<EventBindingCalled>().await?;
    let mut frames = page.event_listener::<EventFrameNavigated>().await?;
    let starts = page.event_listener::<EventFrameStartedNavigating>().await?;
    let within = page.event_listener::<EventNavigatedWithinDocument>().await?;
    let id = page.target_id().clone();
    let acts = {
        let (tell, id, tab) = (tell.clone(), id.clone(), tab.clone());
        tokio::spawn(async move {
            while let Some(call) = calls.next().await {
                // Only a JSON object is an act; anything else the page sends is ignored.
                let Ok(act @ Value::Object(_)) = serde_json::from_str::<Value>(&call.payload) else { continue };
                if call.name != BINDING {
                    continue;
                }
                let at = Instant::now();
                // A frame of the tab's process that the page cannot read reports its own acts
                // (95-record.js): each is the tab's, as a cross-origin frame's is.
                let act = match framed_in(&tab, call.execution_context_id).await {
                    Some(frame) => as_the_tabs(&tab, &frame, act).await,
                    None => act,
                };
                let _ = tell.send((Some(id.clone()), Heard::Act(act), at));
            }
        })
    };
    let in_frames = hear_frames(tab.clone(), tell.clone());
    let page = page.clone();
    let navigations = tokio::spawn(async move {
        // One task for all, in order: whether a navigation goes back is known when it starts
        // (the page left is still there to say its title) and told when it is done.
        let mut history = History::default();
        let mut back = None;
        // A navigation's start is sent before its end, and a document before the routes its
        // script takes: asking in that order keeps them in order when several are waiting (a
        // page restored from the cache is back at once; a router sets its address on load).
        let first = |_: &mut ()| futures::stream::PollNext::Left;
        let documents =
            frames.by_ref().map(|done| Navigation::Document(done.frame.parent_id.is_none(), done.frame.url.clone()));
        let routes = within.map(|done| Navigation::Within(done.frame_id.as_ref() == id.as_ref(), done.url.clone()));
        let ends = futures::stream::select_with_strategy(documents, routes, first);
        let mut events = futures::stream::select_with_strategy(starts.map(Navigation::Started), ends, first);
        while let Some(event) = events.next().await {
            let at = Instant::now();
            let heard = match event {
                // The main frame's id is its tab's.
                Navigation::Started(start) if start.frame_id.as_ref() == id.as_ref() => {
                    let traversal = matches!(
                        start.navigation_type,
                        FrameStartedNavigatingNavigationType::HistoryDifferentDocument
                            | FrameStartedNavigatingNavigationType::HistorySameDocument
                    );
                    back = match history.back_to(&start.url) {
                        Some(left) if traversal => {
                            // A route is gone at once: its title was kept when it came.
                            let said = title(&page, &left.url).await;
                            Some((left.url.clone(), if said.is_empty() { left.title.clone() } else { said }))
                        }
                        _ => None,
                    };
                    continue;
                }
                Navigation::Document(true, url) | Navigation::Within(true, url) if back.is_some() => {
                    history.went_back();
                    Heard::WentBack { url, from: back.take().unwrap_or_default() }
                }
                Navigation::Document(true, url) => {
                    // Too early for its title: the document is only beginning to load.
                    history.went_to(&url, String::new());
                    Heard::Navigated(url)
                }
                // A script's `replaceState` of the address shown is no step anywhere.
                Navigation::Within(true, url) if history.shown() != Some(url.as_str()) => {
                    history.went_to(&url, title(&page, &url).await);
                    Heard::Routed(url)
                }
                _ => continue,
            };
            let _ = tell.send((Some(id.clone()), heard, at));
        }
    });
    Ok(vec![acts, navigations, in_frames])
}

/// The frame of the tab's own process whose library world is `context`, if it is not the
/// page's own document.
async fn framed_in(tab: &PageHandle, context: ExecutionContextId) -> Option<Frame> {
    if tab.is_own_world(context) {
        return None;
    }
    for frame in tab.frames().await.into_iter().filter(|f| f.session().is_none()) {
        if tab.frame_world(&frame).await.ok() == Some(context) {
            return Some(frame);
        }
    }
    None
}

/// A navigation of a tab, as its events tell it: where the main frame went (`true`) or
/// another frame did.
enum Navigation {
    Started(std::sync::Arc<EventFrameStartedNavigating>),
    Document(bool, String),
    Within(bool, String),
}

/// A tab's history as the recording saw it come, kept as the browser keeps it (asking the
/// browser instead races the navigation: its answer may already count it). A script's
/// `replaceState` to another address is taken as a new entry: going back past it is then
/// told as going to an address, which replays as well.
#[derive(Default)]
struct History {
    entries: Vec<Entry>,
    /// The one shown: the last, unless the person went back.
    at: usize,
}

/// An address in a tab's history, with its title when it was known.
struct Entry {
    url: String,
    title: String,
}

impl History {
    fn shown(&self) -> Option<&str> {
        self.entries.get(self.at).map(|e| e.url.as_str())
    }

    /// The entry shown, when going to `url` is going back one.
    fn back_to(&self, url: &str) -> Option<&Entry> {
        let before = self.entries.get(self.at.checked_sub(1)?)?;
        (before.url == url).then(|| &self.entries[self.at])
    }

    fn went_back(&mut self) {
        self.at = self.at.saturating_sub(1);
    }

    /// A new entry: what was ahead of the one shown is gone, as in the browser.
    fn went_to(&mut self, url: &str, title: String) {
        self.entries.truncate(self.at + 1);
        self.entries.push(Entry { url: url.to_owned(), title });
        self.at = self.entries.len() - 1;
    }
}

/// The title of the document at `url` that `page` shows, if it still does and answers at
/// once (a page restored from the cache replaces it in no time).
async fn title(page: &Page, url: &str) -> String {
    let asked = page.evaluate_expression("[location.href, document.title]");
    let shown = match tokio::time::timeout(Duration::from_millis(300), asked).await {
        Ok(Ok(reply)) => reply.into_value::<(String, String)>().ok(),
        _ => None,
    };
    shown.filter(|(href, _)| href == url).map(|(_, title)| title).unwrap_or_default()
}
