//! Pages the run's page opens: a link with `target="_blank"`, `window.open`. A person's
//! attention goes to the new tab, and so does the run: that page becomes the run's page
//! (the one that opened it stays open behind it), and when it closes itself (a sign-in
//! popup that reports back to its opener) the run returns to the page that opened it.
//! A tab the page opens on its own (an advertisement, a pop-under on a timer) is not
//! followed: the page opened it with no user gesture (`Page.windowOpen` says so), or long
//! after the run's last input. A `switch_tab` action moves the run between its tabs by name.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chromiumoxide::Browser;
use chromiumoxide::cdp::browser_protocol::page::EventWindowOpen;
use chromiumoxide::cdp::browser_protocol::target::{
    EventTargetCrashed, EventTargetCreated, EventTargetDestroyed, GetTargetInfoParams, TargetId, TargetInfo,
};
use futures::StreamExt;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use statewright_engine::OpenTab;
use statewright_workflow::TabSelector;

use crate::address::mask_url;
use crate::page::PageHandle;
use crate::session::{Session, install_library};

/// Which tabs opened by the run's page the session follows.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Following {
    /// Every one: a person is at the browser, and their attention is where they look.
    Every,
    /// One opened within `OPENED_BY_INPUT` of the run's last input: a tab the page opens on
    /// its own (an advertisement on load, a timer) is not the run's doing, and the run stays
    /// where it was.
    AfterInput(Option<Input>),
}

/// The run's last input that may open a tab.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Input {
    at: Instant,
    /// Made by script (a `<select>`'s choice): the page's handlers see no user gesture, so
    /// a tab they open in answer carries none either.
    scripted: bool,
}

impl Input {
    pub(crate) fn now(scripted: bool) -> Self {
        Self { at: Instant::now(), scripted }
    }
}

/// How long after the run's input a tab it opened may appear (a popup opened once a
/// request answered).
const OPENED_BY_INPUT: Duration = Duration::from_secs(5);

impl Following {
    fn allows(self) -> bool {
        match self {
            Following::Every => true,
            Following::AfterInput(input) => input.is_some_and(|input| input.at.elapsed() < OPENED_BY_INPUT),
        }
    }

    /// Whether a tab opened with no user gesture may still be the run's doing.
    fn without_gesture(self) -> bool {
        matches!(self, Following::AfterInput(Some(input)) if input.scripted)
    }
}

/// How long before the browser announces a tab the page's word of opening it may come: the
/// page tells it first, on its own session.
const OPENING_TOLD: Duration = Duration::from_secs(1);
/// How long after: the two are heard by different listeners.
const OPENING_LATE: Duration = Duration::from_millis(300);
/// How many openings of a page not yet matched to a tab are kept.
const OPENINGS_KEPT: usize = 20;

/// What a page told of the windows it opened (`Page.windowOpen`), oldest first: when, and
/// whether a user gesture (a click, a key; a person's, or the run's input) opened it. A
/// page's script keeps a gesture for a few seconds (Chromium's transient activation), so a
/// popup opened once a sign-in request answered has one; a timer of a page that nobody
/// touched since it loaded, an advertisement's, has none.
#[derive(Clone, Default)]
pub(crate) struct Openings(Arc<Mutex<VecDeque<(Instant, bool)>>>);

impl Openings {
    /// Hears `page`'s openings for as long as it is open.
    pub(crate) async fn hear(self, page: chromiumoxide::Page) {
        let Ok(mut opened) = page.event_listener::<EventWindowOpen>().await else { return };
        while let Some(event) = opened.next().await {
            let mut heard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            if heard.len() == OPENINGS_KEPT {
                heard.pop_front();
            }
            heard.push_back((Instant::now(), event.user_gesture));
        }
    }

