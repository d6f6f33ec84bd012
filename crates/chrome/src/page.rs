//! Calling the in-page library (`assets/js/statewright/`) over CDP.
//!
//! Arguments cross as a JSON literal, which is data in JavaScript as in Rust: page content,
//! selectors and typed text are never spliced into code.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::page::{CreateIsolatedWorldParams, FrameId};
use chromiumoxide::cdp::js_protocol::runtime::{
    EvaluateParams, EvaluateReturns, EventExecutionContextCreated, ExecutionContextId, RemoteObject,
};
use chromiumoxide::page::Page;
use futures::StreamExt;
use serde_json::Value;
use tokio::sync::OnceCell;

use crate::driver::CALL_BUDGET;
use crate::frames::{Frame, Frames, Shown};
use crate::tabs::Openings;

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The isolated world the library lives in, in every document: the page's scripts share
/// its document but not its globals, so they can neither see Statewright (a bot check
/// looks for globals like `window.__statewright`) nor change what it reads, nor call the
/// recorder's binding to report acts the person never did. It is chromiumoxide's utility
/// world, which chromiumoxide makes in every document anyway.
pub(crate) const WORLD: &str = chromiumoxide::handler::frame::UTILITY_WORLD_NAME;

/// Why a call into the page failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The document went away mid-call (a navigation): try again on the new one.
    Navigated,
    /// The call did not answer within its budget.
    Timeout,
    /// The library threw: a bug, or a page that broke the environment.
    Script(String),
    /// The connection to the browser failed.
    Browser(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Navigated => f.write_str("the page navigated"),
            CallError::Timeout => f.write_str("the page did not answer in time"),
            CallError::Script(e) => write!(f, "page script error: {e}"),
            CallError::Browser(e) => write!(f, "{e}"),
        }
    }
}

#[derive(Clone)]
pub struct PageHandle {
    page: Page,
    /// The library's world in the page's current document, as last heard of.
    world: Arc<Mutex<Option<ExecutionContextId>>>,
    /// Its cross-origin frames' sessions, made when first asked for; `None` when the page
    /// would not tell their answers.
    frames: Arc<OnceCell<Option<Frames>>>,
    /// The windows it opened, as it told of them (tabs.rs).
    openings: Openings,
}

/// Returned by the expression when the library is missing from the current document.
const MISSING: &str = "__statewright_missing__";

impl PageHandle {
    pub fn new(page: Page) -> Self {
        let world = Arc::default();
        tokio::spawn(follow_world(page.clone(), Arc::clone(&world)));
        let openings = Openings::default();
        tokio::spawn(openings.clone().hear(page.clone()));
        Self { page, world, frames: Arc::default(), openings }
    }

    pub(crate) fn openings(&self) -> &Openings {
        &self.openings
    }

    async fn sessions(&self) -> Option<&Frames> {
        let start = || async {
            Frames::start(&self.page)
                .await
                .inspect_err(|e| tracing::warn!("cannot reach the page's cross-origin frames: {e}"))
                .ok()
        };
        self.frames.get_or_init(start).await.as_ref()
    }

    /// The sessions to the page's cross-origin frames, to send a frame something.
    async fn reach(&self) -> Result<&Frames, CallError> {
        self.sessions().await.ok_or_else(|| CallError::Browser("the page's frames cannot be reached".into()))
    }

    /// The page's cross-origin frames (frames.rs), out of reach of [`PageHandle::call`].
    pub(crate) async fn frames(&self) -> Vec<Frame> {
        match self.sessions().await {
            Some(frames) => frames.of(&self.page).await,
            None => Vec::new(),
        }
    }

