//! Cancelling a run from outside it, saying why. A run that ends only "cancelled" leaves the
//! person reading its record to guess whether it hit a time limit, was stopped in the app or
//! got a SIGTERM from a CI runner; the reason travels with the cancellation into the run's
//! message, so the store, the run folder and every front end say it.

use std::sync::{Arc, OnceLock};

use tokio_util::sync::CancellationToken;

/// A cancellation token that carries the reason it was cancelled for. Clones share one
/// cancellation; a [`child`](Cancel::child) is cancelled with its parent (and says the
/// parent's reason) but can also be cancelled alone.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    token: CancellationToken,
    reason: Arc<OnceLock<String>>,
    parent: Option<Box<Cancel>>,
}

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels, for `reason` (a phrase that reads after "cancelled: "). The first reason is
    /// the one kept, and none is taken once a parent has cancelled this: the parent's reason
    /// is the true one then.
    pub fn cancel(&self, reason: impl Into<String>) {
        if !self.token.is_cancelled() {
            let _ = self.reason.set(reason.into());
        }
        self.token.cancel();
    }

    pub fn is_cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Completes once cancelled.
    pub async fn cancelled(&self) {
        self.token.cancelled().await
    }

    /// A token cancelled with this one, or alone.
    pub fn child(&self) -> Cancel {
        Cancel { token: self.token.child_token(), reason: Arc::default(), parent: Some(Box::new(self.clone())) }
    }

    /// Why it was cancelled: its own reason, else the closest parent's.
    pub fn reason(&self) -> Option<String> {
        self.reason.get().cloned().or_else(|| self.parent.as_ref()?.reason())
    }

    /// What a run cancelled this way says it ended with.
    pub fn message(&self) -> String {
        match self.reason() {
            Some(reason) => format!("cancelled: {reason}"),
            None => "cancelled".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_reason_is_kept_and_a_child_says_its_parents_unless_it_was_cancelled_alone() {
        let batch = Cancel::new();
        let (alone, with_parent) = (batch.child(), batch.child());
        assert_eq!(batch.message(), "cancelled", "no reason until cancelled");

        alone.cancel("the time limit of a run (15s) passed");
        assert!(alone.is_cancelled() && !batch.is_cancelled() && !with_parent.is_cancelled());

        batch.cancel("terminated (SIGTERM)");
        batch.cancel("interrupted (SIGINT, Ctrl+C)");
        with_parent.cancel("too late to say");
        assert_eq!(batch.message(), "cancelled: terminated (SIGTERM)", "the first reason is kept");
        assert_eq!(with_parent.message(), "cancelled: terminated (SIGTERM)", "the parent's reason");
        assert_eq!(with_parent.child().message(), "cancelled: terminated (SIGTERM)", "through generations");
        assert_eq!(alone.message(), "cancelled: the time limit of a run (15s) passed", "its own reason");
    }
}
