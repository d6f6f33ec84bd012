//! Ctrl+C (SIGINT) and SIGTERM (`kill`, a CI runner's timeout, `docker stop`) end a command
//! the same way: its run is cancelled, recorded as such, and exported; a recording is
//! compiled with what it has.

use statewright_runner::CancellationToken;
use tokio::signal::unix::{SignalKind, signal};

/// A token cancelled at the first SIGINT or SIGTERM.
pub fn cancelled_on_interrupt() -> CancellationToken {
    let cancel = CancellationToken::new();
    let token = cancel.clone();
    tokio::spawn(async move {
        interrupted().await;
        token.cancel();
    });
    cancel
}

/// Waits for SIGINT or SIGTERM (for ever, if neither can be listened to).
pub async fn interrupted() {
    let mut term = signal(SignalKind::terminate()).ok();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        Some(_) = async { term.as_mut()?.recv().await } => {}
    }
}