    /// The events of the page's cross-origin frames from now on, with the session of each.
    pub(crate) async fn frame_events(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<(String, Value)>> {
        Some(self.sessions().await?.events())
    }

    /// Sends a DevTools command to the document of one of the page's cross-origin frames.
    pub(crate) async fn send_to_frame(&self, frame: &Frame, method: &str, params: Value) -> Result<Value, CallError> {
        self.reach().await?.send(&self.page, frame, method, params, CALL_BUDGET).await
    }

    /// [`PageHandle::call`] in one of the page's cross-origin frames.
    pub(crate) async fn call_in(
        &self,
        frame: &Frame,
        function: &str,
        args: &[Value],
        budget: Duration,
    ) -> Result<Value, CallError> {
        self.reach().await?.call(&self.page, frame, function, args, budget).await
    }

    /// [`PageHandle::evaluate`] in one of the page's cross-origin frames.
    pub(crate) async fn evaluate_in(
        &self,
        frame: &Frame,
        expression: &str,
        budget: Duration,
    ) -> Result<Value, CallError> {
        self.reach().await?.evaluate(&self.page, frame, expression, budget).await
    }

    /// The library's world in the current document of one of the page's cross-origin frames.
    pub(crate) async fn frame_world(&self, frame: &Frame) -> Result<ExecutionContextId, CallError> {
        self.reach().await?.world(&self.page, frame).await
    }

    /// Where one of the page's cross-origin frames begins in the page's viewport.
    pub(crate) async fn frame_corner(&self, frame: &Frame) -> Option<(f64, f64)> {
        self.reach().await.ok()?.corner(&self.page, frame).await
    }

    /// Whether one of the page's cross-origin frames shows in it (frames/place.rs, `shows`).
    pub(crate) async fn frame_shown(&self, frame: &Frame) -> bool {
        let world = *self.world.lock().unwrap_or_else(PoisonError::into_inner);
        match self.reach().await {
            Ok(frames) => frames.shows(&self.page, frame, world).await,
            Err(_) => true,
        }
    }

    /// Scrolls one of the page's cross-origin frames into view (frames.rs, `scroll_to`).
    pub(crate) async fn frame_into_view(&self, frame: &Frame) -> Option<((f64, f64), Vec<Shown>)> {
        self.reach().await.ok()?.scroll_to(&self.page, frame).await
    }

    /// What covers the frame placed by [`PageHandle::frame_into_view`] at `at`, if anything.
    pub(crate) async fn frame_covering(&self, shown: &[Shown], at: (f64, f64)) -> Option<String> {
        match self.reach().await {
            Ok(frames) => frames.covering(&self.page, shown, at).await,
            Err(e) => Some(e.to_string()),
        }
    }

    pub fn raw(&self) -> &Page {
        &self.page
    }

    /// Calls `window.__statewright[function](...args)` and awaits its promise. `budget` is
    /// how long the call may take on top of any wait the function does itself.
    pub async fn call(&self, function: &str, args: &[Value], budget: Duration) -> Result<Value, CallError> {
        let (expression, missing) = call_expression(function, args);
        let value = self.evaluate(&expression, budget).await?;
        if value.as_str() == Some(missing) {
            // A document created before the init script was registered, or one that
            // replaced itself (document.open): install and try once more.
            self.evaluate(LIBRARY, budget).await?;
            return self.evaluate(&expression, budget).await;
        }
        Ok(value)
    }

    /// Evaluates an expression in the library's world, awaiting promises, and returns its
    /// JSON value.
    pub async fn evaluate(&self, expression: &str, budget: Duration) -> Result<Value, CallError> {
        let result = self.run(expression, budget).await?;
        Ok(result.value.unwrap_or(Value::Null))
    }

    /// Sends a DevTools command to the page's document; its result.
    pub(crate) async fn send(&self, method: &str, params: Value) -> Result<Value, CallError> {
        command(&self.page, method, params, CALL_BUDGET).await
    }

    async fn run(&self, expression: &str, budget: Duration) -> Result<RemoteObject, CallError> {
        // Known, the call is sent at once, on the first poll (observe.rs counts on it).
        let known = *self.world.lock().unwrap_or_else(PoisonError::into_inner);
        let world = match known {
            Some(world) => world,
            None => self.world().await?,
        };
        match self.run_in(world, expression, budget).await {
            // The document was replaced before its new world was heard of: ask for it.
            Err(CallError::Navigated) if known.is_some() => self.run_in(self.world().await?, expression, budget).await,
            ran => ran,
        }
    }

    /// Whether `context` is the library's world in the page's own document, as last heard.
    pub(crate) fn is_own_world(&self, context: ExecutionContextId) -> bool {
        *self.world.lock().unwrap_or_else(PoisonError::into_inner) == Some(context)
    }

    /// The library's world in the page's current document ([`WORLD`]), made if need be.
    pub(crate) async fn world(&self) -> Result<ExecutionContextId, CallError> {
        let made = CreateIsolatedWorldParams::builder()
            .frame_id(FrameId::new(self.page.target_id().as_ref()))
            .world_name(WORLD)
            // As chromiumoxide makes it: whichever asks first makes it for both.
            .grant_univeral_access(true)
            .build()
            .map_err(CallError::Browser)?;
        let reply = tokio::time::timeout(CALL_BUDGET, self.page.execute(made)).await.map_err(|_| CallError::Timeout)?;
        let world = reply.map_err(|e| classify(&e.to_string()))?.result.execution_context_id;
        // Kept for the next calls: a document made before `follow_world` listened (a tab
        // adopted over `--cdp-url`) is told of by no event.
        *self.world.lock().unwrap_or_else(PoisonError::into_inner) = Some(world);
        Ok(world)
    }

    async fn run_in(
        &self,
        world: ExecutionContextId,
        expression: &str,
        budget: Duration,
    ) -> Result<RemoteObject, CallError> {
        let params = EvaluateParams::builder()
            .expression(expression)
            .context_id(world)
            .await_promise(true)
            .return_by_value(true)
            .build()
            .map_err(CallError::Browser)?;
        let reply = tokio::time::timeout(budget + Duration::from_secs(2), self.page.execute(params))
            .await
            .map_err(|_| CallError::Timeout)?
            .map_err(|e| classify(&e.to_string()))?;
        evaluated(reply.result)
    }
}

/// Keeps `world` the library's world in the page's current document: each new document
/// makes one (its script is added for every document, session.rs) and the browser tells.
async fn follow_world(page: Page, world: Arc<Mutex<Option<ExecutionContextId>>>) {
    let Ok(mut made) = page.event_listener::<EventExecutionContextCreated>().await else { return };
    // The main frame's id is its tab's.
    let main = page.target_id().as_ref().to_owned();
    while let Some(event) = made.next().await {
        let context = &event.context;
        let frame = context.aux_data.as_ref().and_then(|data| data["frameId"].as_str());
        if context.name == WORLD && frame == Some(main.as_str()) {
            *world.lock().unwrap_or_else(PoisonError::into_inner) = Some(context.id);
        }
    }
}

/// Sends a DevTools command to `page`'s session, answered within `budget`; its result.
pub(crate) async fn command(page: &Page, method: &str, params: Value, budget: Duration) -> Result<Value, CallError> {
    let command = Raw { method: method.to_owned(), params };
    let reply = tokio::time::timeout(budget, page.execute(command)).await.map_err(|_| CallError::Timeout)?;
    Ok(reply.map_err(|e| classify(&e.to_string()))?.result)
}

/// A DevTools command by name, answered as JSON: for the one chromiumoxide's protocol types
/// leave out (`Target.sendMessageToTarget`, which the protocol marks deprecated in favour of
/// sessions chromiumoxide keeps to itself), and for those sent alike to the page's document
/// and to a frame's (driver/upload.rs).
#[derive(Debug)]
pub(crate) struct Raw {
    pub(crate) method: String,
    pub(crate) params: Value,
}

impl serde::Serialize for Raw {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.params.serialize(serializer)
    }
}

