//! The commands the window may call (each also declared in `build.rs` and allowed in
//! `capabilities/main-window.json`). Each is a few lines over a core crate.

pub mod reviews;
pub mod runs;
pub mod workflows;

/// Runs blocking store or file work off the async runtime.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> crate::error::CommandResult<T> + Send + 'static,
) -> crate::error::CommandResult<T> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .map_err(|e| crate::CommandError::new("shell", format!("a background task failed: {e}")))?
}
