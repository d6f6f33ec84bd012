use std::io;
use std::path::{Path, PathBuf};

use rusqlite::ErrorCode;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{} is not a Statewright database (it holds another application's data); it was left unchanged", path.display())]
    NotStatewright { path: PathBuf },
    #[error("{}: the database is corrupt or not a database at all ({detail}); it was left unchanged", path.display())]
    Corrupt { path: PathBuf, detail: String },
    #[error(
        "{} was written by a newer Statewright (schema version {found}; this one knows up to {known}); it was left unchanged",
        path.display()
    )]
    TooNew { path: PathBuf, found: i64, known: i64 },
    /// A folder given as the database, a file as the runs folder: SQLite said "unable to
    /// open" (read as read-only) and making the folder "File exists".
    #[error("{} is {what}, not {wanted}", path.display())]
    NotWhatItShouldBe { path: PathBuf, what: String, wanted: &'static str },
    #[error("cannot write to {}: it is read-only (check the folder's permissions)", path.display())]
    ReadOnly { path: PathBuf },
    #[error("cannot write to {}: the disk is full (or the file-size limit is reached)", path.display())]
    DiskFull { path: PathBuf },
    #[error("no run with id `{0}` (see `statewright runs list`)")]
    UnknownRun(String),
    #[error("the run id prefix `{prefix}` is ambiguous: it matches {}", matches.join(", "))]
    AmbiguousRun { prefix: String, matches: Vec<String> },
    #[error("no review with id {0} (see `statewright review list`)")]
    UnknownReview(i64),
    #[error(
        "review {id} cannot be read: the request it was opened with is not one this Statewright reads ({detail}); \
         `statewright review list` still lists it"
    )]
    UnreadableReview { id: i64, detail: String },
    #[error("review {id} is already {status}; nothing was changed")]
    ReviewClosed { id: i64, status: String },
    #[error("review {id}'s run {run_id} is no longer waiting (its process ended); nothing was changed")]
    RunNotWaiting { id: i64, run_id: String },
    #[error("review {0} is a run waiting for a person, not a model's proposal: answer it with `review resolve`")]
    NotAProposal(i64),
    #[error("review {0} is a model's proposal: nobody waits on it; approve or reject it")]
    IsAProposal(i64),
    #[error("database error in {}: {source}", path.display())]
    Sqlite { path: PathBuf, source: rusqlite::Error },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("invalid JSON in the store: {0}")]
    Json(#[from] serde_json::Error),
}

impl Error {
    /// Whether the path given for the store is wrong (a folder, another program's file, a
    /// newer Statewright's database) or a run asked for is not in it: the caller's to fix,
    /// where a full disk or a read-only folder is the machine's.
    pub fn is_callers(&self) -> bool {
        matches!(
            self,
            Error::NotWhatItShouldBe { .. }
                | Error::NotStatewright { .. }
                | Error::Corrupt { .. }
                | Error::TooNew { .. }
                | Error::UnknownRun(_)
                | Error::AmbiguousRun { .. }
        )
    }

    pub(crate) fn sqlite(path: &Path, e: rusqlite::Error) -> Error {
        let path = path.to_path_buf();
        match e.sqlite_error_code() {
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => {
                Error::Corrupt { path, detail: e.to_string() }
            }
            Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => Error::ReadOnly { path },
            Some(ErrorCode::DiskFull) => Error::DiskFull { path },
            _ => Error::Sqlite { path, source: e },
        }
    }

    pub(crate) fn io(path: &Path, e: io::Error) -> Error {
        let path = path.to_path_buf();
        match e.raw_os_error() {
            Some(libc::EROFS | libc::EACCES | libc::EPERM) => Error::ReadOnly { path },
            Some(libc::ENOSPC | libc::EDQUOT | libc::EFBIG) => Error::DiskFull { path },
            _ => Error::Io { path, source: e },
        }
    }
}