    /// Whether a gesture opened the tab the browser announced at `announced`: the page's
    /// oldest opening told about then, in order (a second popup's word comes after the
    /// first's). None when no word of it was heard: the run judges by time alone.
    async fn gesture(&self, announced: Instant) -> Option<bool> {
        loop {
            {
                let mut heard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
                // Older ones opened no tab of this page's (a popup the browser blocked, say).
                while heard.front().is_some_and(|(at, _)| *at + OPENING_TOLD < announced) {
                    heard.pop_front();
                }
                match heard.front() {
                    Some(&(at, gesture)) if at <= announced + OPENING_LATE => {
                        heard.pop_front();
                        return Some(gesture);
                    }
                    // Told of a later tab.
                    Some(_) => return None,
                    None => {}
                }
            }
            if announced.elapsed() >= OPENING_LATE {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// Something that happened to the browser's pages, ours or not (a shared browser has the
/// pages of other runs too): the session picks what concerns its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TabChange {
    /// With when the browser announced it.
    Opened {
        page: TargetId,
        opener: TargetId,
        at: Instant,
    },
    Closed(TargetId),
}

/// Listens to the browser for pages opened by another page, pages closed, and pages whose
/// renderer died.
pub(crate) struct TabWatch {
    sender: broadcast::Sender<TabChange>,
    changes: broadcast::Receiver<TabChange>,
    /// The pages whose renderer process ended (killed for memory, crashed), with how, as the
    /// browser told it: a call into one is never answered.
    crashed: Arc<Mutex<HashMap<TargetId, String>>>,
    tasks: [JoinHandle<()>; 3],
}

impl TabWatch {
    pub(crate) async fn start(browser: &Browser) -> Result<Self, String> {
        let mut created = browser.event_listener::<EventTargetCreated>().await.map_err(|e| e.to_string())?;
        let mut destroyed = browser.event_listener::<EventTargetDestroyed>().await.map_err(|e| e.to_string())?;
        let mut crashes = browser.event_listener::<EventTargetCrashed>().await.map_err(|e| e.to_string())?;
        let (tx, changes) = broadcast::channel(256);
        let opened = {
            let tx = tx.clone();
            tokio::spawn(async move {
                while let Some(event) = created.next().await {
                    let info = &event.target_info;
                    if let (true, Some(opener)) = (info.r#type == "page", &info.opener_id) {
                        let (page, opener) = (info.target_id.clone(), opener.clone());
                        let _ = tx.send(TabChange::Opened { page, opener, at: Instant::now() });
                    }
                }
            })
        };
        let closed = tokio::spawn({
            let tx = tx.clone();
            async move {
                while let Some(event) = destroyed.next().await {
                    let _ = tx.send(TabChange::Closed(event.target_id.clone()));
                }
            }
        });
        let crashed = Arc::new(Mutex::new(HashMap::new()));
        let heard = tokio::spawn({
            let crashed = Arc::clone(&crashed);
            async move {
                while let Some(event) = crashes.next().await {
                    let how = format!("{} (code {})", event.status, event.error_code);
                    crashed.lock().unwrap_or_else(PoisonError::into_inner).insert(event.target_id.clone(), how);
                }
            }
        });
        Ok(Self { sender: tx, changes, crashed, tasks: [opened, closed, heard] })
    }

    /// How the renderer of page `id` ended, when it did.
    pub(crate) fn crashed(&self, id: &TargetId) -> Option<String> {
        self.crashed.lock().unwrap_or_else(PoisonError::into_inner).get(id).cloned()
    }

    /// The next change already heard, without waiting.
    pub(crate) fn try_next(&mut self) -> Option<TabChange> {
        loop {
            match self.changes.try_recv() {
                Ok(change) => return Some(change),
                // Changes of a busy shared browser's other pages, dropped while nobody read.
                Err(TryRecvError::Lagged(_)) => continue,
                Err(_) => return None,
            }
        }
    }

    /// The next change; never, once the browser has gone.
    pub(crate) async fn next(&mut self) -> TabChange {
        next_of(&mut self.changes).await
    }

    /// Resolves when the page `id` closes; never, if it does not.
    pub(crate) fn closed(&self, id: TargetId) -> impl Future<Output = ()> + Send + 'static {
        let mut changes = self.sender.subscribe();
        async move { while next_of(&mut changes).await != TabChange::Closed(id.clone()) {} }
    }
}

async fn next_of(changes: &mut broadcast::Receiver<TabChange>) -> TabChange {
    loop {
        match changes.recv().await {
            Ok(change) => return change,
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => return std::future::pending().await,
        }
    }
}

impl Drop for TabWatch {
    fn drop(&mut self) {
        self.tasks.iter().for_each(JoinHandle::abort);
    }
}

/// How many of the tabs a page opened on its own are remembered for `switch_tab` (a page
/// that keeps opening advertisements must not grow the run's memory).
const STRAYS_KEPT: usize = 20;

/// How much of another tab's address and title is kept for a model or a person.
const MAX_URL_CHARS: usize = 2_000;
const MAX_TITLE_CHARS: usize = 300;

/// How long a tab opened blank may take to go to its page before the run gives up on it:
/// as long as a tab opened by the run's input may take to appear.
const FIRST_NAVIGATION: Duration = OPENED_BY_INPUT;

/// A tab's address before its first navigation (an empty one while it is being made).
fn is_blank(url: &str) -> bool {
    url.is_empty() || url == "about:blank"
}

/// How long a new tab may take to be attached and show its library.
const FOLLOW_BUDGET: Duration = Duration::from_secs(10);
/// How long the news that a page closed may lag behind a failed call into it.
const CLOSING_NEWS: Duration = Duration::from_secs(1);

impl Session {
    /// Follows what the run's page opened or closed since last asked; true when the run's
    /// page changed.
    pub(crate) async fn follow_tabs(&mut self) -> bool {
        let mut moved = false;
        while let Some(change) = self.tabs.as_mut().and_then(TabWatch::try_next) {
            moved |= self.follow(change).await;
        }
        moved
    }

    /// How the renderer of the run's current page ended, when it did.
    pub(crate) fn page_crashed(&self) -> Option<String> {
        self.tabs.as_ref()?.crashed(self.page.raw().target_id())
    }

    /// Resolves when the run's current page closes.
    pub(crate) fn page_closed(&self) -> impl Future<Output = ()> + Send + 'static {
        let watch = self.tabs.as_ref().map(|tabs| tabs.closed(self.page.raw().target_id().clone()));
        async move {
            match watch {
                Some(closed) => closed.await,
                None => std::future::pending().await,
            }
        }
    }

    /// After a call into the page failed: whether the page had closed and the run went back
    /// to the one it was on before. The browser's news of the closing may come just after.
    pub(crate) async fn moved_back(&mut self) -> bool {
        if self.follow_tabs().await {
            return true;
        }
        if self.behind.is_empty() {
            return false;
        }
        match tokio::time::timeout(CLOSING_NEWS, self.tab_change()).await {
            Ok(change) => self.follow(change).await,
            Err(_) => false,
        }
    }

    /// Waits for a change of the browser's pages that concerns this run.
    pub(crate) async fn tab_change(&mut self) -> TabChange {
        let Some(tabs) = self.tabs.as_mut() else { return std::future::pending().await };
        loop {
            let change = tabs.next().await;
            let concerns = match &change {
                TabChange::Opened { opener, .. } => opener == self.page.raw().target_id(),
                TabChange::Closed(id) => {
                    id == self.page.raw().target_id()
                        || self.behind.iter().any(|p| p.raw().target_id() == id)
                        || self.strays.contains(id)
                }
            };
            if concerns {
                return change;
            }
        }
    }

    /// Applies a change; true when the run's page changed.
    pub(crate) async fn follow(&mut self, change: TabChange) -> bool {
        let current = self.page.raw().target_id().clone();
        match change {
            TabChange::Opened { page, opener, at } if opener == current && !self.opened_by_input(at).await => {
                self.keep_stray(page);
                false
            }
            TabChange::Opened { page, opener, .. } if opener == current && !self.went_somewhere(&page).await => {
                tracing::warn!(
                    "the page opened a blank tab that went nowhere within {FIRST_NAVIGATION:?}; the run stays where it was"
                );
                self.keep_stray(page);
                false
            }
            TabChange::Opened { page, opener, .. } if opener == current => match self.open_followed(page).await {
                Ok(followed) => {
                    tracing::info!("the page opened a new tab; the run goes on in it");
                    let left = std::mem::replace(&mut self.page, followed);
                    self.behind.push(left);
                    true
                }
                Err(e) => {
                    tracing::warn!("the page opened a new tab the run cannot follow: {e}");
                    false
                }
            },
            TabChange::Closed(id) if id == current => match self.behind.pop() {
                Some(previous) => {
                    tracing::info!("the run's tab closed itself; the run goes back to the tab it was on before");
                    self.page = previous;
                    true
                }
                None => false,
            },
            TabChange::Closed(id) => {
                self.behind.retain(|p| *p.raw().target_id() != id);
                self.strays.retain(|stray| *stray != id);
                false
            }
            TabChange::Opened { .. } => false,
        }
    }

    /// Whether the tab the run's page opened, announced at `at`, answers the run's input (or,
    /// recording, the person's): opened soon after it, and with a user gesture.
    async fn opened_by_input(&self, at: Instant) -> bool {
        if !self.following.allows() {
            tracing::info!("the page opened a tab on its own; the run stays where it was");
            return false;
        }
        let gesture = self.page.openings().gesture(at).await;
        if gesture == Some(false) && !self.following.without_gesture() {
            tracing::info!("the page opened a tab with no user gesture (on a timer, say); the run stays where it was");
            return false;
        }
        true
    }

    fn keep_stray(&mut self, page: TargetId) {
        if self.strays.len() == STRAYS_KEPT {
            self.strays.remove(0);
        }
        self.strays.push(page);
    }

    /// Whether a tab just opened shows a page, waiting up to `FIRST_NAVIGATION` for it to
    /// leave `about:blank`: a sign-in or payment popup is often opened blank and sent to its
    /// address once a request answers (`window.open('')`, then `w.location = …`). Followed
    /// while blank, it would be taken for the run's start (`url = about:blank`) and sent to
    /// the start page.
    async fn went_somewhere(&self, id: &TargetId) -> bool {
        let deadline = tokio::time::Instant::now() + FIRST_NAVIGATION;
        loop {
            match self.tab_info(id.clone()).await {
                Some(info) if !is_blank(&info.url) => return true,
                // Still blank, or not told of (closed already, say).
                _ if tokio::time::Instant::now() >= deadline => return false,
                _ => tokio::time::sleep(Duration::from_millis(25)).await,
            }
        }
    }

    async fn open_followed(&mut self, id: TargetId) -> Result<PageHandle, String> {
        // The browser attaches to a new tab a moment after announcing it.
        let deadline = tokio::time::Instant::now() + FOLLOW_BUDGET;
        let page = loop {
            match self.browser.get_page(id.clone()).await {
                Ok(page) => break page,
                Err(_) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => return Err(format!("it was not attached within {FOLLOW_BUDGET:?}: {e}")),
            }
        };
        let page = PageHandle::new(page);
        tokio::time::timeout(FOLLOW_BUDGET, install_library(&page))
            .await
            .map_err(|_| format!("its page did not take the library within {FOLLOW_BUDGET:?}"))?
            .map_err(|e| e.to_string())?;
        if !self.dialogs.is_empty() {
            self.dialogs.push(crate::dialog::answer_dialogs(page.raw()).await?);
        }
        Ok(page)
    }
}

/// A tab `switch_tab` may go to: where the session keeps it.
#[derive(Debug, Clone, Copy)]
enum Other {
    Behind(usize),
    Stray(usize),
}

impl Session {
    /// `switch_tab`: makes the tab `wanted` names (with nothing named, the one the run was on
    /// before) the run's page, and closes the one it leaves if asked. Returns what happened.
    pub(crate) async fn switch_tab(&mut self, wanted: &TabSelector, close: bool) -> Result<String, String> {
        self.follow_tabs().await;
        let other = match wanted.is_empty() {
            true => {
                self.behind.len().checked_sub(1).map(Other::Behind).ok_or("the run has no other tab to go back to")?
            }
            false => match self.find_tab(wanted).await? {
                Some(other) => other,
                None => return Ok("already on that tab".into()),
            },
        };
        self.move_to(other, close).await
    }

