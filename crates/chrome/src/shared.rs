//! A Chromium launched once and shared: runs attach to it over its DevTools endpoint, each
//! in a page (and window) of its own, as they would to a browser somebody else started. A
//! batch's local pool is made of these, and saves every row a launch and a close.

use chromiumoxide::browser::Browser;
use tempfile::TempDir;
use tokio::task::JoinHandle;

use crate::session::{close_launched, drive, launch};
use crate::{ChromeError, LaunchOptions};

pub struct SharedBrowser {
    browser: Browser,
    handler: JoinHandle<()>,
    // The fresh profile, deleted when the browser is done with.
    _profile: TempDir,
}

impl SharedBrowser {
    /// Launches a headless Chromium (fresh profile, dies with this process as a run's does).
    pub async fn launch() -> Result<Self, ChromeError> {
        let (browser, handler, profile) = launch(&LaunchOptions::default()).await?;
        Ok(Self { browser, handler: drive(handler), _profile: profile })
    }

    /// Its DevTools endpoint (`ws://127.0.0.1:PORT/devtools/browser/…`), for runs to attach to.
    pub fn cdp_url(&self) -> &str {
        self.browser.websocket_address()
    }

    pub async fn close(mut self) {
        close_launched(&mut self.browser).await;
        self.handler.abort();
    }
}