impl chromiumoxide::types::Method for Raw {
    fn identifier(&self) -> chromiumoxide::types::MethodId {
        self.method.clone().into()
    }
}

impl chromiumoxide::types::Command for Raw {
    type Response = Value;
}

/// The expression calling `window.__statewright[function](...args)`, and what it answers
/// when the document has no library.
pub(crate) fn call_expression(function: &str, args: &[Value]) -> (String, &'static str) {
    let args = Value::Array(args.to_vec()).to_string();
    let expression =
        format!("(globalThis.__statewright ? globalThis.__statewright.{function}(...{args}) : '{MISSING}')");
    (expression, MISSING)
}

/// What an evaluation answered, or the exception it threw.
pub(crate) fn evaluated(reply: EvaluateReturns) -> Result<RemoteObject, CallError> {
    if let Some(exception) = &reply.exception_details {
        let text =
            exception.exception.as_ref().and_then(|e| e.description.clone()).unwrap_or_else(|| exception.text.clone());
        return Err(classify_exception(&text));
    }
    Ok(reply.result)
}

/// What the browser answers a call into a world of a document that is gone.
const STALE_WORLD: &str = "Cannot find context with specified id";

pub(crate) fn classify(message: &str) -> CallError {
    const GONE: &[&str] = &[
        "Execution context was destroyed",
        STALE_WORLD,
        "Inspected target navigated or closed",
        "Cannot find default execution context",
        "Promise was collected",
    ];
    if GONE.iter().any(|g| message.contains(g)) { CallError::Navigated } else { CallError::Browser(message.to_owned()) }
}

fn classify_exception(text: &str) -> CallError {
    match classify(text) {
        CallError::Navigated => CallError::Navigated,
        _ => CallError::Script(text.lines().next().unwrap_or(text).to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{LaunchOptions, Session};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_document_no_event_told_of_is_asked_for_its_world_once() {
        let session = Session::start(&LaunchOptions::default()).await.expect("Chromium launches");
        // A handle made after its document was (a tab adopted over `--cdp-url`).
        let late = PageHandle::new(session.page.raw().clone());
        assert_eq!(late.evaluate("6 * 7", CALL_BUDGET).await, Ok(serde_json::json!(42)));
        let world = late.world.lock().ok().and_then(|w| *w);
        assert!(world.is_some_and(|w| late.is_own_world(w)), "the world asked for is kept: {world:?}");
        session.close().await;
    }
}
