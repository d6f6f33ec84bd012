//! Cross-origin frames: a consent manager's banner, a payment form, a sign-in widget. They
//! are out of reach of the page's script, so the in-page library is called in each on its
//! own, and what it finds there is acted on with the page's own input, at the frame's place
//! in the page. A frame from another site runs in a process of its own, reached through a
//! DevTools session of its own; one from another origin of the same site (accounts.example.com
//! in www.example.com) or a sandboxed one runs in the page's process, reached through the
//! page's session, in a world of its document.
//!
//! chromiumoxide gives no handle on a frame's target, so the sessions are the protocol's
//! plain kind, attached through the page's own session: commands go to the frame inside
//! `Target.sendMessageToTarget` ([`Raw`]) and their answers come back as the page's
//! `Target.receivedMessageFromTarget` events, which one task per page routes. A frame inside
//! such a frame (a bank's check inside a payment provider's card frame) is reached the same
//! way, placed by where its holder shows it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::page::{FrameTree, GetFrameTreeParams};
use chromiumoxide::cdp::browser_protocol::target::{
    AttachToTargetParams, EventReceivedMessageFromTarget, GetTargetsParams, SessionId, TargetId, TargetInfo,
};
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateReturns, ExecutionContextId};
use chromiumoxide::page::Page;
use futures::StreamExt;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::page::{CallError, LIBRARY, Raw, WORLD, call_expression, command, evaluated};

mod place;
pub(crate) use place::Shown;

/// A cross-origin frame of the run's page.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    /// Its frame's id (a frame of its own process is a target of that id).
    id: TargetId,
    /// The session of its own process; none when it runs in the page's.
    session: Option<SessionId>,
    url: String,
    /// Its number among the page's frames (`Numbers`).
    number: u64,
    /// The cross-origin frame whose document holds its element; none when the page's does.
    holder: Option<Box<Frame>>,
}

impl Frame {
    pub(crate) fn id(&self) -> &TargetId {
        &self.id
    }

    /// The session its events come through, when it has one of its own.
    pub(crate) fn session(&self) -> Option<&str> {
        self.session.as_ref().map(AsRef::as_ref)
    }

    /// An id its document gave an element (`e3`), as an id of the page's: numbered after
    /// the page's own, the same way for as long as the frame is there.
    pub(crate) fn page_id(&self, id: &str) -> String {
        match id.strip_prefix('e').and_then(|n| n.parse::<u64>().ok()) {
            Some(n) => format!("e{}", self.number * 1_000_000 + n % 1_000_000),
            None => id.to_owned(),
        }
    }

    /// The frames from the page's down to this one, each with its holder (`None`: the page).
    fn line(&self) -> Vec<(Option<&Frame>, &Frame)> {
        let mut inside_out = vec![self];
        while let Some(holder) = inside_out.last().and_then(|f| f.holder.as_deref()) {
            inside_out.push(holder);
        }
        inside_out.reverse();
        let holders = std::iter::once(None).chain(inside_out.iter().map(|f| Some(*f)));
        holders.zip(inside_out.iter().copied()).collect()
    }

    /// The node an action found in the frame (`e3@<time origin>`), as the page's.
    pub(crate) fn page_element(&self, element: &str) -> String {
        match element.split_once('@') {
            Some((id, origin)) => format!("{}@{origin}", self.page_id(id)),
            None => self.page_id(element),
        }
    }

    /// What an action found in the frame, saying which frame.
    pub(crate) fn describe(&self, found: Option<&str>) -> String {
        format!("{} in the frame from {}", found.unwrap_or("an element"), self.origin())
    }

