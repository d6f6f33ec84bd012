//! Errors as the window receives them: `{code, message}`. The UI branches on `code`.

use serde::Serialize;
use statewright_workbench::ErrorPayload;

#[derive(Debug)]
pub struct CommandError(pub ErrorPayload);

impl CommandError {
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Self(ErrorPayload { code: code.to_owned(), message: message.into() })
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

impl From<statewright_store::Error> for CommandError {
    fn from(e: statewright_store::Error) -> Self {
        Self::new("store", e.to_string())
    }
}

impl From<tauri::Error> for CommandError {
    fn from(e: tauri::Error) -> Self {
        Self::new("shell", e.to_string())
    }
}

pub type CommandResult<T> = Result<T, CommandError>;
