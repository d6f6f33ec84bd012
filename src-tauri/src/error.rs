//! Errors as the window receives them: `{code, message}`. The UI branches on `code`.

use serde::Serialize;
use statewright_workbench::ErrorPayload;

/// The shell's own error codes (the workbench crate's errors bring theirs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// No such live run, stored run or review.
    NotFound,
    /// A review that is resolved or cancelled already.
    NotOpen,
    /// A review whose run no longer waits for it.
    NotWaiting,
    /// The run store failed.
    Store,
    /// A run asked for something invalid: its workflow, parameters, drift file.
    InvalidRun,
    /// A run could not start on this machine: the store, the demo server.
    RunEnvironment,
    /// Tauri itself, or a background task, failed.
    Shell,
    /// A workflow that cannot be analysed as it stands (it does not parse).
    InvalidWorkflow,
    /// *Go here* to a state no known transition leads to.
    NoRoute,
    /// Model settings that a run would refuse (a bad URL, a URL without a model).
    InvalidSettings,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotFound => "not_found",
            Self::NotOpen => "not_open",
            Self::NotWaiting => "not_waiting",
            Self::Store => "store",
            Self::InvalidRun => "invalid_run",
            Self::RunEnvironment => "run_environment",
            Self::Shell => "shell",
            Self::InvalidWorkflow => "invalid_workflow",
            Self::NoRoute => "no_route",
            Self::InvalidSettings => "invalid_settings",
        }
    }
}

#[derive(Debug)]
pub struct CommandError(pub ErrorPayload);

impl CommandError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self(ErrorPayload { code: code.as_str().to_owned(), message: message.into() })
    }
}

impl Serialize for CommandError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl From<statewright_workbench::Error> for CommandError {
    fn from(e: statewright_workbench::Error) -> Self {
        Self(e.payload())
    }
}

/// A run or review that is not there is `not_found`, as the workbench's errors say it; a
/// review that is closed or whose run is gone says so; the rest is the store's failure.
impl From<statewright_store::Error> for CommandError {
    fn from(e: statewright_store::Error) -> Self {
        use statewright_store::Error as E;
        let code = match &e {
            E::UnknownRun(_) | E::UnknownReview(_) => ErrorCode::NotFound,
            E::ReviewClosed { .. } => ErrorCode::NotOpen,
            E::RunNotWaiting { .. } => ErrorCode::NotWaiting,
            _ => ErrorCode::Store,
        };
        Self::new(code, e.to_string())
    }
}

impl From<statewright_runner::RunError> for CommandError {
    fn from(e: statewright_runner::RunError) -> Self {
        let code = match e.kind {
            statewright_runner::RunErrorKind::Invalid => ErrorCode::InvalidRun,
            statewright_runner::RunErrorKind::Environment => ErrorCode::RunEnvironment,
        };
        Self::new(code, e.message)
    }
}

impl From<tauri::Error> for CommandError {
    fn from(e: tauri::Error) -> Self {
        Self::new(ErrorCode::Shell, e.to_string())
    }
}

pub type CommandResult<T> = Result<T, CommandError>;
