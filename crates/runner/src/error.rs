//! Why a run could not be prepared or finished, classed the way callers report it.

/// What kind of problem stopped a run before (or while) it started: the caller's input, or
/// the machine. The CLI maps `Invalid` to exit 2 and the rest to exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunErrorKind {
    /// The workflow, a parameter, a drift file, a CDP URL: something the caller gave.
    Invalid,
    /// The browser, the display, the demo server, the store: something on the machine.
    Environment,
}

#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct RunError {
    pub kind: RunErrorKind,
    /// A stable code for front ends that branch on it (`invalid_workflow`, `store`, …).
    pub code: &'static str,
    pub message: String,
}

impl RunError {
    pub(crate) fn invalid(code: &'static str, message: impl Into<String>) -> Self {
        Self { kind: RunErrorKind::Invalid, code, message: message.into() }
    }

    pub(crate) fn environment(code: &'static str, message: impl Into<String>) -> Self {
        Self { kind: RunErrorKind::Environment, code, message: message.into() }
    }

    /// The store could not be opened or used: the caller's (a folder given as the database)
    /// or the machine's (a full disk).
    pub(crate) fn store(e: &statewright_store::Error) -> Self {
        if e.is_callers() { Self::invalid("store", e.to_string()) } else { Self::environment("store", e.to_string()) }
    }
}