    /// Its document's origin, which says whose frame it is: the rest of its address (a
    /// payment session's token, a user name) stays out of the run's record.
    pub(crate) fn origin(&self) -> String {
        let url = self.url.strip_prefix("blob:").unwrap_or(&self.url);
        let Some((scheme, rest)) = url.split_once("://") else {
            // `about:blank`, `data:…`: the scheme is all there is to say.
            return url.split(':').next().map(|scheme| format!("{scheme}:")).unwrap_or_default();
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
        format!("{scheme}://{host}")
    }
}

type Waiting = Arc<Mutex<HashMap<(String, u64), oneshot::Sender<Value>>>>;
/// Who hears the frames' events, each told with the session it came through.
type Listeners = Arc<Mutex<Vec<mpsc::UnboundedSender<(String, Value)>>>>;

/// Each frame's number among the page's, for its elements' ids: given in the order the
/// frames are first seen and never given twice, so two frames' elements never share an id.
#[derive(Default)]
struct Numbers {
    of: HashMap<TargetId, u64>,
    given: u64,
}

impl Numbers {
    fn of(&mut self, frame: &TargetId) -> u64 {
        *self.of.entry(frame.clone()).or_insert_with(|| {
            self.given += 1;
            self.given
        })
    }
}

/// A frame's session, and the frame whose document holds its element (`None`: the page's).
#[derive(Clone)]
struct Attached {
    session: SessionId,
    holder: Option<TargetId>,
}

/// The sessions to a page's cross-origin frames, and the answers they are waited for.
pub(crate) struct Frames {
    attached: Mutex<HashMap<TargetId, Attached>>,
    numbers: Mutex<Numbers>,
    /// The library's world in each frame's current document.
    worlds: Mutex<HashMap<TargetId, ExecutionContextId>>,
    /// Frames of other pages, known not to be this one's.
    foreign: Mutex<HashSet<TargetId>>,
    waiting: Waiting,
    listeners: Listeners,
    next: AtomicU64,
    router: JoinHandle<()>,
}

impl Frames {
    pub(crate) async fn start(page: &Page) -> Result<Frames, String> {
        let mut answers = page.event_listener::<EventReceivedMessageFromTarget>().await.map_err(|e| e.to_string())?;
        let waiting = Waiting::default();
        let listeners = Listeners::default();
        let router = {
            let (waiting, listeners) = (waiting.clone(), listeners.clone());
            tokio::spawn(async move {
                while let Some(message) = answers.next().await {
                    let Ok(answer) = serde_json::from_str::<Value>(&message.message) else { continue };
                    let session = message.session_id.as_ref().to_owned();
                    let Some(id) = answer.get("id").and_then(Value::as_u64) else {
                        // An event: for whoever listens (a recording).
                        if let Ok(mut listeners) = listeners.lock() {
                            listeners.retain(|l| l.send((session.clone(), answer.clone())).is_ok());
                        }
                        continue;
                    };
                    let key = (session, id);
                    let asker = waiting.lock().ok().and_then(|mut w| w.remove(&key));
                    if let Some(asker) = asker {
                        let _ = asker.send(answer);
                    }
                }
            })
        };
        Ok(Frames {
            attached: Mutex::default(),
            numbers: Mutex::default(),
            worlds: Mutex::default(),
            foreign: Mutex::default(),
            waiting,
            listeners,
            next: AtomicU64::new(1),
            router,
        })
    }

