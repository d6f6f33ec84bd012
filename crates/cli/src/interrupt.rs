//! Ctrl+C (SIGINT) and SIGTERM (`kill`, a CI runner's timeout, `docker stop`) end a command
//! the same way: its run is cancelled, recorded as such, and exported; a recording is
//! compiled with what it has.

use statewright_runner::Cancel;
use tokio::signal::unix::{Signal, SignalKind, signal};

/// A token cancelled at the first SIGINT or SIGTERM, naming it.
pub fn cancelled_on_interrupt() -> Cancel {
    let cancel = Cancel::new();
    let token = cancel.clone();
    // Listening starts here, before the command goes on: a signal that came before the task
    // below first ran would otherwise take its default action and kill the process.
    let mut signals = Signals::listen();
    tokio::spawn(async move {
        let reason = signals.recv().await;
        token.cancel(reason);
    });
    cancel
}

/// Waits for SIGINT or SIGTERM (for ever, if neither can be listened to).
pub async fn interrupted() {
    Signals::listen().recv().await;
}

/// SIGINT and SIGTERM, each handled from the moment this is made.
struct Signals {
    interrupt: Option<Signal>,
    terminate: Option<Signal>,
}

impl Signals {
    fn listen() -> Self {
        Self { interrupt: signal(SignalKind::interrupt()).ok(), terminate: signal(SignalKind::terminate()).ok() }
    }

    /// The signal, as a run cancelled by it says it.
    async fn recv(&mut self) -> &'static str {
        tokio::select! {
            Some(_) = async { self.interrupt.as_mut()?.recv().await } => "interrupted (SIGINT, Ctrl+C)",
            Some(_) = async { self.terminate.as_mut()?.recv().await } => "terminated (SIGTERM)",
            else => std::future::pending().await,
        }
    }
}
