//! Hearing what a person does in a tab, for `statewright record`: the in-page library's
//! `record()` reports each act through a DevTools binding, installed on every new document
//! so it survives navigations; navigations themselves come from the page's frame events
//! (`listen.rs` hears one tab; this module follows the person across tabs).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::target::TargetId;
use serde_json::Value;
use tokio::sync::mpsc;

use statewright_workflow::TabSelector;

use crate::ChromeError;
use crate::driver::{CALL_BUDGET, ChromeDriver};
use crate::page::PageHandle;
use crate::session::{LaunchOptions, Session};
use crate::tabs::TabChange;

mod downloads;
mod frames;
mod listen;
use downloads::hear_downloads;
use listen::{hear, install};

/// What the tab reported.
#[derive(Debug, Clone)]
pub enum Heard {
    /// One act, as the in-page library reports it: `{kind, page, target, alternatives, …}`.
    Act(Value),
    /// The main frame went to another document.
    Navigated(String),
    /// The document changed its own address (a single-page application's route, a
    /// fragment): its script did, so the acts replayed do it again.
    Routed(String),
    /// The person went back (the Back button, Alt+←) to `url`, from the page `from` (its
    /// address, and its title when it could still say it): to the document before, or to
    /// the route before in the same document.
    WentBack { url: String, from: (String, String) },
    /// The person went to another of the recording's tabs: they acted in a tab left behind,
    /// or closed the tab in use (`closed`), and the one before is in use again. `tab` names
    /// it as `switch_tab` does; `url` is its address. (A tab that closes itself in answer to
    /// their act, a popup's *Allow*, is `Navigated` to the tab before: the act replayed
    /// closes it again.)
    Switched { tab: TabSelector, closed: bool, url: String },
    /// The browser began a download from `url`, which the site names `name`: the act just
    /// before (a click on *Export*) started it, or the page did on its own.
    Downloaded { url: String, name: String },
    /// The tab is gone (closed by the person, or the browser quit).
    Closed,
}

/// What a tab told, and when: the recording is read later than it happens (writing an act
/// down takes its screenshot), and what caused what is judged by when it happened.
type News = (Option<TargetId>, Heard, Instant);

/// A tab being recorded.
pub struct Recording {
    session: Session,
    heard: mpsc::UnboundedReceiver<News>,
    tell: mpsc::UnboundedSender<News>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// The last address told, so a tab followed and its own navigation say it once.
    told: Option<String>,
    /// The tab the person left last: its acts from before are still told as they come.
    left: Option<Left>,
    /// What is to be told before anything more is heard, in order.
    queue: VecDeque<News>,
    /// The tab of the last act told, and when.
    acted: Option<(TargetId, Instant)>,
}

/// How long after the recording moved to another tab an act of the one left is taken as done
/// before, when the tab could not say how many acts it had reported.
const LEFT_GRACE: Duration = Duration::from_secs(1);

/// How long one try at an act's screenshot may take (as a run's step's, observe.rs).
const SCREENSHOT_BUDGET: Duration = Duration::from_secs(2);

/// How long the act a tab closed in answer to may lag behind the news of its closing. The
/// page reports the act before it closes, but the report and the closing reach us on different
/// paths: on a busy machine the report was once more than 300 ms behind. Waiting longer only
/// tells a tab the person closed a moment later.
const ACT_BEHIND_CLOSING: Duration = Duration::from_secs(1);

/// How soon after the person's act in a tab it may close itself in answer (a popup's
/// *Allow* sends a request first, then closes).
const CLOSED_IN_ANSWER: Duration = Duration::from_secs(2);

/// A tab the recording moved away from: when, and how many acts its document had reported
/// by then. An act it reports later is the person's, who came back to it.
struct Left {
    page: TargetId,
    at: Instant,
    mark: Option<Mark>,
}

/// How far a document's reports had got: its time origin and the number of the last one.
#[derive(Clone, Copy, serde::Deserialize)]
struct Mark {
    doc: f64,
    seq: u64,
}

