//! One error type for the workbench; the shell sends it to the UI as `{code, message}`, and
//! the UI branches on `code`, never on the message.

use schemars::JsonSchema;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no workflow named `{0}` in the workflows folder")]
    NotFound(String),
    #[error("nothing named `{0}` in the trash")]
    NotInTrash(String),
    #[error("a workflow file `{0}` already exists")]
    Exists(String),
    #[error("`{0}` is not a usable workflow name: use letters, digits, spaces, `-` and `_`")]
    BadName(String),
    #[error("the workflow name is too long: its file name would be {0} bytes, at most {max}", max = crate::library::MAX_FILE_NAME_BYTES)]
    LongName(usize),
    #[error("the workflow cannot be written: {0}")]
    Invalid(String),
    #[error("`{0}` changed on disk since it was opened; reload it or save again to overwrite")]
    Conflict(String),
    /// A workflow file that could not be written (a symbolic link to nothing, a folder…).
    #[error("{0}")]
    Unwritable(#[from] statewright_workflow::Unwritable),
    /// `.trash` in the workflows or skills folder is not a folder of its own: nothing is
    /// moved into or out of it.
    #[error(
        "cannot use the trash {}: it is {what}. The trash needs a folder of its own there (a link is not followed: it could lead out of the folder); move or rename it, and the next delete makes one. Nothing was moved.",
        path.display()
    )]
    TrashNotAFolder { path: std::path::PathBuf, what: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("run store: {0}")]
    Store(#[from] statewright_store::Error),
    #[error("file watcher: {0}")]
    Watch(#[from] notify::Error),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The stable code the UI branches on.
    pub fn code(&self) -> &'static str {
        match self {
            Error::NotFound(_) | Error::NotInTrash(_) | Error::Store(statewright_store::Error::UnknownRun(_)) => {
                "not_found"
            }
            Error::Exists(_) => "exists",
            Error::BadName(_) | Error::LongName(_) => "bad_name",
            Error::Invalid(_) => "invalid_workflow",
            Error::Conflict(_) => "conflict",
            Error::Unwritable(statewright_workflow::Unwritable::DanglingLink { .. }) => "dangling_link",
            Error::Unwritable(statewright_workflow::Unwritable::NotAFile { .. }) => "not_a_file",
            Error::Unwritable(statewright_workflow::Unwritable::Io { .. }) | Error::Io(_) => "io",
            Error::TrashNotAFolder { .. } => "trash_not_a_folder",
            Error::Store(_) => "store",
            Error::Watch(_) => "watch",
        }
    }

    pub fn payload(&self) -> ErrorPayload {
        ErrorPayload { code: self.code().to_owned(), message: self.to_string() }
    }
}

/// An error as the UI receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ErrorPayload {
    pub code: String,
    pub message: String,
}