    /// Makes `id`, a tab left behind, the page again, as a person who went back to it does,
    /// and says how `switch_tab` names it: the tab before, or by its `title` (or `url`) as
    /// the person saw it. None when it is no tab of this session's.
    pub(crate) async fn take_up(&mut self, id: &TargetId, title: &str, url: &str) -> Option<TabSelector> {
        let i = self.behind.iter().position(|p| p.raw().target_id() == id)?;
        let tab = match i + 1 == self.behind.len() {
            true => TabSelector::default(),
            false => TabSelector::naming(title, url),
        };
        // The tab may already have closed in answer to the act (a popup's *Allow*): the
        // person was there all the same.
        if let Err(e) = self.move_to(Other::Behind(i), false).await {
            tracing::debug!("the tab the person went back to: {e}");
        }
        Some(tab)
    }

    async fn move_to(&mut self, other: Other, close: bool) -> Result<String, String> {
        let page = match other {
            Other::Behind(i) => self.behind.remove(i),
            Other::Stray(i) => {
                let id = self.strays.remove(i);
                self.open_followed(id).await.map_err(|e| format!("cannot take over the tab: {e}"))?
            }
        };
        // A tab behind another is hidden, and Chromium stops animation frames in hidden pages.
        if let Err(e) = page.raw().bring_to_front().await {
            tracing::debug!("cannot bring the tab to the front: {e}");
        }
        let left = std::mem::replace(&mut self.page, page);
        let keep = !close || self.adopted.as_ref() == Some(left.raw().target_id());
        if close && keep {
            tracing::warn!("the tab the run was given stays open: it is not the run's to close");
        }
        match keep {
            true => self.behind.push(left),
            false => {
                if tokio::time::timeout(FOLLOW_BUDGET, left.raw().clone().close()).await.is_err() {
                    tracing::warn!("the tab left behind did not close within {FOLLOW_BUDGET:?}");
                }
            }
        }
        let url = self.page.raw().url().await.ok().flatten().unwrap_or_default();
        Ok(format!("now on {}", mask_url(&url)))
    }

