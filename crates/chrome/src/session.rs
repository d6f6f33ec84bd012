//! Starting and stopping Chromium (or attaching to a running one), and the one page a run
//! works in.

use std::path::PathBuf;
use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::browser::{SetDownloadBehaviorBehavior, SetDownloadBehaviorParams};
use chromiumoxide::cdp::browser_protocol::page::AddScriptToEvaluateOnNewDocumentParams;
use chromiumoxide::cdp::browser_protocol::target::{CreateTargetParams, TargetId};
use chromiumoxide::error::CdpError;
use chromiumoxide::handler::viewport::Viewport;
use chromiumoxide::page::Page;
use futures::StreamExt;
use tempfile::TempDir;
use tokio::task::JoinHandle;

use crate::ChromeError;
use crate::address::{endpoint_address, mask_url, masked_in};
use crate::driver::CALL_BUDGET;
use crate::guard::Cut;
use crate::page::{LIBRARY, PageHandle, WORLD};
use crate::refusal::Refusal;
use crate::tabs::{Following, TabWatch};

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
    /// With `cdp_url`: drive the tab already open there (to carry on from wherever it is:
    /// `run --resume`, `goto`) instead of opening a new one; it is left open at the end.
    pub adopt_page: bool,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        Self { headed: false, cdp_url: None, executable: None, viewport: (1280, 800), adopt_page: false }
    }
}

/// Flags that keep Chromium quiet and predictable on a closed network and in containers,
/// as chromiumoxide takes them: a name without its dashes, values after it (it writes
/// `--name=values`, merging values given for the same name).
///
/// In place of chromiumoxide's defaults (Puppeteer's), which are these less
/// `disable-ipc-flooding-protection`: without Chromium's protection, a page that sets its
/// address thousands of times a second (a router stuck in a loop) floods the browser process
/// until it answers nothing, failing its run and every run sharing that browser. A person's
/// browser throttles such a page, and so does the run's.
const FLAGS: &[(&str, &[&str])] = &[
    ("disable-gpu", &[]),
    ("disable-background-networking", &[]),
    ("disable-component-update", &[]),
    ("disable-sync", &[]),
    ("no-first-run", &[]),
    ("disable-quic", &[]),
    ("no-default-browser-check", &[]),
    ("disable-features", &["Translate", "MediaRouter", "OptimizationHints", "TranslateUI"]),
    // No first window: its tab would load the New Tab Page, a heavy WebUI, beside the run's
    // own tab (which is opened over CDP), costing CPU through the launch and the first steps.
    ("no-startup-window", &[]),
    // chromiumoxide's defaults.
    ("enable-features", &["NetworkService", "NetworkServiceInProcess"]),
    ("disable-background-timer-throttling", &[]),
    ("disable-backgrounding-occluded-windows", &[]),
    ("disable-breakpad", &[]),
    ("disable-client-side-phishing-detection", &[]),
    ("disable-component-extensions-with-background-pages", &[]),
    ("disable-default-apps", &[]),
    ("disable-dev-shm-usage", &[]),
    ("disable-hang-monitor", &[]),
    ("disable-popup-blocking", &[]),
    ("disable-prompt-on-repost", &[]),
    ("disable-renderer-backgrounding", &[]),
    ("force-color-profile", &["srgb"]),
    ("metrics-recording-only", &[]),
    ("enable-automation", &[]),
    ("password-store", &["basic"]),
    ("use-mock-keychain", &[]),
    ("enable-blink-features", &["IdleDetection"]),
    ("lang", &["en_US"]),
];

