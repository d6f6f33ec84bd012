//! `upload`: giving a file field its files, as a person does in the file chooser. A field,
//! shown or hidden (styled pages hide it behind a button), is given them directly; anything
//! else is clicked, and the file chooser it opens is answered instead of shown; a drop zone
//! that opens none is given the files dropped on it, as dragged from the desktop.

use std::path::PathBuf;
use std::time::Duration;

use futures::StreamExt;
use serde_json::{Value, json};
use statewright_engine::{DriverError, DriverResult, Outcome};
use statewright_workflow::{MouseButton, Target};

use super::{ChromeDriver, Doc, not_actionable};
use crate::input;
use crate::page::call_expression;

/// How long a click may take to open the file chooser: at once, or after the page's own
/// short work.
const CHOOSER_WAIT: Duration = Duration::from_secs(5);
/// How long a click may take to open the file chooser before its target is tried as a drop
/// zone (the chooser may still open after, until `CHOOSER_WAIT`).
const DROP_AFTER: Duration = Duration::from_millis(500);
/// What a drop from the desktop allows: copy, link or move (as the protocol counts them).
const DROP_OPERATIONS: i64 = 1 | 2 | 16;

impl ChromeDriver {
    pub(super) async fn upload(
        &mut self,
        target: &Target,
        files: &[String],
        patience: Duration,
    ) -> DriverResult<Outcome> {
        let paths = on_disk(files)?;
        let opts = json!({"enabled": true, "hitTest": true, "fileInput": true});
        // In the page, or in a cross-origin frame (an embedded application form): each is
        // answered in its own document.
        let (found, doc) = self.actionable(target, opts, patience).await?;
        let (field, multiple, at) = (found.file_input, found.multiple, (found.x, found.y));
        let mut outcome = found.outcome();
        if field {
            if paths.len() > 1 && !multiple {
                return Err(one_file(outcome.detail.as_deref()));
            }
            self.hold_for_capture().await;
            self.give_field(&doc, target, &paths).await?;
        } else {
            self.through_chooser(&doc, at, &paths, outcome.detail.as_deref()).await?;
        }
        let names: Vec<String> = paths.iter().map(|p| file_name(p)).collect();
        outcome.detail = Some(format!("{} ← {}", outcome.detail.unwrap_or_default(), names.join(", ")));
        Ok(outcome)
    }

    /// Gives the file field the target names its files, read by reference in `doc`.
    async fn give_field(&self, doc: &Doc, target: &Target, paths: &[String]) -> DriverResult<()> {
        let (expression, _) = call_expression("fileInput", &[json!(target)]);
        let world = self.world_in(doc).await.map_err(not_actionable)?;
        let asked = json!({"expression": expression, "contextId": world, "returnByValue": false});
        let node = self.send_in(doc, "Runtime.evaluate", asked).await.map_err(not_actionable)?;
        let Some(node) = node["result"]["objectId"].as_str() else {
            return Err(DriverError::NotActionable {
                reason: "not_found".into(),
                message: "the file field went away".into(),
            });
        };
        let given = self.send_in(doc, "DOM.setFileInputFiles", json!({"files": paths, "objectId": node})).await;
        let _ = self.send_in(doc, "Runtime.releaseObject", json!({"objectId": node})).await;
        given.map(drop).map_err(not_actionable)
    }

