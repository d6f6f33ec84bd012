//! The run's end of human review, as in the CLI: escalations go into the store's review
//! queue, which the app's review panel (or `statewright review`) answers, and the run polls
//! for the answer. Moves to `statewright-runner` with `run.rs`.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use statewright_engine::review::BoxFuture;
use statewright_engine::{EscalationRequest, Resolution, ReviewError, Reviewer};
use statewright_store::Store;

/// How often a waiting run looks for an answer: quick enough to feel immediate.
const POLL: Duration = Duration::from_millis(200);

pub struct StoreReviewer {
    store: Mutex<Store>,
    run_id: String,
}

impl StoreReviewer {
    pub fn open(db: &Path, run_id: &str) -> statewright_store::Result<Self> {
        Ok(Self { store: Mutex::new(Store::open(db)?), run_id: run_id.to_owned() })
    }

    fn with_store<T>(&self, f: impl FnOnce(&Store) -> statewright_store::Result<T>) -> Result<T, ReviewError> {
        let store = self.store.lock().map_err(|_| ReviewError::Unavailable("the store lock is poisoned".into()))?;
        f(&store).map_err(|e| ReviewError::Unavailable(e.to_string()))
    }
}

impl Reviewer for StoreReviewer {
    fn open(&self, request: EscalationRequest) -> BoxFuture<'_, Result<i64, ReviewError>> {
        let opened = self.with_store(|store| store.open_review(&self.run_id, &request));
        Box::pin(async move { opened })
    }

    fn wait(&self, review_id: i64) -> BoxFuture<'_, Result<Resolution, ReviewError>> {
        Box::pin(async move {
            loop {
                if let Some(resolution) = self.with_store(|store| store.review_resolution(review_id))? {
                    return Ok(resolution);
                }
                tokio::time::sleep(POLL).await;
            }
        })
    }
}