/// A browser and the page of one run. Close it with [`Session::close`]; if it is dropped
/// instead, a launched Chromium is still killed (chromiumoxide sets kill-on-drop).
pub struct Session {
    pub(crate) browser: Browser,
    pub(crate) page: PageHandle,
    /// The run's other pages, which it left for a page they opened or by `switch_tab`: the
    /// one left most recently last (see tabs.rs).
    pub(crate) behind: Vec<PageHandle>,
    /// Tabs the run's page opened on its own, not followed: a `switch_tab` may still pick
    /// one. The latest last, at most `STRAYS_KEPT`.
    pub(crate) strays: Vec<TargetId>,
    /// Pages opened and closed in the browser, when it can tell.
    pub(crate) tabs: Option<TabWatch>,
    /// Which of the tabs the page opens are followed.
    pub(crate) following: Following,
    handler: JoinHandle<()>,
    /// Answer the JavaScript dialogs of the run's pages, in a run (see dialog.rs); none
    /// while a person is at the browser.
    pub(crate) dialogs: Vec<JoinHandle<()>>,
    launched: bool,
    /// Why an attached browser's connection was closed by its guard, if it was.
    pub(crate) cut: Cut,
    /// The tab the user had open, which the run was given: it stays open.
    pub(crate) adopted: Option<TargetId>,
    /// Where the browser saves the run's downloads, once a `download` asked (download.rs);
    /// deleted on drop.
    pub(crate) downloads: Option<TempDir>,
    // Keeps the fresh profile alive for the browser's lifetime; deleted on drop.
    _profile: Option<TempDir>,
}

impl Session {
    pub async fn start(options: &LaunchOptions) -> Result<Self, ChromeError> {
        let began = std::time::Instant::now();
        let (mut browser, handler, profile, cut) = match &options.cdp_url {
            Some(url) => {
                let (browser, handler, cut) = connect(url).await?;
                (browser, handler, None, cut)
            }
            None => {
                let (browser, handler, profile) = launch(options).await?;
                (browser, handler, Some(profile), Cut::default())
            }
        };
        let launched = options.cdp_url.is_none();
        let handler = drive(handler);
        tracing::debug!("browser ready after {:?}", began.elapsed());
        let mut adopted = match (options.adopt_page && !launched).then_some(()) {
            Some(()) => open_tab(&mut browser).await,
            None => None,
        };
        // An attached browser that gives no page is the endpoint's failure, as a refused
        // connection is (a batch's pool tells them from failures inside a run).
        let failed = |what: String| match &options.cdp_url {
            Some(url) => ChromeError::Connect(format!("{}: {}", mask_url(url), cut.explain(what))),
            None => ChromeError::Launch(what),
        };
        let page = match adopted.clone() {
            Some(page) => page,
            // A browser that stops answering must not hang the run (command futures wait 30 s).
            None => tokio::time::timeout(CONNECT_BUDGET, browser.new_page(new_target(launched)))
                .await
                .map_err(|_| failed(format!("the browser did not open a page within {CONNECT_BUDGET:?}")))?
                .map_err(|e| failed(format!("cannot open a page: {e}")))?,
        };
        tracing::debug!("page open after {:?}", began.elapsed());
        let mut page = PageHandle::new(page);
        let mut installed = install_library(&page).await;
        // An open tab can lose the session it was first attached with while the handler
        // attaches to the browser's tabs (seen once, in CI, on a browser just started):
        // the tab is looked up again.
        for _ in 0..2 {
            match &installed {
                Err(ChromeError::Launch(what))
                    if adopted.is_some() && what.contains("Session with given id not found") =>
                {
                    tracing::debug!("the open tab's session went away ({what}); looking it up again");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    adopted = open_tab(&mut browser).await;
                    let Some(again) = adopted.clone() else { break };
                    page = PageHandle::new(again);
                    installed = install_library(&page).await;
                }
                _ => break,
            }
        }
        installed.map_err(|e| match e {
            ChromeError::Launch(what) => failed(what),
            other => other,
        })?;
        tracing::debug!("library installed after {:?}", began.elapsed());
        let adopted = adopted.map(|page| page.target_id().clone());
        let tabs = TabWatch::start(&browser)
            .await
            .inspect_err(|e| tracing::warn!("cannot watch for new tabs (the run will not follow them): {e}"))
            .ok();
        Ok(Self {
            browser,
            page,
            behind: Vec::new(),
            strays: Vec::new(),
            tabs,
            following: Following::Every,
            handler,
            dialogs: Vec::new(),
            launched,
            cut,
            adopted,
            downloads: None,
            _profile: profile,
        })
    }

    /// From now on, answers every JavaScript dialog the page opens (a run does; a person
    /// recording a demonstration answers them in the browser).
    /// Whether the browser itself answers, within `ALIVE_BUDGET`, whatever its pages do.
    pub(crate) async fn answers(&self) -> bool {
        matches!(tokio::time::timeout(ALIVE_BUDGET, self.browser.version()).await, Ok(Ok(_)))
    }