impl Left {
    async fn now(page: &PageHandle) -> Left {
        let asked = page.call("recorded", &[], Duration::from_secs(1)).await;
        let mark = asked.ok().and_then(|v| serde_json::from_value(v).ok());
        Left { page: page.raw().target_id().clone(), at: Instant::now(), mark }
    }

    /// Whether `heard`, from `page`, was done before the person left it.
    fn before(&self, page: &TargetId, heard: &Heard) -> bool {
        if *page != self.page {
            return false;
        }
        let told = match heard {
            Heard::Act(act) => act["doc"].as_f64().zip(act["seq"].as_u64()).map(|(doc, seq)| Mark { doc, seq }),
            _ => None,
        };
        match (self.mark, told) {
            (Some(left), Some(act)) => act.doc == left.doc && act.seq <= left.seq,
            // A page that could not say (it was between documents): by the time it arrives.
            _ => self.at.elapsed() < LEFT_GRACE,
        }
    }
}

impl Recording {
    /// Opens a tab (in a launched browser, or a new one in the browser at `cdp_url`) and
    /// starts listening; nothing is heard until [`Recording::open`].
    pub async fn start(options: &LaunchOptions) -> Result<Recording, ChromeError> {
        let mut session = Session::start(options).await?;
        let page = session.page.raw().clone();
        let (tell, heard) = mpsc::unbounded_channel();
        let mut tasks = hear(&session.page, tell.clone())
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
                let _ = tell.send((None, Heard::Closed, Instant::now()));
            })
        };
        tasks.push(liveness);
        // A headless browser launched here has no person to keep the files.
        if options.cdp_url.is_none() && !options.headed {
            session.downloads = tempfile::Builder::new().prefix("statewright-downloads-").tempdir().ok();
        }
        let folder = session.downloads.as_ref().map(|f| f.path());
        match hear_downloads(&session.browser, folder, tell.clone()).await {
            Ok(task) => tasks.push(task),
            Err(e) => tracing::warn!("cannot hear downloads (a download will be recorded as a click): {e}"),
        }
        Ok(Recording { session, heard, tell, tasks, told: None, left: None, queue: VecDeque::new(), acted: None })
    }

    /// Goes to `url` (the recording's first page).
    pub async fn open(&self, url: &str) -> Result<(), String> {
        let page = self.session.page.raw();
        tokio::time::timeout(Duration::from_secs(30), page.goto(url))
            .await
            .map_err(|_| format!("{url} did not load within 30 s"))?
            .map_err(|e| format!("cannot open {url}: {e}"))?;
        // The document that was already loading when the script was added gets it now.
        let _ = self.session.page.evaluate(&install(), CALL_BUDGET).await;
        Ok(())
    }

    /// The next thing heard; `None` once nothing more can be. A tab the recorded page opens
    /// is followed, as a run follows it (tabs.rs): what the person does there is heard. When
    /// they act in a tab left behind, they went back to it, and so does the recording.
    /// With it, when it happened.
    pub async fn next(&mut self) -> Option<(Heard, Instant)> {
        loop {
            let (from, heard, at) = match self.queue.pop_front() {
                Some(queued) => queued,
                None => tokio::select! {
                    biased;
                    heard = self.heard.recv() => heard?,
                    change = self.session.tab_change() => match self.moved(change).await {
                        true => continue,
                        false => return Some((Heard::Closed, Instant::now())),
                    },
                },
            };
            let earlier = |id: &TargetId| self.left.as_ref().is_some_and(|left| left.before(id, &heard));
            let here = self.session.page.raw().target_id().clone();
            if let Some(id) = from.clone().filter(|id| *id != here && !earlier(id)) {
                // An act there is the person's, who went back to that tab; a navigation there
                // (a timer's) is not.
                let Heard::Act(act) = &heard else { continue };
                let seen = |key: &str| act["page"][key].as_str().unwrap_or_default().to_owned();
                let (title, url) = (seen("title"), seen("url"));
                let leaving = self.session.page.clone();
                let Some(tab) = self.session.take_up(&id, &title, &url).await else { continue };
                self.left = Some(Left::now(&leaving).await);
                self.queue.push_front((Some(id.clone()), heard, at));
                self.queue.push_front((Some(id), Heard::Switched { tab, closed: false, url }, at));
                continue;
            }
            match &heard {
                Heard::Act(_) => self.acted = from.map(|id| (id, at)),
                Heard::Navigated(url) if url == "about:blank" || self.told.as_ref() == Some(url) => continue,
                Heard::Navigated(url) | Heard::WentBack { url, .. } | Heard::Switched { url, .. } => {
                    self.told = Some(url.clone())
                }
                Heard::Routed(_) | Heard::Downloaded { .. } | Heard::Closed => {}
            }
            return Some((heard, at));
        }
    }

    /// Follows a change of the browser's tabs, queueing what is to be told of it; false when
    /// the tab the demonstration began in closed.
    async fn moved(&mut self, change: TabChange) -> bool {
        let told = tokio::time::Instant::now();
        let opened = matches!(change, TabChange::Opened { .. });
        let left = self.session.page.clone();
        let leaving = left.raw().target_id().clone();
        let closed_here = change == TabChange::Closed(leaving.clone());
        if !self.session.follow(change).await {
            return !closed_here;
        }
        self.left = Some(match closed_here {
            // Only what was on its way when it closed can still come.
            true => Left { page: leaving.clone(), at: Instant::now(), mark: None },
            false => Left::now(&left).await,
        });
        let tab = self.session.page.clone();
        if opened && let Err(e) = hear(&tab, self.tell.clone()).await.map(|t| self.tasks.extend(t)) {
            tracing::warn!("cannot listen to the new tab: {e}");
        }
        let page = tab.raw();
        let url = page.url().await.ok().flatten().unwrap_or_default();
        // Acts done before the change (the click that opened the tab) may have arrived while
        // it was followed: they are told first, what the new page told after.
        let mut later = Vec::new();
        let here = page.target_id().clone();
        let mut sort = |queue: &mut VecDeque<_>, item: News| match item.0.as_ref() == Some(&here) {
            true => later.push(item),
            false => queue.push_back(item),
        };
        while let Ok(heard) = self.heard.try_recv() {
            sort(&mut self.queue, heard);
        }
        let acted_there = |(id, at): &(TargetId, Instant)| *id == leaving && at.elapsed() < CLOSED_IN_ANSWER;
        let act_there = |(from, heard, _): &News| from.as_ref() == Some(&leaving) && matches!(heard, Heard::Act(_));
        let mut answered = self.acted.as_ref().is_some_and(acted_there) || self.queue.iter().any(act_there);
        if closed_here && !answered {
            // The act a tab closed in answer to can arrive after the news of its closing.
            let until = told + ACT_BEHIND_CLOSING;
            while let Ok(Some(heard)) = tokio::time::timeout_at(until, self.heard.recv()).await {
                answered |= act_there(&heard);
                sort(&mut self.queue, heard);
                if answered {
                    break;
                }
            }
        }
        let news = match closed_here && !answered {
            true => Heard::Switched { tab: TabSelector::default(), closed: true, url },
            false => Heard::Navigated(url),
        };
        self.queue.push_back((Some(page.target_id().clone()), news, Instant::now()));
        self.queue.extend(later);
        true
    }

    /// The page as it is now (`{url, title, text, elements}`), if the tab is still there.
    pub async fn snapshot(&self) -> Option<Value> {
        let args = [Value::from(20_000)];
        let call = self.session.page.call("snapshot", &args, Duration::from_secs(5));
        tokio::time::timeout(Duration::from_secs(5), call).await.ok()?.ok()
    }

    /// A JPEG of the tab as it is now.
    pub async fn screenshot(&self) -> Option<Vec<u8>> {
        // One more try: a capture asked for while the page is being replaced fails, or waits
        // for a frame of the page to come; the recording reads on only once it has its act's.
        for _ in 0..2 {
            let shot = ChromeDriver::screenshot_jpeg(self.session.page.raw());
            if let Ok(Ok(bytes)) = tokio::time::timeout(SCREENSHOT_BUDGET, shot).await {
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

#[cfg(test)]
mod tests;