    /// Clicks at `at` and answers the file chooser the click opens in `doc` with `paths`.
    async fn through_chooser(
        &mut self,
        doc: &Doc,
        at: (f64, f64),
        paths: &[String],
        what: Option<&str>,
    ) -> DriverResult<()> {
        let mut opened = self.choosers(doc).await?;
        let intercept = |enabled: bool| json!({"enabled": enabled});
        self.send_in(doc, "Page.setInterceptFileChooserDialog", intercept(true)).await.map_err(not_actionable)?;
        let answered = async {
            self.hold_for_capture().await;
            input::click(self.raw(), at.0, at.1, MouseButton::Left, 1).await.map_err(DriverError::Browser)?;
            // A chooser opens at once, mostly; a drop zone that opens none takes the files
            // dropped on it, as from the desktop.
            let mut chooser = tokio::time::timeout(DROP_AFTER, opened.next()).await.ok().flatten();
            if chooser.is_none() {
                if self.drop_files(doc, at, paths).await? {
                    return Ok(());
                }
                chooser = tokio::time::timeout(CHOOSER_WAIT - DROP_AFTER, opened.next()).await.ok().flatten();
            }
            let Some(chooser) = chooser else {
                return Err(DriverError::NotActionable {
                    reason: "no_file_chooser".into(),
                    message: format!(
                        "clicking {} opened no file chooser, and it takes no files dropped on it",
                        what.unwrap_or("the target")
                    ),
                });
            };
            if paths.len() > 1 && chooser["mode"] == "selectSingle" {
                return Err(one_file(what));
            }
            let Some(field) = chooser["backendNodeId"].as_i64() else {
                return Err(DriverError::Invalid(
                    "the page opened a file chooser of its own, with no file field".into(),
                ));
            };
            let given = json!({"files": paths, "backendNodeId": field});
            self.send_in(doc, "DOM.setFileInputFiles", given).await.map(drop).map_err(not_actionable)
        }
        .await;
        // Choosers the run did not open are a person's again (a headed window).
        let _ = self.send_in(doc, "Page.setInterceptFileChooserDialog", intercept(false)).await;
        answered
    }

    /// Drops the files at `at`, as a person drags them there from the desktop, when the page
    /// takes what is dragged over that point (cancels `dragover`, as a drop zone must): else
    /// nothing is dropped, since the browser would open a dropped file in the tab. Whether
    /// they were dropped.
    async fn drop_files(&self, doc: &Doc, at: (f64, f64), paths: &[String]) -> DriverResult<bool> {
        let data = json!({"items": [], "files": paths, "dragOperationsMask": DROP_OPERATIONS});
        self.page_op(doc, "watch", &[json!(["dragover"])]).await?;
        self.dispatch_drag("dragEnter", at, &data).await?;
        self.dispatch_drag("dragOver", at, &data).await?;
        let taken = self.page_op(doc, "watched", &[json!(false)]).await?["events"]["dragover"]["prevented"] == true;
        let kind = if taken { "drop" } else { "dragCancel" };
        let dropped = self.dispatch_drag(kind, at, &data).await;
        let _ = self.page_op(doc, "watched", &[json!(true)]).await;
        dropped.map(|()| taken)
    }

    /// The file choosers `doc` opens from now on, as the protocol tells them
    /// (`Page.fileChooserOpened`: its `mode` and its field's `backendNodeId`).
    async fn choosers(&self, doc: &Doc) -> DriverResult<futures::stream::BoxStream<'static, Value>> {
        use chromiumoxide::cdp::browser_protocol::page::EventFileChooserOpened;
        // A frame of the page's process tells its choosers through the page's session.
        match doc {
            Doc::Frame(frame) if frame.session().is_some() => {
                let unreachable = || DriverError::Browser("the frame's events cannot be heard".into());
                let events = self.page().frame_events().await.ok_or_else(unreachable)?;
                // Told only once the frame's page domain is on.
                self.send_in(doc, "Page.enable", json!({})).await.map_err(not_actionable)?;
                let session = frame.session().unwrap_or_default().to_owned();
                let opened = futures::stream::unfold(events, |mut events| async move {
                    let event = events.recv().await?;
                    Some((event, events))
                })
                .filter_map(move |(from, event)| {
                    let chooser = (from == session && event["method"] == "Page.fileChooserOpened")
                        .then(|| event["params"].clone());
                    std::future::ready(chooser)
                });
                Ok(opened.boxed())
            }
            _ => {
                let opened = self.raw().event_listener::<EventFileChooserOpened>().await.map_err(super::cdp_failed)?;
                Ok(opened.map(|chooser| serde_json::to_value(&*chooser).unwrap_or_default()).boxed())
            }
        }
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
