//! Where a batch's runs get their browsers. By default each run launches its own Chromium,
//! as `statewright run` does. With a pool, runs attach to running browsers' DevTools
//! endpoints (local Chromiums started with `--remote-debugging-port`, or the WebSocket URLs
//! Selenium Grid 4, Browserless, Moon or a cloud service hand out), each endpoint taking at
//! most its own number of runs at a time.
//!
//! An endpoint that cannot be attached to (nothing listening, not DevTools, no answer within
//! the connect budget, no page to be had) is dead for the rest of the batch: the row that
//! found out goes to another endpoint, as if nothing had happened, since its run had not
//! begun. What fails once a run has its page is the run's failure, not the endpoint's: the
//! row is not run again elsewhere (it may have done half its work).

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statewright_chrome::{endpoint_address, mask_url};
use tokio::sync::Notify;

use crate::error::RunError;

/// Where the rows' browsers come from.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum BrowserPool {
    /// Each run launches its own Chromium (and closes it at the end).
    #[default]
    Launch,
    /// Running browsers: each row attaches to an endpoint with a free slot.
    Endpoints(Vec<Endpoint>),
    /// Headless Chromiums the batch launches once and shares, as endpoints that take
    /// `max_runs` runs at a time each: no launch and close per row.
    Shared { browsers: usize, max_runs: usize },
}

/// A running browser's DevTools endpoint and how many runs it takes at a time.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    /// `http://HOST:PORT` or a `ws://`/`wss://` URL (a token in its query is masked
    /// wherever the URL is shown).
    pub cdp_url: String,
    /// Runs at a time on this endpoint (at least 1).
    #[serde(default = "one")]
    pub max_runs: usize,
}

fn one() -> usize {
    1
}

impl Endpoint {
    /// An endpoint from a `--cdp-url`; a malformed URL is the caller's input error.
    pub fn new(cdp_url: &str, max_runs: usize) -> Result<Self, RunError> {
        endpoint_address(cdp_url).map_err(|e| RunError::invalid("invalid_cdp_url", e.to_string()))?;
        statewright_chrome::check_authorities().map_err(|e| RunError::invalid("invalid_ca_cert", e))?;
        if max_runs == 0 {
            return Err(RunError::invalid("pool", format!("{}: at least 1 run at a time", mask_url(cdp_url))));
        }
        Ok(Self { cdp_url: cdp_url.to_owned(), max_runs })
    }
}

impl BrowserPool {
    /// Runs at a time: `concurrency`, and with endpoints no more than they take together.
    pub fn bound(&self, concurrency: usize) -> usize {
        match self {
            Self::Launch => concurrency.max(1),
            Self::Endpoints(endpoints) => concurrency.min(endpoints.iter().map(|e| e.max_runs).sum()).max(1),
            Self::Shared { browsers, max_runs } => concurrency.min(browsers * max_runs).max(1),
        }
    }

    /// Runs at a time for a batch that asked for `asked` (or nothing): without a pool 2,
    /// with one as many as it takes, and never more than it takes.
    pub fn runs_at_a_time(&self, asked: Option<usize>) -> usize {
        self.bound(asked.unwrap_or(match self {
            Self::Launch => 2,
            Self::Endpoints(_) | Self::Shared { .. } => usize::MAX,
        }))
    }
}

/// The endpoints of a pool file: `{"endpoints": [{"cdp_url": "ws://…", "max_runs": 2}]}`
/// (`max_runs` defaults to 1). Errors name the file, and the line and column when the JSON
/// is malformed.
pub fn read_pool_file(path: &Path) -> Result<Vec<Endpoint>, RunError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct PoolFile {
        endpoints: Vec<Endpoint>,
    }
    let shown = path.display();
    let text = statewright_workflow::read_input_text(path, "pool file")
        .map_err(|e| RunError::invalid("pool", format!("{shown}: {} ({})", e.message, e.help)))?;
    let file: PoolFile = serde_json::from_str(&text).map_err(|e| {
        let message = statewright_workflow::json_problem(&text, &e);
        RunError::invalid("pool", format!("{shown}:{}:{}: {message}", e.line(), e.column()))
    })?;
    if file.endpoints.is_empty() {
        return Err(RunError::invalid("pool", format!("{shown}: `endpoints` lists no endpoint")));
    }
    for (i, endpoint) in file.endpoints.iter().enumerate() {
        Endpoint::new(&endpoint.cdp_url, endpoint.max_runs)
            .map_err(|e| RunError::invalid("pool", format!("{shown}: endpoint {}: {}", i + 1, e.message)))?;
    }
    Ok(file.endpoints)
}

