//! The commands the window may call (each also declared in `build.rs` and allowed in
//! `capabilities/main-window.json`). Each is a few lines over a core crate.

pub mod agent;
pub mod batch;
pub mod graph;
pub mod judge;
pub mod record;
pub mod reviews;
pub mod runs;
pub mod settings;
pub mod synthesis;
pub mod trash;
pub mod workflows;

use std::future::Future;

use statewright_runner::{RunError, RunErrorKind};
use tokio::sync::oneshot;

use crate::error::{CommandError, CommandResult, ErrorCode};

/// Runs blocking store or file work off the async runtime.
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> CommandResult<T> + Send + 'static) -> CommandResult<T> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .map_err(|e| CommandError::new(ErrorCode::Shell, format!("a background task failed: {e}")))?
}

/// Runs `work` to its end on a thread of its own, with a runtime of its own: a run holds its
/// run store (a SQLite connection, not `Sync`) across its awaits, so it cannot be a task of
/// the shell's runtime. The receiver gets the result (or why there is none).
pub fn on_own_thread<T, F>(work: impl FnOnce() -> F + Send + 'static) -> oneshot::Receiver<Result<T, RunError>>
where
    T: Send + 'static,
    F: Future<Output = Result<T, RunError>>,
{
    let (tx, rx) = oneshot::channel();
    std::thread::spawn(move || {
        let result = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
            Ok(runtime) => runtime.block_on(work()),
            Err(e) => Err(RunError { kind: RunErrorKind::Environment, code: "shell", message: e.to_string() }),
        };
        let _ = tx.send(result);
    });
    rx
}

/// What a receiver of [`on_own_thread`] got: the result, or the thread's end as an error.
pub async fn finished<T>(rx: oneshot::Receiver<Result<T, RunError>>) -> Result<T, RunError> {
    rx.await.unwrap_or_else(|_| {
        Err(RunError { kind: RunErrorKind::Environment, code: "shell", message: "the run stopped unexpectedly".into() })
    })
}
