//! Calling the in-page library (`assets/js/statewright/`) over CDP.
//!
//! Arguments cross as a JSON literal, which is data in JavaScript as in Rust: page content,
//! selectors and typed text are never spliced into code.

use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, EvaluateReturns, RemoteObject};
use chromiumoxide::page::Page;
use serde_json::Value;
use tokio::sync::OnceCell;

use crate::driver::CALL_BUDGET;
use crate::frames::{Frame, Frames};

include!(concat!(env!("OUT_DIR"), "/library.rs"));

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
    /// Its cross-origin frames' sessions, made when first asked for; `None` when the page
    /// would not tell their answers.
    frames: Arc<OnceCell<Option<Frames>>>,
}

/// Returned by the expression when the library is missing from the current document.
const MISSING: &str = "__statewright_missing__";

impl PageHandle {
    pub fn new(page: Page) -> Self {
        Self { page, frames: Arc::default() }
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
        match self.sessions().await {
            Some(frames) => frames.send(&self.page, frame, method, params, CALL_BUDGET).await,
            None => Err(CallError::Browser("the page's frames cannot be reached".into())),
        }
    }

    /// [`PageHandle::call`] in one of the page's cross-origin frames.
    pub(crate) async fn call_in(
        &self,
        frame: &Frame,
        function: &str,
        args: &[Value],
        budget: Duration,
    ) -> Result<Value, CallError> {
        match self.sessions().await {
            Some(frames) => frames.call(&self.page, frame, function, args, budget).await,
            None => Err(CallError::Browser("the page's frames cannot be reached".into())),
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

    /// Evaluates an expression, awaiting promises, and returns its JSON value.
    pub async fn evaluate(&self, expression: &str, budget: Duration) -> Result<Value, CallError> {
        let result = self.run(expression, budget).await?;
        Ok(result.value.unwrap_or(Value::Null))
    }

    /// Sends a DevTools command to the page's document; its result.
    pub(crate) async fn send(&self, method: &str, params: Value) -> Result<Value, CallError> {
        let command = Raw { method: method.to_owned(), params };
        let reply =
            tokio::time::timeout(CALL_BUDGET, self.page.execute(command)).await.map_err(|_| CallError::Timeout)?;
        Ok(reply.map_err(|e| classify(&e.to_string()))?.result)
    }

    async fn run(&self, expression: &str, budget: Duration) -> Result<RemoteObject, CallError> {
        let params = EvaluateParams::builder()
            .expression(expression)
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

pub(crate) fn classify(message: &str) -> CallError {
    const GONE: &[&str] = &[
        "Execution context was destroyed",
        "Cannot find context with specified id",
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
