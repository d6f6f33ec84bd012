//! The run's end of human review, for the CLI and the app alike: escalations go into the
//! store's review queue, where `statewright review` or the app's review panel answers them
//! from another process, and the run polls for the answer.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use crate::Store;
use statewright_engine::review::BoxFuture;
use statewright_engine::{EscalationRequest, Resolution, ReviewError, Reviewer};
use tokio::time::Instant;

/// How often a waiting run looks for an answer: quick enough to feel immediate.
const POLL: Duration = Duration::from_millis(200);

pub struct StoreReviewer {
    store: Mutex<Store>,
    run_id: String,
    /// `None` waits for as long as it takes.
    timeout: Option<Duration>,
}

impl StoreReviewer {
    /// A reviewer for run `run_id` over its own connection to the store at `db`; `timeout`
    /// `None` waits for as long as it takes.
    pub fn open(db: &Path, run_id: &str, timeout: Option<Duration>) -> crate::Result<Self> {
        let store = Store::open(db)?;
        Ok(Self { store: Mutex::new(store), run_id: run_id.to_owned(), timeout })
    }

    fn with_store<T>(&self, f: impl FnOnce(&Store) -> crate::Result<T>) -> Result<T, ReviewError> {
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
            let started = Instant::now();
            loop {
                if let Some(resolution) = self.with_store(|store| store.review_resolution(review_id))? {
                    return Ok(resolution);
                }
                if let Some(timeout) = self.timeout
                    && started.elapsed() >= timeout
                {
                    self.with_store(|store| store.cancel_reviews(&self.run_id))?;
                    return Err(ReviewError::TimedOut { review_id, seconds: timeout.as_secs_f64() });
                }
                tokio::time::sleep(POLL).await;
            }
        })
    }
}
