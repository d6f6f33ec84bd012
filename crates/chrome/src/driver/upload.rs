//! `upload`: giving a file field its files, as a person does in the file chooser. A field,
//! shown or hidden (styled pages hide it behind a button), is given them directly; anything
//! else is clicked, and the file chooser it opens is answered instead of shown.

use std::path::PathBuf;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::dom::SetFileInputFilesParams;
use chromiumoxide::cdp::browser_protocol::page::{
    EventFileChooserOpened, FileChooserOpenedMode, SetInterceptFileChooserDialogParams,
};
use chromiumoxide::cdp::js_protocol::runtime::ReleaseObjectParams;
use futures::StreamExt;
use serde_json::json;
use statewright_engine::{DriverError, DriverResult, Outcome};
use statewright_workflow::{MouseButton, Target};

use super::{ChromeDriver, Doc, cdp_failed, not_actionable};
use crate::input;

/// How long a click may take to open the file chooser: at once, or after the page's own
/// short work.
const CHOOSER_WAIT: Duration = Duration::from_secs(5);

impl ChromeDriver {
    pub(super) async fn upload(
        &mut self,
        target: &Target,
        files: &[String],
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let paths = on_disk(files)?;
        let opts = json!({"enabled": true, "hitTest": true, "fileInput": true});
        let (found, doc) = self.actionable(target, opts, patience).await?;
        if let Doc::Frame(_) = doc {
            // Its field and its chooser are the frame's, which its own session would answer.
            return Err(DriverError::Invalid(format!(
                "{} is in a frame from another site; uploading there is not supported yet",
                found.description.as_deref().unwrap_or("the target")
            )));
        }
        let (field, multiple, at) = (found.file_input, found.multiple, (found.x, found.y));
        let mut outcome = found.outcome();
        if field {
            if paths.len() > 1 && !multiple {
                return Err(one_file(outcome.detail.as_deref()));
            }
            self.hold_for_capture().await;
            let node = self.page().node("fileInput", &[json!(target)]).await.map_err(not_actionable)?;
            let node = node.ok_or_else(|| DriverError::NotActionable {
                reason: "not_found".into(),
                message: "the file field went away".into(),
            })?;
            let given = SetFileInputFilesParams::builder().files(paths.clone()).object_id(node.clone()).build();
            let given = self.raw().execute(given.map_err(DriverError::Browser)?).await;
            let _ = self.raw().execute(ReleaseObjectParams::new(node)).await;
            given.map_err(cdp_failed)?;
        } else {
            self.through_chooser(at, &paths, outcome.detail.as_deref()).await?;
        }
        let names: Vec<String> = paths.iter().map(|p| file_name(p)).collect();
        outcome.detail = Some(format!("{} ← {}", outcome.detail.unwrap_or_default(), names.join(", ")));
        Ok(outcome)
    }

    /// Clicks at `at` and answers the file chooser the click opens with `paths`.
    async fn through_chooser(&mut self, at: (f64, f64), paths: &[String], what: Option<&str>) -> DriverResult<()> {
        let mut opened = self.raw().event_listener::<EventFileChooserOpened>().await.map_err(cdp_failed)?;
        self.raw().execute(SetInterceptFileChooserDialogParams::new(true)).await.map_err(cdp_failed)?;
        let answered = async {
            self.hold_for_capture().await;
            input::click(self.raw(), at.0, at.1, MouseButton::Left, 1).await.map_err(DriverError::Browser)?;
            let chooser = tokio::time::timeout(CHOOSER_WAIT, opened.next()).await.ok().flatten();
            let Some(chooser) = chooser else {
                return Err(DriverError::NotActionable {
                    reason: "no_file_chooser".into(),
                    message: format!("clicking {} opened no file chooser", what.unwrap_or("the target")),
                });
            };
            if paths.len() > 1 && chooser.mode == FileChooserOpenedMode::SelectSingle {
                return Err(one_file(what));
            }
            let field = chooser.backend_node_id.ok_or_else(|| {
                DriverError::Invalid("the page opened a file chooser of its own, with no file field".into())
            })?;
            let given = SetFileInputFilesParams::builder().files(paths.to_vec()).backend_node_id(field).build();
            self.raw().execute(given.map_err(DriverError::Browser)?).await.map_err(cdp_failed)?;
            Ok(())
        }
        .await;
        // Choosers the run did not open are a person's again (a headed window).
        let _ = self.raw().execute(SetInterceptFileChooserDialogParams::new(false)).await;
        answered
    }
}

/// The files as absolute paths, each a file that is there: a missing one is the workflow's
/// or the parameter's mistake, not something to wait for.
fn on_disk(files: &[String]) -> DriverResult<Vec<String>> {
    files
        .iter()
        .map(|file| {
            let path = std::path::absolute(file).unwrap_or_else(|_| PathBuf::from(file));
            match std::fs::metadata(&path) {
                Ok(meta) if meta.is_file() => Ok(path.display().to_string()),
                Ok(_) => Err(DriverError::Invalid(format!("{} is not a file", path.display()))),
                Err(e) => Err(DriverError::Invalid(format!("cannot read {}: {e}", path.display()))),
            }
        })
        .collect()
}

fn one_file(what: Option<&str>) -> DriverError {
    DriverError::Invalid(format!("{} takes one file; the action gives several", what.unwrap_or("the file field")))
}

fn file_name(path: &str) -> String {
    std::path::Path::new(path).file_name().map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}
