//! *Batch…*'s browser settings turned into the runner's [`BrowserPool`], checked as
//! `statewright batch` checks `--shared-browsers`, `--cdp-url`, `--per-endpoint` and
//! `--pool`: a malformed URL or pool file, or a bound of 0, is the caller's error (its
//! message masks the URL's credentials, as the runner's do), before any row runs.

use std::path::Path;

use statewright_runner::batch::time_limit;
use statewright_runner::pool::{BrowserPool, Endpoint, read_pool_file};
use statewright_runner::{RunError, RunErrorKind};

use crate::ipc::{BatchBrowsers, BatchRequest};

/// The most runs at a time the window may ask for: each may be a browser on this machine.
const MOST_AT_A_TIME: usize = 16;

fn invalid(message: impl Into<String>) -> RunError {
    RunError { kind: RunErrorKind::Invalid, code: "pool", message: message.into() }
}

fn at_least_one(n: u32, what: &str) -> Result<usize, RunError> {
    if n == 0 {
        return Err(invalid(format!("{what}: at least 1")));
    }
    Ok(n as usize)
}

impl BatchRequest {
    /// Where the rows' browsers come from.
    pub fn pool(&self) -> Result<BrowserPool, RunError> {
        if self.headed && self.browsers != BatchBrowsers::Launch {
            return Err(invalid(
                "headed runs launch a browser each: shared browsers are headless, endpoints are shown where they run",
            ));
        }
        Ok(match &self.browsers {
            BatchBrowsers::Launch => BrowserPool::Launch,
            BatchBrowsers::Shared { browsers, per_browser } => BrowserPool::Shared {
                browsers: at_least_one(*browsers, "shared browsers")?,
                max_runs: at_least_one(*per_browser, "runs at a time in each shared browser")?,
            },
            BatchBrowsers::Endpoints { cdp_urls, per_endpoint, pool_file } => {
                let per_endpoint = at_least_one(*per_endpoint, "runs at a time on each endpoint")?;
                let mut endpoints = match pool_file.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
                    Some(file) => read_pool_file(Path::new(file))?,
                    None => Vec::new(),
                };
                for url in cdp_urls.iter().map(|u| u.trim()).filter(|u| !u.is_empty()) {
                    endpoints.push(Endpoint::new(url, per_endpoint)?);
                }
                if endpoints.is_empty() {
                    return Err(invalid("no browser endpoint given: a DevTools URL per line, or a pool file"));
                }
                BrowserPool::Endpoints(endpoints)
            }
        })
    }

    /// A row's time limit, if one is asked for: a positive number of seconds.
    pub fn run_timeout(&self) -> Result<Option<std::time::Duration>, RunError> {
        let Some(seconds) = self.run_timeout else { return Ok(None) };
        time_limit(seconds).map(Some).map_err(|message| RunError {
            kind: RunErrorKind::Invalid,
            code: "run_timeout",
            message,
        })
    }

    /// Runs at a time: as asked (at most 16), else 2, or with a pool all it takes; never
    /// more than the pool takes.
    pub fn runs_at_a_time(&self, pool: &BrowserPool) -> usize {
        pool.runs_at_a_time(self.concurrency.map(|n| (n as usize).min(MOST_AT_A_TIME)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc::BatchOf;

    fn request(browsers: BatchBrowsers) -> BatchRequest {
        BatchRequest {
            each: BatchOf::Workflow { workflow: "demo-shop.json".into() },
            data: "orders.csv".into(),
            browsers,
            ..Default::default()
        }
    }

    fn endpoints(urls: &[&str], per_endpoint: u32, pool_file: Option<String>) -> BatchBrowsers {
        BatchBrowsers::Endpoints { cdp_urls: urls.iter().map(|u| u.to_string()).collect(), per_endpoint, pool_file }
    }

    #[test]
    fn the_dialogs_settings_become_the_pool_the_cli_flags_make() {
        assert_eq!(request(BatchBrowsers::Launch).pool().unwrap(), BrowserPool::Launch);
        let shared = request(BatchBrowsers::Shared { browsers: 2, per_browser: 3 });
        assert_eq!(shared.pool().unwrap(), BrowserPool::Shared { browsers: 2, max_runs: 3 });

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pool.json");
        std::fs::write(&file, r#"{"endpoints": [{"cdp_url": "ws://10.0.0.5:9222/x", "max_runs": 3}]}"#).unwrap();
        let pooled = request(endpoints(
            &["http://127.0.0.1:9301", " ", "ws://h:1/?token=t"],
            2,
            Some(file.display().to_string()),
        ));
        let BrowserPool::Endpoints(found) = pooled.pool().unwrap() else { panic!("endpoints") };
        let found: Vec<(&str, usize)> = found.iter().map(|e| (e.cdp_url.as_str(), e.max_runs)).collect();
        assert_eq!(
            found,
            [("ws://10.0.0.5:9222/x", 3), ("http://127.0.0.1:9301", 2), ("ws://h:1/?token=t", 2)],
            "the file's, then each URL's (blank lines skipped)"
        );
    }

    #[test]
    fn bad_settings_are_refused_with_credentials_masked() {
        let cases = [
            (request(endpoints(&["127.0.0.1:9222?token=s3cret"], 1, None)), "is not a DevTools"),
            (request(endpoints(&["ws://h:1"], 0, None)), "at least 1"),
            (request(endpoints(&[" "], 1, Some("  ".into()))), "no browser endpoint given"),
            (
                request(endpoints(&[], 1, Some("/nonexistent/pool.json".into()))),
                "/nonexistent/pool.json: cannot read the pool file: No such file",
            ),
            (request(BatchBrowsers::Shared { browsers: 0, per_browser: 1 }), "shared browsers: at least 1"),
            (BatchRequest { headed: true, ..request(BatchBrowsers::Shared { browsers: 1, per_browser: 1 }) }, "headed"),
        ];
        for (request, expected) in cases {
            let e = request.pool().expect_err(expected);
            assert_eq!(e.kind, RunErrorKind::Invalid, "{e}");
            assert!(e.message.contains(expected), "{expected}: {e}");
            assert!(!e.message.contains("s3cret"), "{e}");
        }
    }

    #[test]
    fn runs_at_a_time_default_to_what_the_pool_takes_and_never_exceed_it() {
        let mut r = request(endpoints(&["ws://a:1", "ws://b:1"], 2, None));
        let pool = r.pool().unwrap();
        assert_eq!(r.runs_at_a_time(&pool), 4);
        r.concurrency = Some(3);
        assert_eq!(r.runs_at_a_time(&pool), 3);
        r.concurrency = Some(9);
        assert_eq!(r.runs_at_a_time(&pool), 4, "no more than the endpoints take");
        let launch = request(BatchBrowsers::Launch);
        assert_eq!(launch.runs_at_a_time(&BrowserPool::Launch), 2);
        let many = BatchRequest { concurrency: Some(100), ..launch };
        assert_eq!(many.runs_at_a_time(&BrowserPool::Launch), 16, "at most 16 browsers from the window");
    }

    #[test]
    fn a_runs_time_limit_is_a_positive_number_of_seconds_or_none() {
        let limit = |seconds| BatchRequest { run_timeout: seconds, ..request(BatchBrowsers::Launch) }.run_timeout();
        assert_eq!(limit(None).unwrap(), None);
        assert_eq!(limit(Some(90.5)).unwrap(), Some(std::time::Duration::from_millis(90_500)));
        for bad in [0.0, -3.0, f64::NAN, f64::INFINITY] {
            let e = limit(Some(bad)).expect_err("refused");
            assert_eq!(e.kind, RunErrorKind::Invalid);
            assert!(e.message.contains("positive number of seconds"), "{e}");
        }
    }
}