    /// The cross-origin frames of `page`: those of its process, then those of processes of
    /// their own whose element is in `page` (in its document, or in a frame of the same
    /// origin) or, up to `MAX_DEPTH` deep, in one of those frames; holders before the frames
    /// they hold.
    pub(crate) async fn of(&self, page: &Page) -> Vec<Frame> {
        let tree = tokio::time::timeout(ASK, page.execute(GetFrameTreeParams::default()));
        let targets = tokio::time::timeout(ASK, page.execute(GetTargetsParams::default()));
        let (tree, targets) = tokio::join!(tree, targets);
        let Ok(Ok(targets)) = targets else { return Vec::new() };
        let iframes: Vec<&TargetInfo> = targets.result.target_infos.iter().filter(|t| t.r#type == "iframe").collect();
        let inside = match &tree {
            Ok(Ok(tree)) => cross_origin_within(&tree.result.frame_tree),
            _ => Vec::new(),
        };
        // Frames that are gone are forgotten (an ad slot makes a new one every half minute).
        let listed: HashSet<&TargetId> =
            iframes.iter().map(|info| &info.target_id).chain(inside.iter().map(|(id, _)| id)).collect();
        if let (Ok(mut attached), Ok(mut foreign)) = (self.attached.lock(), self.foreign.lock()) {
            attached.retain(|id, _| listed.contains(id));
            foreign.retain(|id| listed.contains(id));
        }
        if let Ok(mut numbers) = self.numbers.lock() {
            numbers.of.retain(|id, _| listed.contains(id));
        }
        if let Ok(mut worlds) = self.worlds.lock() {
            worlds.retain(|id, _| listed.contains(id));
        }
        let mut found: Vec<Frame> = inside
            .iter()
            .filter_map(|(id, url)| {
                let number = self.numbers.lock().ok()?.of(id);
                Some(Frame { id: id.clone(), session: None, url: url.clone(), number, holder: None })
            })
            .collect();
        let mut holders = vec![None];
        let mut left = iframes;
        // Frames some document could not say it holds or not: asked again at the next listing.
        let mut unsure = HashSet::new();
        for _ in 0..MAX_DEPTH {
            if left.is_empty() || holders.is_empty() {
                break;
            }
            // Each asked at once: a page full of ad frames is listed in one round trip's time.
            let asked = left.iter().map(|info| self.frame(page, &holders, info));
            let answers = futures::future::join_all(asked).await;
            let (mut held, mut rest) = (Vec::new(), Vec::new());
            for (info, answer) in left.into_iter().zip(answers) {
                match answer {
                    Ok(Some(frame)) => held.push(frame),
                    Ok(None) => rest.push(info),
                    Err(()) => {
                        unsure.insert(&info.target_id);
                        rest.push(info);
                    }
                }
            }
            found.extend(held.iter().cloned());
            holders = held.into_iter().map(Some).collect();
            left = rest;
        }
        // Held by no document of the page's: another tab's, never this page's.
        if let (Ok(attached), Ok(mut foreign)) = (self.attached.lock(), self.foreign.lock()) {
            let theirs = left.iter().map(|info| &info.target_id);
            foreign.extend(theirs.filter(|id| !unsure.contains(id) && !attached.contains_key(*id)).cloned());
        }
        found
    }

    /// The frame `info` tells of, with its session, if its element is in one of `holders`
    /// (`None`: the page); `Err` when that could not be told in time.
    async fn frame(&self, page: &Page, holders: &[Option<Frame>], info: &TargetInfo) -> Result<Option<Frame>, ()> {
        let id = &info.target_id;
        let known = self.attached.lock().ok().and_then(|a| a.get(id).cloned());
        // A frame stays where it was made, as long as it is listed at all.
        let (session, holder) = match known {
            Some(known) => match holders.iter().find(|h| h.as_ref().map(Frame::id) == known.holder.as_ref()) {
                Some(holder) => (known.session, holder.clone()),
                None => return Ok(None),
            },
            None if self.foreign.lock().is_ok_and(|f| f.contains(id)) => return Ok(None),
            None => {
                let asked = holders.iter().map(|holder| self.owner(page, holder.as_ref(), id));
                let owners = futures::future::join_all(asked).await;
                let holder = match owners.iter().position(|owner| matches!(owner, Some(Some(_)))) {
                    Some(at) => holders[at].clone(),
                    None if owners.iter().any(Option::is_none) => return Err(()),
                    None => return Ok(None),
                };
                let attach =
                    AttachToTargetParams::builder().target_id(id.clone()).flatten(false).build().map_err(drop)?;
                let attached = tokio::time::timeout(ASK, page.execute(attach)).await.map_err(drop)?.map_err(drop)?;
                let session = attached.result.session_id.clone();
                let known = Attached { session: session.clone(), holder: holder.as_ref().map(|h| h.id.clone()) };
                self.attached.lock().map_err(drop)?.insert(id.clone(), known);
                (session, holder)
            }
        };
        let number = self.numbers.lock().map_err(drop)?.of(id);
        let (session, url) = (Some(session), info.url.clone());
        Ok(Some(Frame { id: id.clone(), session, url, number, holder: holder.map(Box::new) }))
    }

    /// Calls `window.__statewright[function](...args)` in `frame`, as [`PageHandle::call`]
    /// does in the page (installing the library first when the frame's document lacks it).
    ///
    /// [`PageHandle::call`]: crate::page::PageHandle::call
    pub(crate) async fn call(
        &self,
        page: &Page,
        frame: &Frame,
        function: &str,
        args: &[Value],
        budget: Duration,
    ) -> Result<Value, CallError> {
        let (expression, missing) = call_expression(function, args);
        let value = self.evaluate(page, frame, &expression, budget).await?;
        if value.as_str() == Some(missing) {
            self.evaluate(page, frame, LIBRARY, budget).await?;
            return self.evaluate(page, frame, &expression, budget).await;
        }
        Ok(value)
    }

    /// Evaluates an expression in `frame`'s document, in the library's world.
    pub(crate) async fn evaluate(
        &self,
        page: &Page,
        frame: &Frame,
        expression: &str,
        budget: Duration,
    ) -> Result<Value, CallError> {
        let known = self.worlds.lock().ok().and_then(|w| w.get(&frame.id).cloned());
        let world = self.known_world(page, frame).await?;
        match self.evaluate_in(page, frame, world, expression, budget).await {
            // The frame's document was replaced since: the world is the new document's.
            Err(CallError::Navigated) if known.is_some() => {
                let world = self.world(page, frame).await?;
                self.evaluate_in(page, frame, world, expression, budget).await
            }
            evaluated => evaluated,
        }
    }

    /// The library's world in the frame's document as last heard of, or made now.
    pub(crate) async fn known_world(&self, page: &Page, frame: &Frame) -> Result<ExecutionContextId, CallError> {
        match self.worlds.lock().ok().and_then(|w| w.get(&frame.id).cloned()) {
            Some(world) => Ok(world),
            None => self.world(page, frame).await,
        }
    }

    /// The library's world in the frame's current document ([`WORLD`]), made if need be.
    pub(crate) async fn world(&self, page: &Page, frame: &Frame) -> Result<ExecutionContextId, CallError> {
        let asked = json!({"frameId": frame.id, "worldName": WORLD, "grantUniveralAccess": true});
        let made = self.send(page, frame, "Page.createIsolatedWorld", asked, ASK).await?;
        let world: ExecutionContextId = serde_json::from_value(made["executionContextId"].clone())
            .map_err(|e| CallError::Browser(format!("a bad answer from the frame: {e}")))?;
        if let Ok(mut worlds) = self.worlds.lock() {
            worlds.insert(frame.id.clone(), world);
        }
        Ok(world)
    }

    async fn evaluate_in(
        &self,
        page: &Page,
        frame: &Frame,
        world: ExecutionContextId,
        expression: &str,
        budget: Duration,
    ) -> Result<Value, CallError> {
        let params = json!({"expression": expression, "contextId": world, "awaitPromise": true, "returnByValue": true});
        let result = self.send(page, frame, "Runtime.evaluate", params, budget).await?;
        let reply: EvaluateReturns = serde_json::from_value(result)
            .map_err(|e| CallError::Browser(format!("a bad answer from the frame: {e}")))?;
        Ok(evaluated(reply)?.value.unwrap_or(Value::Null))
    }

    /// Sends `method` to `frame`'s document; its answer's result.
    pub(crate) async fn send(
        &self,
        page: &Page,
        frame: &Frame,
        method: &str,
        params: Value,
        budget: Duration,
    ) -> Result<Value, CallError> {
        let Some(session) = &frame.session else {
            // A frame of the page's process: the page's session reaches it.
            return command(page, method, params, budget + Duration::from_secs(2)).await;
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        let (tell, answer) = oneshot::channel();
        let key = (session.as_ref().to_owned(), id);
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.insert(key.clone(), tell);
        }
        let asked = async {
            let params = json!({"message": message, "sessionId": session});
            let send = Raw { method: "Target.sendMessageToTarget".into(), params };
            if let Err(e) = page.execute(send).await {
                // The frame's session is gone: the frame is attached again at the next listing.
                if let Ok(mut attached) = self.attached.lock() {
                    attached.remove(&frame.id);
                }
                return Err(CallError::Browser(e.to_string()));
            }
            answer.await.map_err(|_| CallError::Browser("the frame's session closed".into()))
        };
        let answered = tokio::time::timeout(budget + Duration::from_secs(2), asked).await;
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.remove(&key);
        }
        let mut answer = answered.map_err(|_| CallError::Timeout)??;
        if let Some(error) = answer.get("error") {
            let message = error.get("message").and_then(Value::as_str).unwrap_or("the frame refused the call");
            return Err(crate::page::classify(message));
        }
        Ok(answer["result"].take())
    }

