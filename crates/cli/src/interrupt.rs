//! Ctrl+C (SIGINT) and SIGTERM (`kill`, a CI runner's timeout, `docker stop`) end a command
//! the same way: its run is cancelled, recorded as such, and exported; a recording is
//! compiled with what it has.

use statewright_runner::CancellationToken;
use tokio::signal::unix::{Signal, SignalKind, signal};

/// A token cancelled at the first SIGINT or SIGTERM.
pub fn cancelled_on_interrupt() -> CancellationToken {
    let cancel = CancellationToken::new();
    let token = cancel.clone();
    // Listening starts here, before the command goes on: a signal that came before the task
    // below first ran would otherwise take its default action and kill the process.
    let mut signals = Signals::listen();
    tokio::spawn(async move {
        signals.recv().await;
        token.cancel();
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

    async fn recv(&mut self) {
        tokio::select! {
            Some(_) = async { self.interrupt.as_mut()?.recv().await } => {}
            Some(_) = async { self.terminate.as_mut()?.recv().await } => {}
            else => std::future::pending::<()>().await,
        }
    }
}