    /// The most recently used of the run's other tabs that `wanted` names; none when only the
    /// run's own page does.
    async fn find_tab(&self, wanted: &TabSelector) -> Result<Option<Other>, String> {
        let mut seen = Vec::new();
        for (other, id) in self.others() {
            let Some(info) = self.tab_info(id).await else { continue };
            if wanted.matches(&info.url, &info.title) {
                return Ok(Some(other));
            }
            seen.push(format!("{:?} at {}", info.title, mask_url(&info.url)));
        }
        let own = self.tab_info(self.page.raw().target_id().clone()).await;
        if own.is_some_and(|info| wanted.matches(&info.url, &info.title)) {
            return Ok(None);
        }
        Err(match seen.is_empty() {
            true => format!("no tab of the run has {wanted}: the run has no other tab"),
            false => format!("no tab of the run has {wanted}; its other tabs: {}", seen.join(", ")),
        })
    }

    /// The run's other tabs, the one it was on most recently first, as `switch_tab` looks
    /// for them: the tabs it left behind, then those its page opened on its own.
    fn others(&self) -> impl Iterator<Item = (Other, TargetId)> + '_ {
        let behind = self.behind.iter().enumerate().rev().map(|(i, p)| (Other::Behind(i), p.raw().target_id().clone()));
        let strays = self.strays.iter().enumerate().rev().map(|(i, id)| (Other::Stray(i), id.clone()));
        behind.chain(strays)
    }

