//! Hearing the downloads a person starts while recording: the browser tells each one as it
//! begins, and saves it where it always would (the person's browser keeps its own folder),
//! unless nobody sees the browser (a headless recording, scripted): then into `folder`, which
//! goes with the recording.

use std::time::Instant;

use chromiumoxide::Browser;
use chromiumoxide::cdp::browser_protocol::browser::{
    EventDownloadWillBegin, SetDownloadBehaviorBehavior, SetDownloadBehaviorParams,
};
use futures::StreamExt;
use tokio::sync::mpsc;

use super::{Heard, News};

/// Tells each download the browser begins, from any of its tabs.
pub(super) async fn hear_downloads(
    browser: &Browser,
    folder: Option<&std::path::Path>,
    tell: mpsc::UnboundedSender<News>,
) -> Result<tokio::task::JoinHandle<()>, String> {
    let told = match folder {
        Some(folder) => SetDownloadBehaviorParams::builder()
            .behavior(SetDownloadBehaviorBehavior::Allow)
            .download_path(folder.display().to_string()),
        None => SetDownloadBehaviorParams::builder().behavior(SetDownloadBehaviorBehavior::Default),
    };
    let told = told.events_enabled(true).build()?;
    browser.execute(told).await.map_err(|e| e.to_string())?;
    let mut begun = browser.event_listener::<EventDownloadWillBegin>().await.map_err(|e| e.to_string())?;
    Ok(tokio::spawn(async move {
        while let Some(begin) = begun.next().await {
            // The site's name for it, as the browser would save it: a name, never a path.
            let name = begin.suggested_filename.rsplit(['/', '\\']).next().unwrap_or_default();
            let heard = Heard::Downloaded { url: begin.url.clone(), name: name.chars().take(200).collect() };
            // Which tab is not said (a frame's id): the act that started it says where.
            if tell.send((None, heard, Instant::now())).is_err() {
                break;
            }
        }
    }))
}
