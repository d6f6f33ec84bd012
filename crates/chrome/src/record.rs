//! Hearing what a person does in a tab, for `statewright record`: the in-page library's
//! `record()` reports each act through a DevTools binding, installed on every new document
//! so it survives navigations; navigations themselves come from the page's frame events.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::{AddScriptToEvaluateOnNewDocumentParams, EventFrameNavigated};
use chromiumoxide::cdp::browser_protocol::target::TargetId;
use chromiumoxide::cdp::js_protocol::runtime::{AddBindingParams, EventBindingCalled};
use chromiumoxide::page::Page;
use futures::StreamExt;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::ChromeError;
use crate::driver::ChromeDriver;
use crate::session::{LaunchOptions, Session};
use crate::tabs::TabChange;

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
    heard: mpsc::UnboundedReceiver<(Option<TargetId>, Heard)>,
    tell: mpsc::UnboundedSender<(Option<TargetId>, Heard)>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// The last address told, so a tab followed and its own navigation say it once.
    told: Option<String>,
    /// The page the person left last, and when: its acts still on their way are heard.
    left: Option<(TargetId, Instant)>,
}

/// How long after the recording moved to another tab the acts of the one left are heard: the
/// act that opened a tab may come after the news of the tab.
const LEFT_GRACE: Duration = Duration::from_secs(1);

impl Recording {
    /// Opens a tab (in a launched browser, or a new one in the browser at `cdp_url`) and
    /// starts listening; nothing is heard until [`Recording::open`].
    pub async fn start(options: &LaunchOptions) -> Result<Recording, ChromeError> {
        let session = Session::start(options).await?;
        let page = session.page.raw().clone();
        let (tell, heard) = mpsc::unbounded_channel();
        let mut tasks = hear(&page, tell.clone())
            .await
            .map_err(|e| ChromeError::Launch(format!("cannot listen to the tab: {e}")))?;
        let liveness = {
            let tell = tell.clone();
            tokio::spawn(async move {
                // A page between documents does not answer either: gone only when it has not
                // for a few tries in a row.
                let mut silent = 0;
                while silent < 4 {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    let alive = tokio::time::timeout(Duration::from_secs(5), page.evaluate_expression("1")).await;
                    silent = if matches!(alive, Ok(Ok(_))) { 0 } else { silent + 1 };
                }
                let _ = tell.send((None, Heard::Closed));
            })
        };
        tasks.push(liveness);
        Ok(Recording { session, heard, tell, tasks, told: None, left: None })
    }

    /// Goes to `url` (the recording's first page).
    pub async fn open(&self, url: &str) -> Result<(), String> {
        let page = self.session.page.raw();
        tokio::time::timeout(Duration::from_secs(30), page.goto(url))
            .await
            .map_err(|_| format!("{url} did not load within 30 s"))?
            .map_err(|e| format!("cannot open {url}: {e}"))?;
        // The document that was already loading when the script was added gets it now.
        let _ = page.evaluate_expression(install()).await;
        Ok(())
    }