    /// The run's other tabs as a model or a person chooses between them, in `others` order.
    /// A tab that closed meanwhile is left out.
    pub(crate) async fn other_tabs(&mut self) -> Vec<OpenTab> {
        self.follow_tabs().await;
        let previous = self.behind.len().checked_sub(1);
        let others: Vec<(Other, TargetId)> = self.others().collect();
        // Asked together: each answer is bounded, and so is the whole.
        let infos = futures::future::join_all(others.iter().map(|(_, id)| self.tab_info(id.clone()))).await;
        others
            .iter()
            .zip(infos)
            .filter_map(|((other, _), info)| {
                let info = info?;
                let previous = matches!(other, Other::Behind(i) if Some(*i) == previous);
                // A page sets its own title and address: they are kept to a sensible size.
                let clip = |s: String, n: usize| s.chars().take(n).collect::<String>();
                Some(OpenTab { url: clip(info.url, MAX_URL_CHARS), title: clip(info.title, MAX_TITLE_CHARS), previous })
            })
            .collect()
    }

    async fn tab_info(&self, id: TargetId) -> Option<TargetInfo> {
        let asked = self.browser.execute(GetTargetInfoParams { target_id: Some(id) });
        match tokio::time::timeout(CLOSING_NEWS, asked).await {
            Ok(Ok(reply)) => Some(reply.result.target_info),
            // Closed meanwhile: the news is on its way.
            _ => None,
        }
    }
}