    /// The frames' events from now on (a binding called, a document loaded), each with the
    /// session of the frame it came from ([`Frame::session`]).
    pub(crate) fn events(&self) -> mpsc::UnboundedReceiver<(String, Value)> {
        let (tell, events) = mpsc::unbounded_channel();
        if let Ok(mut listeners) = self.listeners.lock() {
            listeners.push(tell);
        }
        events
    }
}

impl Drop for Frames {
    fn drop(&mut self) {
        self.router.abort();
    }
}

/// The frames of the page's process that its script cannot read (another origin than the
/// frame holding them: of the same site, or sandboxed), each with its address. A frame of
/// the same origin as its holder is read through it, by the library there.
fn cross_origin_within(tree: &FrameTree) -> Vec<(TargetId, String)> {
    let mut found = Vec::new();
    let mut visit = vec![tree];
    while let Some(holder) = visit.pop() {
        for child in holder.child_frames.iter().flatten() {
            if child.frame.security_origin != holder.frame.security_origin {
                found.push((TargetId::new(child.frame.id.as_ref()), child.frame.url.clone()));
            }
            visit.push(child);
        }
    }
    found
}

/// How long a frame's plain read (its signals, its snapshot) may take: a busy ad frame must
/// not hold up reading the page. One that does not answer in time shows nothing this time.
pub(crate) const FRAME_READ: Duration = Duration::from_secs(1);

/// How long one question to the browser about its frames may take.
const ASK: Duration = Duration::from_secs(2);

/// How deep a cross-origin frame is looked for: a frame in a frame in a frame of the page.
const MAX_DEPTH: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(url: &str) -> Frame {
        Frame { id: TargetId::new("F1"), session: Some(SessionId::new("S1")), url: url.into(), number: 1, holder: None }
    }

