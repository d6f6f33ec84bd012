//! Running a workflow for the window: bind parameters (serving the demo site when asked),
//! start the browser (and the desktop when the workflow uses it), run the engine, and for
//! each event persist it in the run store first, then send it down the run's channel.
//!
//! This is the CLI's run wiring without its terminal output and run folder. It moves to
//! the shared `statewright-runner` crate once that exists; keep it a thin sequence of calls.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_demo::{Site, SiteServer};
use statewright_desktop::X11Desktop;
use statewright_engine::{CancellationToken, Event, Reviewer, RunOptions};
use statewright_store::{NewRun, RunHandle, Store, blob_path};
use statewright_workflow::{Params, Workflow, load_file};
use statewright_world::{World, needs};
use tauri::ipc::Channel;
use tokio::sync::mpsc::UnboundedReceiver;

use crate::error::{CommandError, CommandResult};
use statewright_store::StoreReviewer;

/// A run that is set up and recorded as started, ready to go.
pub struct PreparedRun {
    pub id: String,
    db: PathBuf,
    workflow: Workflow,
    params: Params,
    headed: bool,
    site: Option<SiteServer>,
    store: Store,
    handle: RunHandle,
}

/// `20261123-093000-3f9a`: sortable, as the CLI names runs.
fn new_run_id() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since the epoch (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}-{:04x}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        fastrand::u16(..)
    )
}

/// The workflow as run, with the defaults of secret parameters masked.
fn workflow_as_run(workflow: &Workflow, params: &Params) -> String {
    let mut value = serde_json::to_value(workflow).unwrap_or(Value::Null);
    let masked = params.masked_values();
    if let Some(Value::Object(declared)) = value.get_mut("parameters") {
        for (name, declaration) in declared.iter_mut() {
            let secret = workflow.parameters.get(name).is_some_and(|p| p.secret);
            if secret && declaration.get("default").is_some() {
                declaration["default"] = json!(masked.get(name).cloned().unwrap_or_else(|| "********".into()));
            }
        }
    }
    value.to_string()
}

pub async fn prepare(
    file: PathBuf,
    db: PathBuf,
    supplied: Vec<(String, String)>,
    headed: bool,
    demo_site: bool,
) -> CommandResult<PreparedRun> {
    let loaded = load_file(&file).map_err(|d| CommandError::new("invalid_workflow", d.to_string()))?;
    let file = std::fs::canonicalize(&file).unwrap_or(file);
    let workflow = loaded.workflow;
    let mut supplied = supplied;
    let site = if demo_site {
        let server = SiteServer::start(Site::Demo, 0)
            .await
            .map_err(|e| CommandError::new("demo_site", format!("cannot serve the demo site: {e}")))?;
        supplied.retain(|(k, _)| k != "site");
        supplied.push(("site".into(), server.url()));
        Some(server)
    } else {
        None
    };
    let params = Params::bind(&workflow, &supplied).map_err(|e| CommandError::new("invalid_params", e.to_string()))?;
    let browser = if headed { "headed Chromium" } else { "headless Chromium" };
    let workflow_json = workflow_as_run(&workflow, &params);
    let parameters = json!(params.masked_values());
    let name = workflow.name.clone();
    let db_path = db.clone();
    let path = file.display().to_string();
    let (store, handle, id) = tauri::async_runtime::spawn_blocking(move || -> CommandResult<_> {
        let store = Store::open(&db)?;
        let id = new_run_id();
        let new = NewRun {
            id: &id,
            workflow_name: &name,
            workflow_json: &workflow_json,
            parameters: &parameters,
            browser,
            workflow_path: Some(&path),
        };
        let handle = store.start_run(&new)?;
        Ok((store, handle, id))
    })
    .await
    .map_err(|e| CommandError::new("shell", e.to_string()))??;
    Ok(PreparedRun { id, db: db_path, workflow, params, headed, site, store, handle })
}

/// Runs to the end (or until `cancel`), streaming persisted events to `channel`.
pub async fn execute(run: PreparedRun, channel: Channel<Value>, cancel: CancellationToken) {
    let PreparedRun { id, db, workflow, params, headed, site, store, mut handle } = run;
    // Locators recorded by earlier runs (for healing), and the review queue, which the
    // app's review panel (or `statewright review` in a terminal) answers.
    let locators = store.locators(&workflow.name).unwrap_or_default();
    let reviewer = StoreReviewer::open(&db, &id, None).ok().map(|r| Arc::new(r) as Arc<dyn Reviewer>);
    let run_options = RunOptions { locators, advisor: None, reviewer };
    let needs = needs(&workflow);
    let options = LaunchOptions {
        headed,
        cdp_url: None,
        executable: None,
        viewport: (workflow.config.viewport.width, workflow.config.viewport.height),
    };
    let desktop =
        if needs.desktop { X11Desktop::connect().await.map(Some).map_err(|e| e.to_string()) } else { Ok(None) };
    let chrome = match (&desktop, needs.browser) {
        (Ok(_), true) => ChromeDriver::start(&options).await.map(Some).map_err(|e| e.to_string()),
        _ => Ok(None),
    };
    let (desktop, chrome) = match (desktop, chrome) {
        (Ok(d), Ok(c)) => (d, c),
        (Err(e), _) | (_, Err(e)) => {
            let reason = e.clone();
            let _ = tauri::async_runtime::spawn_blocking(move || store.abort_run(handle, &reason)).await;
            let _ = channel
                .send(json!({"event": "run_finished", "status": "failed", "end_state": null, "outcome": null,
                "message": e, "failure": {"kind": "driver", "error": e}, "duration_ms": 0, "steps": 0, "actions": 0}));
            return;
        }
    };
    let mut driver = World::new(chrome, desktop);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let forward = tauri::async_runtime::spawn_blocking(move || persist_then_send(store, &mut handle, rx, channel));
    let _report = statewright_engine::run(&workflow, &params, &mut driver, tx, cancel, run_options).await;
    driver.close().await;
    let _ = forward.await;
    drop(site);
}

/// Persist, then notify: the window only hears of what a restart would show.
fn persist_then_send(
    store: Store,
    handle: &mut RunHandle,
    mut events: UnboundedReceiver<Event>,
    channel: Channel<Value>,
) {
    while let Some(first) = events.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < 64
            && let Ok(event) = events.try_recv()
        {
            batch.push(event);
        }
        if let Err(e) = store.record_all(handle, &batch) {
            tracing::warn!("cannot record the run: {e}");
        }
        for event in &batch {
            let mut value = serde_json::to_value(event).unwrap_or(Value::Null);
            if let Event::Observed { observation, .. } = event {
                value["screenshot"] = json!(observation.screenshot.as_ref().map(|png| blob_path(png, "png")));
            }
            if channel.send(value).is_err() {
                tracing::debug!("the window stopped listening to the run");
            }
        }
    }
}