    pub(crate) async fn answer_dialogs(&mut self) -> Result<(), ChromeError> {
        let task = crate::dialog::answer_dialogs(self.page.raw())
            .await
            .map_err(|e| ChromeError::Launch(format!("cannot watch the page's dialogs: {e}")))?;
        self.dialogs.push(task);
        Ok(())
    }

    /// Whether the page is a tab that was open already (it may show anything).
    pub(crate) fn adopted(&self) -> bool {
        self.adopted.is_some()
    }

    /// Closes the page, and the browser if this session launched it.
    pub async fn close(mut self) {
        let began = std::time::Instant::now();
        if self.launched {
            close_launched(&mut self.browser).await;
        } else {
            if self.downloads.is_some() {
                // The browser is someone else's: its downloads go where they went before.
                let restore = SetDownloadBehaviorParams::new(SetDownloadBehaviorBehavior::Default);
                let _ = tokio::time::timeout(Duration::from_secs(5), self.browser.execute(restore)).await;
            }
            // Every page the run opened or followed; a tab the user had open stays.
            let trail = self.behind.iter().chain(std::iter::once(&self.page));
            for page in trail.filter(|page| self.adopted.as_ref() != Some(page.raw().target_id())) {
                let _ = tokio::time::timeout(Duration::from_secs(5), page.raw().clone().close()).await;
            }
        }
        self.dialogs.iter().for_each(JoinHandle::abort);
        self.handler.abort();
        tracing::debug!("browser closed in {:?}", began.elapsed());
    }
}

/// The run's page. In a browser others use too (a pool endpoint running several runs, a
/// person's own browser) it gets a window of its own: a tab behind another is hidden, and
/// Chromium stops animation frames in hidden pages, so a run there waits until its tab
/// comes to the front (seen: four runs in one headless Chromium took turns, 4.7 s to 20.8 s
/// each, instead of running side by side).
fn new_target(launched: bool) -> CreateTargetParams {
    let mut params = CreateTargetParams::new("about:blank");
    if !launched {
        params.new_window = Some(true);
    }
    params
}

/// Launches Chromium with a fresh profile, which lives as long as the returned folder.
pub(crate) async fn launch(options: &LaunchOptions) -> Result<(Browser, chromiumoxide::Handler, TempDir), ChromeError> {
    clean_stale_profiles(&std::env::temp_dir());
    let profile = tempfile::Builder::new()
        .prefix(PROFILE_PREFIX)
        .tempdir()
        .map_err(|e| ChromeError::Launch(format!("cannot create a profile directory: {e}")))?;
    let launched = match Browser::launch(config(options, &profile, true)?).await {
        // A temp folder that may not run programs (`noexec`) stops the launcher
        // script from starting: then Chromium starts directly, without it.
        Err(CdpError::Io(e) | CdpError::LaunchIo(e, _)) => {
            tracing::warn!("cannot start Chromium through its launcher ({e}); starting it directly");
            Browser::launch(config(options, &profile, false)?).await
        }
        launched => launched,
    };
    let (browser, handler) = launched.map_err(|e| ChromeError::Launch(e.to_string()))?;
    Ok((browser, handler, profile))
}

/// Polls the CDP connection for as long as the browser is used (it does nothing otherwise).
/// A WebSocket error ends it: the connection is gone, and chromiumoxide would keep the
/// commands sent meanwhile waiting for their 30 s timeout, where with the handler dropped
/// they fail at once.
pub(crate) fn drive(mut handler: chromiumoxide::Handler) -> JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(event) = handler.next().await {
            match event {
                Err(CdpError::Ws(e)) => {
                    tracing::debug!("the browser's connection is gone: {e}");
                    return;
                }
                Err(e) => tracing::debug!("CDP handler: {e}"),
                Ok(()) => {}
            }
        }
    })
}

/// Closes a Chromium this process launched, killing it if it does not go in time.
pub(crate) async fn close_launched(browser: &mut Browser) {
    if let Err(e) = tokio::time::timeout(Duration::from_secs(5), browser.close()).await {
        tracing::warn!("browser did not close in time: {e}");
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), browser.wait()).await;
    if let Ok(None) = browser.try_wait() {
        let _ = browser.kill().await;
    }
}