/// One endpoint's part in a batch, as the report gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EndpointReport {
    /// The URL with its credentials masked.
    pub url: String,
    pub max_runs: usize,
    /// Rows that ran there (got a page there).
    pub runs: usize,
    /// Why it was given up on, if it was.
    pub dead: Option<String>,
}

/// The endpoints' free slots while a batch runs.
pub(crate) struct Slots {
    endpoints: Mutex<Vec<Live>>,
    changed: Notify,
}

struct Live {
    url: String,
    report: EndpointReport,
    busy: usize,
}

/// A slot on an endpoint, held for one row's run; given back when dropped.
pub(crate) struct Lease {
    slots: Arc<Slots>,
    index: usize,
    pub url: String,
    /// The URL as it may be shown.
    pub shown: String,
}

impl Slots {
    pub fn new(endpoints: &[Endpoint]) -> Arc<Self> {
        let live = endpoints
            .iter()
            .map(|e| Live {
                url: e.cdp_url.clone(),
                report: EndpointReport { url: mask_url(&e.cdp_url), max_runs: e.max_runs, runs: 0, dead: None },
                busy: 0,
            })
            .collect();
        Arc::new(Self { endpoints: Mutex::new(live), changed: Notify::new() })
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Live>> {
        self.endpoints.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free slot on a live endpoint (the least busy, then the one that ran fewest rows, so
    /// rows spread over the pool), waiting for one if all are taken. `Err` says why each
    /// endpoint is dead when none is left.
    pub async fn acquire(self: &Arc<Self>) -> Result<Lease, String> {
        loop {
            // Registered before the lock is let go, so a slot given back meanwhile wakes it.
            let changed = self.changed.notified();
            {
                let mut endpoints = self.lock();
                if endpoints.iter().all(|e| e.report.dead.is_some()) {
                    let why: Vec<String> = endpoints
                        .iter()
                        .map(|e| format!("{} ({})", e.report.url, e.report.dead.as_deref().unwrap_or_default()))
                        .collect();
                    return Err(why.join("; "));
                }
                let free = endpoints
                    .iter_mut()
                    .enumerate()
                    .filter(|(_, e)| e.report.dead.is_none() && e.busy < e.report.max_runs)
                    .min_by_key(|(_, e)| (e.busy, e.report.runs));
                if let Some((index, endpoint)) = free {
                    endpoint.busy += 1;
                    let (url, shown) = (endpoint.url.clone(), endpoint.report.url.clone());
                    return Ok(Lease { slots: self.clone(), index, url, shown });
                }
            }
            changed.await;
        }
    }

    /// The endpoints, for the report.
    pub fn report(&self) -> Vec<EndpointReport> {
        self.lock().iter().map(|e| e.report.clone()).collect()
    }
}

impl Lease {
    /// The row got its page here.
    pub fn ran(&self) {
        self.slots.lock()[self.index].report.runs += 1;
    }

    /// The endpoint could not be attached to: no row goes there again. Returns whether this
    /// lease found out first (rows that were attaching at the same time fail the same way).
    pub fn dead(self, reason: &str) -> bool {
        let mut endpoints = self.slots.lock();
        let endpoint = &mut endpoints[self.index];
        let first = endpoint.report.dead.is_none();
        if first {
            endpoint.report.dead = Some(reason.to_owned());
        }
        first
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.slots.lock()[self.index].busy -= 1;
        self.slots.changed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoints(bounds: &[usize]) -> Vec<Endpoint> {
        bounds
            .iter()
            .enumerate()
            .map(|(i, &max_runs)| Endpoint { cdp_url: format!("ws://127.0.0.1:{}/?token=t{i}", 9000 + i), max_runs })
            .collect()
    }

    #[test]
    fn the_pool_bounds_concurrency_by_what_its_endpoints_take() {
        assert_eq!(BrowserPool::Launch.bound(3), 3);
        let pool = BrowserPool::Endpoints(endpoints(&[2, 1]));
        assert_eq!(pool.bound(8), 3);
        assert_eq!(pool.bound(2), 2);
        assert_eq!(pool.bound(0), 1);
        assert_eq!(BrowserPool::Shared { browsers: 2, max_runs: 3 }.bound(8), 6);
        assert_eq!(BrowserPool::Launch.runs_at_a_time(None), 2, "two launched browsers unless asked");
        assert_eq!(pool.runs_at_a_time(None), 3, "a pool: all it takes");
        assert_eq!(pool.runs_at_a_time(Some(1)), 1);
    }

    #[tokio::test]
    async fn rows_spread_over_free_slots_and_leave_dead_endpoints() {
        let slots = Slots::new(&endpoints(&[2, 2]));
        let a = slots.acquire().await.unwrap();
        let b = slots.acquire().await.unwrap();
        assert_ne!(a.index, b.index, "the least busy endpoint first");
        let c = slots.acquire().await.unwrap();
        let d = slots.acquire().await.unwrap();
        // All four slots taken: the next waits until one is given back.
        let waiting = tokio::spawn({
            let slots = slots.clone();
            async move { slots.acquire().await.map(|l| l.index) }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        let freed = c.index;
        drop(c);
        assert_eq!(waiting.await.unwrap(), Ok(freed));

        // The endpoint of `a` dies: what waits goes to the other one, then none is left.
        let dead = a.index;
        let also_attaching = a.clone_index_lease(&slots);
        assert!(a.dead("refused"));
        assert!(!also_attaching.dead("refused again"), "only the first reason is kept");
        drop((b, d));
        let next = slots.acquire().await.unwrap();
        assert_ne!(next.index, dead);
        next.dead("gone too");
        let report = slots.report();
        assert_eq!(report[dead].dead.as_deref(), Some("refused"));
        assert!(report.iter().all(|e| e.url.ends_with("?token=***")), "{report:?}");
        let Err(none) = slots.acquire().await else { panic!("every endpoint is dead") };
        assert!(none.contains("(refused)") && none.contains("(gone too)") && !none.contains("t0"), "{none}");
    }

    impl Lease {
        /// Another slot on the same endpoint (as a second row attaching at the same time).
        fn clone_index_lease(&self, slots: &Arc<Slots>) -> Lease {
            slots.lock()[self.index].busy += 1;
            Lease { slots: slots.clone(), index: self.index, url: self.url.clone(), shown: self.shown.clone() }
        }
    }

    #[test]
    fn pool_files_say_where_they_are_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let good = write(
            "good.json",
            r#"{"endpoints": [{"cdp_url": "ws://a:1/x?token=s"}, {"cdp_url": "http://b:2", "max_runs": 3}]}"#,
        );
        let read = read_pool_file(&good).unwrap();
        assert_eq!((read[0].max_runs, read[1].max_runs), (1, 3));
        for (name, text, expected) in [
            ("comma.json", "{\"endpoints\": [\n  {\"cdp_url\": \"ws://a:1\",}\n]}", "comma.json:2:26: trailing comma"),
            ("typo.json", r#"{"endpoints": [{"cdp_url": "ws://a:1", "max_run": 2}]}"#, "typo.json:1:"),
            ("empty.json", r#"{"endpoints": []}"#, "lists no endpoint"),
            ("url.json", r#"{"endpoints": [{"cdp_url": "a:1"}]}"#, "url.json: endpoint 1: `a:1` is not a DevTools"),
            ("zero.json", r#"{"endpoints": [{"cdp_url": "ws://a:1", "max_runs": 0}]}"#, "at least 1 run"),
        ] {
            let e = read_pool_file(&write(name, text)).unwrap_err();
            assert!(e.message.contains(expected), "{name}: {}", e.message);
            assert_eq!(e.kind, crate::RunErrorKind::Invalid);
        }
        let missing = read_pool_file(&dir.path().join("nope.json")).unwrap_err();
        assert!(missing.message.contains("nope.json"), "{}", missing.message);
    }
}
