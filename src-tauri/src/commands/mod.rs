//! The commands the window may call (each also declared in `build.rs` and allowed in
//! `capabilities/main-window.json`). Each is a few lines over a core crate.

pub mod agent;
pub mod batch;
pub mod graph;
pub mod record;
pub mod reviews;
pub mod runs;
pub mod settings;
pub mod synthesis;
pub mod workflows;

use crate::error::{CommandError, CommandResult, ErrorCode};

/// Runs blocking store or file work off the async runtime.
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> CommandResult<T> + Send + 'static) -> CommandResult<T> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .map_err(|e| CommandError::new(ErrorCode::Shell, format!("a background task failed: {e}")))?
}
