//! Calling the in-page library (`assets/js/statewright/`) over CDP.
//!
//! Arguments cross as a JSON literal, which is data in JavaScript as in Rust: page content,
//! selectors and typed text are never spliced into code.

use std::time::Duration;

use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, RemoteObject, RemoteObjectId};
use chromiumoxide::page::Page;
use serde_json::Value;

use crate::driver::CALL_BUDGET;

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
}

/// Returned by the expression when the library is missing from the current document.
const MISSING: &str = "__statewright_missing__";

impl PageHandle {
    pub fn new(page: Page) -> Self {
        Self { page }
    }

    pub fn raw(&self) -> &Page {
        &self.page
    }

    /// Calls `window.__statewright[function](...args)` and awaits its promise. `budget` is
    /// how long the call may take on top of any wait the function does itself.
    pub async fn call(&self, function: &str, args: &[Value], budget: Duration) -> Result<Value, CallError> {
        let args = Value::Array(args.to_vec()).to_string();
        let expression =
            format!("(globalThis.__statewright ? globalThis.__statewright.{function}(...{args}) : '{MISSING}')");
        let value = self.evaluate(&expression, budget).await?;
        if value.as_str() == Some(MISSING) {
            // A document created before the init script was registered, or one that
            // replaced itself (document.open): install and try once more.
            self.evaluate(LIBRARY, budget).await?;
            return self.evaluate(&expression, budget).await;
        }
        Ok(value)
    }

    /// Evaluates an expression, awaiting promises, and returns its JSON value.
    pub async fn evaluate(&self, expression: &str, budget: Duration) -> Result<Value, CallError> {
        let result = self.run(expression, budget, true).await?;
        Ok(result.value.unwrap_or(Value::Null))
    }

    /// Calls `window.__statewright[function](...args)` for a node of the page, answered as a
    /// handle the browser's own commands take (`DOM.setFileInputFiles`); `None` when the
    /// function found none.
    pub async fn node(&self, function: &str, args: &[Value]) -> Result<Option<RemoteObjectId>, CallError> {
        let args = Value::Array(args.to_vec()).to_string();
        let expression = format!("(globalThis.__statewright ? globalThis.__statewright.{function}(...{args}) : null)");
        Ok(self.run(&expression, CALL_BUDGET, false).await?.object_id)
    }

    async fn run(&self, expression: &str, budget: Duration, by_value: bool) -> Result<RemoteObject, CallError> {
        let params = EvaluateParams::builder()
            .expression(expression)
            .await_promise(true)
            .return_by_value(by_value)
            .build()
            .map_err(CallError::Browser)?;
        let reply = tokio::time::timeout(budget + Duration::from_secs(2), self.page.execute(params))
            .await
            .map_err(|_| CallError::Timeout)?
            .map_err(|e| classify(&e.to_string()))?;
        if let Some(exception) = &reply.result.exception_details {
            let text = exception
                .exception
                .as_ref()
                .and_then(|e| e.description.clone())
                .unwrap_or_else(|| exception.text.clone());
            return Err(classify_exception(&text));
        }
        Ok(reply.result.result.clone())
    }
}

fn classify(message: &str) -> CallError {
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
