//! Hearing what a person does in a tab, for `statewright record`: the in-page library's
//! `record()` reports each act through a DevTools binding, installed on every new document
//! so it survives navigations; navigations themselves come from the page's frame events.

use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::page::{AddScriptToEvaluateOnNewDocumentParams, EventFrameNavigated};
use chromiumoxide::cdp::js_protocol::runtime::{AddBindingParams, EventBindingCalled};
use futures::StreamExt;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::ChromeError;
use crate::driver::ChromeDriver;
use crate::session::{LaunchOptions, Session};

const BINDING: &str = "__statewrightRecord";

/// What the tab reported.
#[derive(Debug, Clone)]
pub enum Heard {
    /// One act, as the in-page library reports it: `{kind, page, target, alternatives, …}`.
    Act(Value),
    /// The main frame went to another document.
    Navigated(String),
    /// The tab is gone (closed by the person, or the browser quit).
    Closed,
}

/// A tab being recorded.
pub struct Recording {
    session: Session,
    heard: mpsc::UnboundedReceiver<Heard>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Recording {
    /// Opens a tab (in a launched browser, or a new one in the browser at `cdp_url`) and
    /// starts listening; nothing is heard until [`Recording::open`].
    pub async fn start(options: &LaunchOptions) -> Result<Recording, ChromeError> {
        let session = Session::start(options).await?;
        let page = session.page.raw().clone();
        let fail = |e: chromiumoxide::error::CdpError| ChromeError::Launch(format!("cannot listen to the tab: {e}"));
        page.execute(AddBindingParams::new(BINDING)).await.map_err(fail)?;
        let install = format!("window.__statewright && window.__statewright.record('{BINDING}')");
        page.execute(AddScriptToEvaluateOnNewDocumentParams::new(install)).await.map_err(fail)?;
        let (tx, heard) = mpsc::unbounded_channel();
        let mut calls = page.event_listener::<EventBindingCalled>().await.map_err(fail)?;
        let mut frames = page.event_listener::<EventFrameNavigated>().await.map_err(fail)?;
        let acts = {
            let tx = tx.clone();
            tokio::spawn(async move {
                while let Some(call) = calls.next().await {
                    if call.name != BINDING {
                        continue;
                    }
                    // Only a JSON object is an act; anything else the page sends is ignored.
                    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(&call.payload) {
                        let _ = tx.send(Heard::Act(v));
                    }
                }
                let _ = tx.send(Heard::Closed);
            })
        };
        let navigations = {
            let tx = tx.clone();
            tokio::spawn(async move {
                while let Some(event) = frames.next().await {
                    if event.frame.parent_id.is_none() {
                        let _ = tx.send(Heard::Navigated(event.frame.url.clone()));
                    }
                }
            })
        };
        let liveness = {
            let page = page.clone();
            tokio::spawn(async move {
                // A page between documents does not answer either: gone only when it has not
                // for a few tries in a row.
                let mut silent = 0;
                while silent < 4 {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    let alive = tokio::time::timeout(Duration::from_secs(5), page.evaluate_expression("1")).await;
                    silent = if matches!(alive, Ok(Ok(_))) { 0 } else { silent + 1 };
                }
                let _ = tx.send(Heard::Closed);
            })
        };
        Ok(Recording { session, heard, tasks: vec![acts, navigations, liveness] })
    }

    /// Goes to `url` (the recording's first page).
    pub async fn open(&self, url: &str) -> Result<(), String> {
        let page = self.session.page.raw();
        tokio::time::timeout(Duration::from_secs(30), page.goto(url))
            .await
            .map_err(|_| format!("{url} did not load within 30 s"))?
            .map_err(|e| format!("cannot open {url}: {e}"))?;
        // The document that was already loading when the script was added gets it now.
        let _ =
            page.evaluate_expression(format!("window.__statewright && window.__statewright.record('{BINDING}')")).await;
        Ok(())
    }

    /// The next thing heard; `None` once nothing more can be.
    pub async fn next(&mut self) -> Option<Heard> {
        self.heard.recv().await
    }

    /// The page as it is now (`{url, title, text, elements}`), if the tab is still there.
    pub async fn snapshot(&self) -> Option<Value> {
        let args = [Value::from(20_000)];
        let call = self.session.page.call("snapshot", &args, Duration::from_secs(5));
        tokio::time::timeout(Duration::from_secs(5), call).await.ok()?.ok()
    }

    /// A JPEG of the tab as it is now.
    pub async fn screenshot(&self) -> Option<Vec<u8>> {
        // One more try: a capture asked for while the page is being replaced fails.
        for _ in 0..2 {
            let shot = ChromeDriver::screenshot_jpeg(self.session.page.raw());
            if let Ok(Ok(bytes)) = tokio::time::timeout(Duration::from_secs(5), shot).await {
                return Some(bytes);
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        None
    }

    pub async fn close(self) {
        for task in &self.tasks {
            task.abort();
        }
        self.session.close().await;
    }
}