/// How long an attached browser's open tabs may take to show up.
const TABS_BUDGET: Duration = Duration::from_secs(3);
/// How long the browser itself may take to say it is there.
const ALIVE_BUDGET: Duration = Duration::from_secs(3);

/// The tab a person has open in an attached browser: the first that shows a web page, else
/// the first at all. `None` when there is none (a new one is opened instead).
async fn open_tab(browser: &mut Browser) -> Option<Page> {
    // Asking for the targets makes the handler attach to the tabs that were already open.
    if let Err(e) = tokio::time::timeout(TABS_BUDGET, browser.fetch_targets()).await.unwrap_or(Ok(Vec::new())) {
        tracing::warn!("cannot list the browser's tabs: {e}");
    }
    let began = tokio::time::Instant::now();
    loop {
        let pages = tokio::time::timeout(TABS_BUDGET, browser.pages()).await.ok()?.ok()?;
        let mut web = None;
        let mut first = None;
        for page in pages {
            let url = tokio::time::timeout(TABS_BUDGET, page.url()).await.ok().and_then(Result::ok).flatten();
            let url = url.unwrap_or_default();
            if url.starts_with("devtools://") || url.starts_with("chrome-extension://") {
                continue;
            }
            if web.is_none() && (url.starts_with("http://") || url.starts_with("https://") || url.starts_with("file:"))
            {
                tracing::debug!("carrying on in the open tab at {url}");
                web = Some(page.clone());
            }
            first.get_or_insert(page);
        }
        if web.is_some() {
            return web;
        }
        // Tabs show up as the handler attaches to them: give a web page a moment to appear
        // before settling for a blank one.
        if first.is_some() && began.elapsed() > Duration::from_millis(500) {
            return first;
        }
        if began.elapsed() >= TABS_BUDGET {
            tracing::warn!("the attached browser has no open tab: opening one");
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How long attaching to a DevTools endpoint may take: the TCP connection, the HTTP
/// version query and the WebSocket handshake together.
const CONNECT_BUDGET: Duration = Duration::from_secs(15);

/// Attaches to `url`, saying what was wrong when it cannot: a malformed URL, nothing
/// listening, or an endpoint that accepts connections and never answers as DevTools does.
async fn connect(url: &str) -> Result<(Browser, chromiumoxide::Handler, Cut), ChromeError> {
    let address = endpoint_address(url)?;
    // The URL may carry a token: errors name it masked (they end up in run records).
    let shown = mask_url(url);
    let tcp = tokio::time::timeout(CONNECT_BUDGET, tokio::net::TcpStream::connect(&address)).await;
    match tcp {
        Err(_) => {
            return Err(ChromeError::Connect(format!("{shown}: no answer from {address} within {CONNECT_BUDGET:?}")));
        }
        Ok(Err(e)) => return Err(ChromeError::Connect(format!("{shown}: cannot connect to {address}: {e}"))),
        Ok(Ok(_probe)) => {}
    }
    // chromiumoxide emulates its default 800×600 viewport in the pages it opens here, not the
    // workflow's: emulating 1280×800 in windows of several runs sharing a browser lost clicks
    // (3 in about 60 runs; none in 160 at the default), so an attached run keeps 800×600.
    let attach = async {
        let masked = |e: Refusal| e.map(|why| masked_in(why, url));
        let ws = match url.starts_with("http") {
            true => crate::version::websocket_url(url).await.map_err(masked)?,
            false => url.to_owned(),
        };
        let (ws, cut) = crate::guard::guard(&ws).await.map_err(masked)?;
        let (browser, handler) = Browser::connect(ws).await.map_err(|e| masked(e.to_string().into()))?;
        Ok::<_, Refusal>((browser, handler, cut))
    };
    match tokio::time::timeout(CONNECT_BUDGET, attach).await {
        Err(_) => Err(ChromeError::Connect(format!(
            "{shown}: {address} accepted the connection but did not answer as a DevTools endpoint within \
             {CONNECT_BUDGET:?}"
        ))),
        Ok(Err(Refusal::Untrusted(why))) => Err(ChromeError::Connect(format!("{shown}: {why}"))),
        Ok(Err(Refusal::Other(e))) => {
            Err(ChromeError::Connect(format!("{shown}: {address} is not a DevTools endpoint ({e})")))
        }
        Ok(Ok(connected)) => Ok(connected),
    }
}

fn executable(options: &LaunchOptions) -> Option<PathBuf> {
    options
        .executable
        .clone()
        .or_else(|| std::env::var_os("STATEWRIGHT_CHROME").map(PathBuf::from))
        .or_else(|| Some(PathBuf::from("/usr/bin/chromium")).filter(|p| p.exists()))
}

/// The launch configuration; `launcher` starts Chromium through the script that makes it
/// die with its parent (see [`dies_with_parent`]).
fn config(options: &LaunchOptions, profile: &TempDir, launcher: bool) -> Result<BrowserConfig, ChromeError> {
    let (width, height) = options.viewport;
    let mut builder = BrowserConfig::builder()
        .user_data_dir(profile.path())
        .window_size(width, height)
        .viewport(Viewport { width, height, ..Viewport::default() })
        .launch_timeout(Duration::from_secs(20))
        .disable_default_args()
        .args(FLAGS.iter().copied());
    if let Some(path) = executable(options) {
        let launcher = if launcher { dies_with_parent(&path, profile.path()) } else { None };
        builder = builder.chrome_executable(launcher.unwrap_or(path));
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

/// Prefix of the fresh profile folders; stale ones are cleaned at the next launch.
const PROFILE_PREFIX: &str = "statewright-profile-";

/// A launcher that makes Chromium die with the process that started it, even one killed
/// with SIGKILL (which runs no clean-up): a two-line script in the profile folder that
/// execs Chromium under `setpriv --pdeathsig KILL`. Without `setpriv`, Chromium is
/// launched directly (and `Drop` still kills it on any ordinary exit).
fn dies_with_parent(chromium: &std::path::Path, profile: &std::path::Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    const SETPRIV: &str = "/usr/bin/setpriv";
    if !std::path::Path::new(SETPRIV).exists() {
        return None;
    }
    let quoted = format!("'{}'", chromium.to_str()?.replace('\'', r"'\''"));
    let script = format!("#!/bin/sh\nexec {SETPRIV} --pdeathsig KILL -- {quoted} \"$@\"\n");
    let path = profile.join("statewright-chromium");
    std::fs::write(&path, script).ok()?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).ok()?;
    Some(path)
}

/// Removes profile folders that no running Chromium uses: none of this machine's processes
/// names the folder on its command line, and it is older than a minute (a run starting
/// right now may not have launched its browser yet).
fn clean_stale_profiles(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let stale: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(PROFILE_PREFIX))
        .filter(|e| {
            e.metadata().and_then(|m| m.modified()).is_ok_and(|t| t.elapsed().is_ok_and(|age| age > PROFILE_GRACE))
        })
        .map(|e| e.path())
        .collect();
    if stale.is_empty() {
        return;
    }
    let in_use = profiles_in_use();
    for path in stale.into_iter().filter(|p| !in_use.iter().any(|used| used == p)) {
        tracing::debug!("removing the stale browser profile {}", path.display());
        let _ = std::fs::remove_dir_all(&path);
    }
}

/// How old a profile folder without a browser must be before it counts as stale.
const PROFILE_GRACE: Duration = Duration::from_secs(60);

/// The `--user-data-dir` of every running process that has one.
fn profiles_in_use() -> Vec<PathBuf> {
    command_lines()
        .into_iter()
        .filter_map(|args| args.iter().find_map(|a| a.strip_prefix("--user-data-dir=").map(PathBuf::from)))
        .collect()
}

/// The arguments of every process this user may read, one list a process (from `/proc`).
fn command_lines() -> Vec<Vec<String>> {
    let Ok(processes) = std::fs::read_dir("/proc") else { return Vec::new() };
    processes
        .flatten()
        .filter_map(|p| std::fs::read(p.path().join("cmdline")).ok())
        .map(|cmdline| cmdline.split(|&b| b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect())
        .collect()
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0")))
        .unwrap_or(false)
}

/// Installs the in-page library into every future document, and into the current one, in
/// its own world ([`WORLD`]).
pub(crate) async fn install_library(page: &PageHandle) -> Result<(), ChromeError> {
    let failed = |e: String| ChromeError::Launch(format!("cannot install the page library: {e}"));
    let script =
        AddScriptToEvaluateOnNewDocumentParams::builder().source(LIBRARY).world_name(WORLD).build().map_err(failed)?;
    page.raw().execute(script).await.map_err(|e| failed(e.to_string()))?;
    page.evaluate(LIBRARY, CALL_BUDGET).await.map_err(|e| failed(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command line of the browser process (not its helpers) using `profile`.
    fn browser_command_line(profile: &std::path::Path) -> Vec<String> {
        let wanted = format!("--user-data-dir={}", profile.display());
        command_lines()
            .into_iter()
            .find(|args| args.contains(&wanted) && !args.iter().any(|a| a.starts_with("--type=")))
            .expect("the launched browser's process")
    }

    #[test]
    fn only_profiles_no_process_names_and_older_than_a_minute_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let profile = |name: &str, age: u64| {
            let path = dir.path().join(format!("{PROFILE_PREFIX}{name}"));
            std::fs::create_dir(&path).unwrap();
            let then = std::time::SystemTime::now() - Duration::from_secs(age);
            std::fs::File::open(&path).unwrap().set_modified(then).unwrap();
            path
        };
        let stale = profile("stale", 120);
        let fresh = profile("fresh", 5);
        let in_use = profile("in-use", 120);
        let other = dir.path().join("someone-elses");
        std::fs::create_dir(&other).unwrap();
        // A process that names the folder on its command line, as a browser does (a shell
        // with more to do after `sleep` keeps its own command line: it cannot exec it).
        let mut browser = std::process::Command::new("sh")
            .args(["-c", "sleep 30; true", &format!("--user-data-dir={}", in_use.display())])
            .spawn()
            .unwrap();
        // Until `sh` has exec'd, the forked child still shows this test's command line: wait
        // for the folder to be named there, as it is in a browser that is running.
        let named = format!("--user-data-dir={}", in_use.display());
        let cmdline = format!("/proc/{}/cmdline", browser.id());
        let began = std::time::Instant::now();
        while !std::fs::read(&cmdline).is_ok_and(|b| b.split(|&c| c == 0).any(|a| a == named.as_bytes())) {
            assert!(began.elapsed() < Duration::from_secs(10), "sh never showed its command line");
            std::thread::sleep(Duration::from_millis(10));
        }
        clean_stale_profiles(dir.path());
        browser.kill().unwrap();
        browser.wait().unwrap();
        assert!(!stale.exists(), "an old profile no process uses is removed");
        assert!(fresh.exists() && in_use.exists() && other.exists());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_launched_browser_gets_the_flags_as_written_and_opens_only_the_runs_tab() {
        let mut session = Session::start(&LaunchOptions::default()).await.expect("Chromium starts");
        let profile = session._profile.as_ref().expect("a launched browser's profile").path().to_owned();
        let args = browser_command_line(&profile);
        // chromiumoxide adds the dashes: flags written with them went in as `----name`, which
        // Chromium ignores.
        assert!(!args.iter().any(|a| a.starts_with("----")), "{args:?}");
        for flag in ["--no-startup-window", "--disable-gpu", "--disable-quic"] {
            assert!(args.iter().any(|a| a == flag), "{flag} in {args:?}");
        }
        assert!(!args.iter().any(|a| a == "--disable-ipc-flooding-protection"), "{args:?}");
        let features = args.iter().find(|a| a.starts_with("--disable-features=")).expect("--disable-features");
        assert!(features.contains("MediaRouter") && features.contains("TranslateUI"), "merged: {features}");
        // Without a first window, the only page is the run's: no New Tab Page loads beside it.
        let targets = session.browser.fetch_targets().await.expect("targets");
        let pages: Vec<&str> = targets.iter().filter(|t| t.r#type == "page").map(|t| t.url.as_str()).collect();
        assert_eq!(pages, ["about:blank"], "{targets:#?}");
        session.close().await;
    }
}