    #[test]
    fn a_frame_is_named_by_its_origin_alone() {
        let cases = [
            ("https://pay.example.com:8443/card?session=tok_123#x", "https://pay.example.com:8443"),
            ("https://ada:hunter2@login.example.com/widget", "https://login.example.com"),
            ("blob:https://cmp.example.net/6f1c", "https://cmp.example.net"),
            ("about:blank", "about:"),
            ("data:text/html,<p>secret</p>", "data:"),
        ];
        for (url, origin) in cases {
            assert_eq!(frame(url).origin(), origin, "{url}");
        }
    }

    #[test]
    fn a_frames_element_ids_follow_the_pages_and_stay_the_same() {
        let (a, b) = (frame("https://a.example"), frame("https://a.example/other"));
        let id = a.page_id("e3");
        assert_eq!(id, b.page_id("e3"), "by the frame, not by its address");
        let n: u64 = id.strip_prefix('e').and_then(|n| n.parse().ok()).expect("an id the model can name");
        assert!(n > 1_000_000 && n % 1_000_000 == 3, "{id}");
        assert_eq!(a.page_id("not-an-id"), "not-an-id");
    }

    #[test]
    fn no_two_frames_are_given_the_same_number() {
        let mut numbers = Numbers::default();
        let ids: Vec<TargetId> = (0..2000).map(|i| TargetId::new(format!("F{i}"))).collect();
        let given: HashSet<u64> = ids.iter().map(|id| numbers.of(id)).collect();
        assert_eq!(given.len(), ids.len());
        assert_eq!(numbers.of(&ids[7]), 8, "a frame keeps its number");
        // One gone and another come: the newcomer does not take the number left.
        numbers.of.remove(&ids[7]);
        assert_eq!(numbers.of(&TargetId::new("new")), 2001);
    }
}
