//! `download`: clicking what downloads a file, and keeping the file as the action's artifact
//! (the run's folder, under the name the workflow gave it; the name the site suggests is only
//! reported). The browser saves downloads under their ids in a folder of the session's,
//! and only while a `download` action waits for one.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::browser::{
    DownloadProgressState, EventDownloadProgress, EventDownloadWillBegin, SetDownloadBehaviorBehavior,
    SetDownloadBehaviorParams,
};
use futures::StreamExt;
use serde_json::json;
use statewright_engine::{Artifact, DriverError, DriverResult, Outcome};
use statewright_workflow::{MouseButton, Target};

use super::{ChromeDriver, cdp_failed};
use crate::input;

/// How long a click may take to start its download (a report the site builds first).
const START_WAIT: Duration = Duration::from_secs(10);
/// How long a download may take, unless the action says.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// The largest file kept: it is read whole into the run's record.
const MAX_BYTES: f64 = 200.0 * 1024.0 * 1024.0;

impl ChromeDriver {
    pub(super) async fn download(
        &mut self,
        target: &Target,
        filename: &str,
        timeout: Option<f64>,
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let folder = self.allow_downloads().await?;
        let kept = self.download_into(&folder, target, filename, timeout, patience).await;
        // Only the action's own download is let in: a page that goes on downloading (or
        // streams a file for ever) cannot fill the disk while the run does other things.
        let deny = SetDownloadBehaviorParams::new(SetDownloadBehaviorBehavior::Deny);
        let _ = tokio::time::timeout(Duration::from_secs(5), self.session.browser.execute(deny)).await;
        kept
    }

    async fn download_into(
        &mut self,
        folder: &std::path::Path,
        target: &Target,
        filename: &str,
        timeout: Option<f64>,
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let mut begun = self.session.browser.event_listener::<EventDownloadWillBegin>().await.map_err(cdp_failed)?;
        let mut progress = self.session.browser.event_listener::<EventDownloadProgress>().await.map_err(cdp_failed)?;
        let (at, _) = self.actionable(target, json!({"enabled": true, "hitTest": true}), patience).await?;
        let (x, y) = (at.x, at.y);
        let mut outcome = at.outcome();
        let what = outcome.detail.clone().unwrap_or_else(|| "the target".into());
        self.hold_for_capture().await;
        input::click(self.raw(), x, y, MouseButton::Left, 1).await.map_err(DriverError::Browser)?;
        let Ok(Some(begin)) = tokio::time::timeout(START_WAIT, begun.next()).await else {
            return Err(DriverError::NotActionable {
                reason: "no_download".into(),
                message: format!("clicking {what} started no download"),
            });
        };
        let limit = timeout.map_or(DEFAULT_TIMEOUT, |t| Duration::from_secs_f64(t.clamp(0.0, 86_400.0)));
        let finished = async {
            while let Some(step) = progress.next().await {
                if step.guid != begin.guid {
                    continue;
                }
                match step.state {
                    DownloadProgressState::Completed => return Ok(step.file_path.clone()),
                    DownloadProgressState::Canceled => return Err("the download was cancelled".to_owned()),
                    DownloadProgressState::InProgress if step.received_bytes > MAX_BYTES => {
                        return Err(format!("the file is larger than {} MB", MAX_BYTES / 1024.0 / 1024.0));
                    }
                    DownloadProgressState::InProgress => {}
                }
            }
            Err("the browser stopped telling the download's progress".to_owned())
        };
        let saved = match tokio::time::timeout(limit, finished).await {
            Ok(Ok(path)) => path.map_or_else(|| folder.join(&begin.guid), PathBuf::from),
            Ok(Err(why)) => return Err(DriverError::Invalid(format!("downloading through {what}: {why}"))),
            Err(_) => {
                let message = format!("the download through {what} did not finish within {limit:?}");
                return Err(DriverError::NotActionable { reason: "download_timeout".into(), message });
            }
        };
        let bytes = tokio::fs::read(&saved).await.map_err(|e| {
            DriverError::Browser(format!(
                "cannot read the downloaded file {} (is the browser on another machine?): {e}",
                saved.display()
            ))
        })?;
        let _ = tokio::fs::remove_file(&saved).await;
        let suggested = begin.suggested_filename.chars().take(200).collect::<String>();
        outcome.detail = Some(format!("{what} ← {suggested:?}, {} bytes", bytes.len()));
        outcome.artifact = Some(Artifact { filename: filename.to_owned(), bytes: Arc::new(bytes) });
        Ok(outcome)
    }

    /// Lets the browser download, into the session's folder for downloads (made the first
    /// time), telling each download's progress.
    async fn allow_downloads(&mut self) -> DriverResult<PathBuf> {
        if self.session.downloads.is_none() {
            let folder = tempfile::Builder::new()
                .prefix("statewright-downloads-")
                .tempdir()
                .map_err(|e| DriverError::Browser(format!("cannot make a folder for downloads: {e}")))?;
            self.session.downloads = Some(folder);
        }
        let folder = self.session.downloads.as_ref().map(|f| f.path().to_owned()).unwrap_or_default();
        let behaviour = SetDownloadBehaviorParams::builder()
            .behavior(SetDownloadBehaviorBehavior::AllowAndName)
            .download_path(folder.display().to_string())
            .events_enabled(true)
            .build()
            .map_err(DriverError::Browser)?;
        self.session.browser.execute(behaviour).await.map_err(cdp_failed)?;
        Ok(folder)
    }
}

#[cfg(test)]
mod tests {
    use statewright_demo::{Site, SiteServer};
    use statewright_engine::Driver;
    use statewright_workflow::Action;

    use super::*;
    use crate::session::LaunchOptions;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_download_the_page_starts_on_its_own_afterwards_is_refused() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let server = SiteServer::start(Site::Dir(fixtures), 0).await.expect("serve fixtures");
        let mut driver = ChromeDriver::start(&LaunchOptions::default()).await.expect("Chromium launches");
        let patience = Duration::from_secs(5);
        let act = |value: serde_json::Value| serde_json::from_value::<Action>(value).expect("an action");
        let open = act(json!({"type": "navigate_to", "url": format!("{}/download.html", server.url())}));
        driver.perform(&open, patience).await.expect("the page loads");
        let export = act(json!({"type": "download", "target": {"css": "#export"}, "filename": "e.csv"}));
        driver.perform(&export, patience).await.expect("the action's download is let in");
        let folder = driver.session.downloads.as_ref().expect("downloads have a folder").path().to_owned();

        // The same button clicked as any button: the browser saves nothing.
        let click = act(json!({"type": "click", "target": {"css": "#export"}}));
        driver.perform(&click, patience).await.expect("the click");
        tokio::time::sleep(Duration::from_secs(1)).await;
        let saved = std::fs::read_dir(&folder).expect("the folder is there").count();
        assert_eq!(saved, 0, "nothing is saved outside a download action");
        driver.close().await;
    }
}
