//! Starting and stopping Chromium (or attaching to a running one), and the one page a run
//! works in.

use std::path::PathBuf;
use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::page::AddScriptToEvaluateOnNewDocumentParams;
use chromiumoxide::handler::viewport::Viewport;
use chromiumoxide::page::Page;
use futures::StreamExt;
use tempfile::TempDir;
use tokio::task::JoinHandle;

use crate::ChromeError;
use crate::page::{LIBRARY, PageHandle};

/// How to get a browser.
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// Show the browser window (needs a display).
    pub headed: bool,
    /// Attach to a running browser's DevTools endpoint (`http://127.0.0.1:9222` or a
    /// `ws://` URL) instead of launching one.
    pub cdp_url: Option<String>,
    /// The Chromium binary; by default `$STATEWRIGHT_CHROME`, then `/usr/bin/chromium`,
    /// then chromiumoxide's detection.
    pub executable: Option<PathBuf>,
    pub viewport: (u32, u32),
}

impl Default for LaunchOptions {
    fn default() -> Self {
        Self { headed: false, cdp_url: None, executable: None, viewport: (1280, 800) }
    }
}

/// Flags that keep Chromium quiet and predictable on a closed network and in containers.
const FLAGS: &[&str] = &[
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--no-default-browser-check",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
];

/// A browser and the page of one run. Close it with [`Session::close`]; if it is dropped
/// instead, a launched Chromium is still killed (chromiumoxide sets kill-on-drop).
pub struct Session {
    browser: Browser,
    pub(crate) page: PageHandle,
    handler: JoinHandle<()>,
    launched: bool,
    // Keeps the fresh profile alive for the browser's lifetime; deleted on drop.
    _profile: Option<TempDir>,
}

impl Session {
    pub async fn start(options: &LaunchOptions) -> Result<Self, ChromeError> {
        let began = std::time::Instant::now();
        let (browser, mut handler, profile, launched) = match &options.cdp_url {
            Some(url) => {
                let (browser, handler) =
                    Browser::connect(url.clone()).await.map_err(|e| ChromeError::Connect(format!("{url}: {e}")))?;
                (browser, handler, None, false)
            }
            None => {
                let profile = tempfile::Builder::new()
                    .prefix("statewright-profile-")
                    .tempdir()
                    .map_err(|e| ChromeError::Launch(format!("cannot create a profile directory: {e}")))?;
                let config = config(options, &profile)?;
                let (browser, handler) =
                    Browser::launch(config).await.map_err(|e| ChromeError::Launch(e.to_string()))?;
                (browser, handler, Some(profile), true)
            }
        };
        // The handler drives the CDP connection and must be polled for the whole session.
        let handler = tokio::spawn(async move {
            while let Some(event) = handler.next().await {
                if let Err(e) = event {
                    tracing::debug!("CDP handler: {e}");
                }
            }
        });
        tracing::debug!("browser ready after {:?}", began.elapsed());
        let page = browser
            .new_page("about:blank")
            .await
            .map_err(|e| ChromeError::Launch(format!("cannot open a page: {e}")))?;
        tracing::debug!("page open after {:?}", began.elapsed());
        install_library(&page).await?;
        tracing::debug!("library installed after {:?}", began.elapsed());
        Ok(Self { browser, page: PageHandle::new(page), handler, launched, _profile: profile })
    }

    /// Closes the page, and the browser if this session launched it.
    pub async fn close(mut self) {
        let began = std::time::Instant::now();
        if self.launched {
            if let Err(e) = tokio::time::timeout(Duration::from_secs(5), self.browser.close()).await {
                tracing::warn!("browser did not close in time: {e}");
            }
            let _ = tokio::time::timeout(Duration::from_secs(5), self.browser.wait()).await;
            if let Ok(None) = self.browser.try_wait() {
                let _ = self.browser.kill().await;
            }
        } else {
            let page = self.page.raw().clone();
            let _ = tokio::time::timeout(Duration::from_secs(5), page.close()).await;
        }
        self.handler.abort();
        tracing::debug!("browser closed in {:?}", began.elapsed());
    }
}

fn executable(options: &LaunchOptions) -> Option<PathBuf> {
    options
        .executable
        .clone()
        .or_else(|| std::env::var_os("STATEWRIGHT_CHROME").map(PathBuf::from))
        .or_else(|| Some(PathBuf::from("/usr/bin/chromium")).filter(|p| p.exists()))
}

fn config(options: &LaunchOptions, profile: &TempDir) -> Result<BrowserConfig, ChromeError> {
    let (width, height) = options.viewport;
    let mut builder = BrowserConfig::builder()
        .user_data_dir(profile.path())
        .window_size(width, height)
        .viewport(Viewport { width, height, ..Viewport::default() })
        .launch_timeout(Duration::from_secs(20))
        .args(FLAGS.iter().copied());
    if let Some(path) = executable(options) {
        builder = builder.chrome_executable(path);
    }
    if options.headed {
        builder = builder.with_head();
    }
    // Chromium refuses to start its sandbox as root (CI, containers).
    if is_root() {
        builder = builder.no_sandbox();
    }
    builder.build().map_err(ChromeError::Launch)
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0")))
        .unwrap_or(false)
}

/// Installs the in-page library into every future document, and into the current one.
async fn install_library(page: &Page) -> Result<(), ChromeError> {
    page.execute(AddScriptToEvaluateOnNewDocumentParams::new(LIBRARY))
        .await
        .map_err(|e| ChromeError::Launch(format!("cannot install the page library: {e}")))?;
    page.evaluate_expression(LIBRARY)
        .await
        .map_err(|e| ChromeError::Launch(format!("cannot install the page library: {e}")))?;
    Ok(())
}