    /// The next thing heard; `None` once nothing more can be. A tab the recorded page opens
    /// is followed, as a run follows it (tabs.rs): what the person does there is heard, and
    /// what they do in the tabs left behind is not part of the demonstration's path.
    pub async fn next(&mut self) -> Option<Heard> {
        loop {
            let (from, heard) = tokio::select! {
                biased;
                heard = self.heard.recv() => heard?,
                change = self.session.tab_change() => {
                    let opened = matches!(change, TabChange::Opened { .. });
                    let leaving = self.session.page.raw().target_id().clone();
                    let closed_here = change == TabChange::Closed(leaving.clone());
                    if !self.session.follow(change).await {
                        // The person closed the tab the demonstration began in.
                        if closed_here {
                            return Some(Heard::Closed);
                        }
                        continue;
                    }
                    self.left = Some((leaving, Instant::now()));
                    let page = self.session.page.raw().clone();
                    if opened && let Err(e) = hear(&page, self.tell.clone()).await.map(|t| self.tasks.extend(t)) {
                        tracing::warn!("cannot listen to the new tab: {e}");
                    }
                    let url = page.url().await.ok().flatten().unwrap_or_default();
                    (Some(page.target_id().clone()), Heard::Navigated(url))
                }
            };
            let just_left = |id: &TargetId| {
                self.left.as_ref().is_some_and(|(left, when)| left == id && when.elapsed() < LEFT_GRACE)
            };
            if from.as_ref().is_some_and(|id| id != self.session.page.raw().target_id() && !just_left(id)) {
                continue;
            }
            if let Heard::Navigated(url) = &heard {
                if url == "about:blank" || self.told.as_ref() == Some(url) {
                    continue;
                }
                self.told = Some(url.clone());
            }
            return Some(heard);
        }
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

/// Starts the in-page recorder of a document, reporting through the binding.
fn install() -> String {
    format!("window.__statewright && window.__statewright.record('{BINDING}')")
}

/// Listens to `page`: the acts its documents report and its main frame's navigations, each
/// told with the page it came from.
async fn hear(
    page: &Page,
    tell: mpsc::UnboundedSender<(Option<TargetId>, Heard)>,
) -> Result<Vec<tokio::task::JoinHandle<()>>, chromiumoxide::error::CdpError> {
    page.execute(AddBindingParams::new(BINDING)).await?;
    page.execute(AddScriptToEvaluateOnNewDocumentParams::new(install())).await?;
    // The document already there (a tab followed after it loaded) is told now.
    let _ = page.evaluate_expression(install()).await;
    let mut calls = page.event_listener::<EventBindingCalled>().await?;
    let mut frames = page.event_listener::<EventFrameNavigated>().await?;
    let id = page.target_id().clone();
    let acts = {
        let (tell, id) = (tell.clone(), id.clone());
        tokio::spawn(async move {
            while let Some(call) = calls.next().await {
                if call.name != BINDING {
                    continue;
                }
                // Only a JSON object is an act; anything else the page sends is ignored.
                if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(&call.payload) {
                    let _ = tell.send((Some(id.clone()), Heard::Act(v)));
                }
            }
        })
    };
    let navigations = tokio::spawn(async move {
        while let Some(event) = frames.next().await {
            if event.frame.parent_id.is_none() {
                let _ = tell.send((Some(id.clone()), Heard::Navigated(event.frame.url.clone())));
            }
        }
    });
    Ok(vec![acts, navigations])
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use statewright_demo::{Site, SiteServer};
    use statewright_workflow::MouseButton;

    use super::*;

    /// Clicks the element showing `text` in the recorded tab, as a person does: input events
    /// at a point of it.
    async fn person_clicks(recording: &Recording, text: &str) {
        let page = &recording.session.page;
        let args = [json!({"text": text}), json!({"timeoutMs": 5000, "hitTest": true})];
        let at = page.call("actionable", &args, Duration::from_secs(10)).await.expect("the page answers");
        let (x, y) = (at["x"].as_f64(), at["y"].as_f64());
        let (Some(x), Some(y)) = (x, y) else { panic!("{text} is not there to click: {at}") };
        // A popup that closes itself in answer never acknowledges the click's input.
        tokio::select! {
            sent = crate::input::click(page.raw(), x, y, MouseButton::Left, 1) => sent.expect("the click is sent"),
            () = recording.session.page_closed() => {}
        }
    }

    /// What is heard until the page at `path` is told, in short: `act <description>` and
    /// `page <path>`.
    async fn hear_until_page(recording: &mut Recording, path: &str) -> Vec<String> {
        let mut heard = Vec::new();
        loop {
            let next = tokio::time::timeout(Duration::from_secs(10), recording.next()).await;
            let Ok(Some(next)) = next else { panic!("{path} was not told; heard {heard:?}") };
            let short = match next {
                Heard::Act(act) => format!("act {}", act["description"].as_str().unwrap_or("?")),
                Heard::Navigated(url) => format!("page {}", url.rsplit('/').next().unwrap_or_default()),
                Heard::Closed => panic!("the tab closed; heard {heard:?}"),
            };
            let done = short == format!("page {path}");
            heard.push(short);
            if done {
                return heard;
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_demonstration_follows_a_new_tab_and_a_popup_that_closes_itself() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let server = SiteServer::start(Site::Dir(fixtures), 0).await.expect("serve fixtures");
        let mut recording = Recording::start(&LaunchOptions::default()).await.expect("Chromium launches");
        recording.open(&format!("{}/tabs.html", server.url())).await.expect("the first page opens");
        assert_eq!(hear_until_page(&mut recording, "tabs.html").await, ["page tabs.html"]);

        person_clicks(&recording, "Open your account").await;
        let heard = hear_until_page(&mut recording, "tabs-account.html").await;
        assert_eq!(heard, ["act a \"Open your account\"", "page tabs-account.html"]);
        person_clicks(&recording, "Sign in with a popup").await;
        let heard = hear_until_page(&mut recording, "tabs-popup.html").await;
        assert_eq!(heard, ["act button \"Sign in with a popup\"", "page tabs-popup.html"]);
        // The popup tells its opener and closes itself: the person is back on the account.
        person_clicks(&recording, "Allow").await;
        let heard = hear_until_page(&mut recording, "tabs-account.html").await;
        assert_eq!(heard, ["act button \"Allow\"", "page tabs-account.html"]);
        let page = recording.snapshot().await.expect("the account tab is there");
        assert!(page["text"].as_str().is_some_and(|t| t.contains("Signed in")), "{page}");
        recording.close().await;
    }
}
