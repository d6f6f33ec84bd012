//! Executing a prepared run: the drivers it needs, the engine, and the recorder thread that
//! persists each event before the observer hears of it.

use std::sync::{Arc, Mutex};

use statewright_chrome::{ChromeDriver, LaunchOptions};
use statewright_desktop::X11Desktop;
use statewright_engine::{Cancel, Event, Failure, Reviewer, RunOptions, RunReport, RunStatus};
use statewright_store::{RunHandle, Store, StoreReviewer};
use statewright_world::{World, needs};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::export::{Images, export};
use crate::prepare::PreparedRun;
use crate::request::{Browser, ReviewPolicy};
use crate::summary::RunSummary;

/// Events that arrived together go to the store in one transaction, up to this many.
const BATCH: usize = 64;

pub(crate) async fn execute(
    run: PreparedRun,
    cancel: Cancel,
    mut observer: impl FnMut(&Event) + Send + 'static,
) -> RunSummary {
    let PreparedRun {
        id,
        workflow,
        params,
        browser,
        store,
        handle,
        db,
        run_dir,
        review,
        advisor,
        site,
        resume,
        goal,
        skills,
        chrome,
        began,
        ..
    } = run;
    let summary_of = |report: &RunReport| RunSummary {
        run_id: id.clone(),
        workflow: workflow.name.clone(),
        status: report.status,
        end_state: report.end_state.clone(),
        outcome: report.outcome,
        message: report.message.clone(),
        failure: report.failure.clone(),
        duration_ms: report.duration.as_millis() as u64,
        steps: report.steps,
        actions: report.actions,
        llm_calls: 0,
        llm_tokens: 0,
        llm_cost: 0.0,
        outputs: report.outputs.clone(),
        run_dir: run_dir.clone(),
    };

    // Starting (or attaching to) a browser is bounded by the driver; Ctrl+C cuts it short.
    let started = tokio::select! {
        started = start_drivers(&workflow, &skills, &browser, resume, chrome) => started.map_err(Some),
        () = cancel.cancelled() => Err(None),
    };
    let mut driver = match started {
        Ok(driver) => driver,
        Err(why) => {
            let report = match why {
                Some(error) => ended(RunStatus::Failed, Some(Failure::Driver { error }), &cancel, began),
                None => ended(RunStatus::Cancelled, None, &cancel, began),
            };
            let (message, run_id, cancelled) =
                (report.message.clone(), id.clone(), report.status == RunStatus::Cancelled);
            let persisted = tokio::task::spawn_blocking(move || {
                store.abort_run(handle, &message)?;
                if cancelled { store.set_status(&run_id, "cancelled") } else { Ok(()) }
            })
            .await;
            // Persist, then notify: the observer hears the end only once the store has it.
            if let Ok(Ok(())) = persisted {
                observer(&Event::RunFinished {
                    status: report.status,
                    end_state: None,
                    outcome: None,
                    message: report.message.clone(),
                    failure: report.failure.clone(),
                    duration_ms: report.duration.as_millis() as u64,
                    steps: 0,
                    actions: 0,
                    outputs: Default::default(),
                });
            }
            return summary_of(&report);
        }
    };
    let locators = store.locators(&workflow.name).unwrap_or_default();
    let reviewer: Option<Arc<dyn Reviewer>> = match review {
        ReviewPolicy::Never => None,
        ReviewPolicy::Wait { timeout } => match StoreReviewer::open(&db, &id, timeout) {
            Ok(reviewer) => Some(Arc::new(reviewer)),
            Err(e) => {
                tracing::warn!("nobody can review this run: {e}");
                None
            }
        },
    };
    let options = RunOptions { locators, advisor, reviewer, goal, skills, began: Some(began) };

    // A store that cannot keep the run stops it: a run nobody can account for must not be
    // reported as a success.
    let store_failure: Arc<Mutex<Option<String>>> = Arc::default();
    let engine_cancel = cancel.child();
    let (events_tx, events_rx) = tokio::sync::mpsc::unbounded_channel();
    let recorder = {
        let store_failure = store_failure.clone();
        let stop = engine_cancel.clone();
        tokio::task::spawn_blocking(move || record(store, handle, events_rx, observer, &store_failure, &stop))
    };
    let report = statewright_engine::run(&workflow, &params, &mut driver, events_tx, engine_cancel, options).await;
    // The browser shuts down while the last events are persisted and the run folder is
    // written: neither needs the other, and both take a while.
    let finishing = async {
        let store = recorder.await.ok();
        let mut summary = summary_of(&report);
        let failure = store_failure.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(error) = failure {
            summary.status = RunStatus::Failed;
            summary.message = format!("the run could not be recorded: {error}");
            summary.failure = Some(Failure::Record { error });
            return summary;
        }
        if let Some(store) = store {
            finish(store, &id, &run_dir, report.status == RunStatus::Cancelled, &mut summary).await;
        }
        summary
    };
    let ((), summary) = tokio::join!(driver.close(), finishing);
    drop(site);
    summary
}

/// After the run: open reviews of a cancelled run closed, the run folder exported and the
/// model's calls counted into `summary`.
async fn finish(store: Store, id: &str, run_dir: &std::path::Path, cancelled: bool, summary: &mut RunSummary) {
    let (id, dir) = (id.to_owned(), run_dir.to_owned());
    let finished = tokio::task::spawn_blocking(move || {
        // A review left open would wait for an answer nobody needs.
        if cancelled && let Err(e) = store.cancel_reviews(&id) {
            tracing::warn!("the cancelled run's reviews stay open: {e}");
        }
        let exported = export(&store, &id, &dir, Images::AsStored);
        (exported, store.run(&id).ok())
    });
    match finished.await {
        Ok((exported, recorded)) => {
            if let Err(e) = exported {
                tracing::error!("cannot write the run folder (the store has the run): {e}");
            }
            // The model's calls are counted where they are recorded.
            if let Some(r) = recorded {
                summary.llm_calls = r.llm_calls.max(0) as u32;
                summary.llm_tokens = r.llm_tokens.max(0) as u64;
                summary.llm_cost = r.llm_cost;
            }
        }
        Err(e) => tracing::error!("the run folder's writer failed: {e}"),
    }
}

/// A run that ended before the engine started: its browser could not be had, or it was
/// cancelled while waiting for one.
fn ended(status: RunStatus, failure: Option<Failure>, cancel: &Cancel, began: tokio::time::Instant) -> RunReport {
    let message = match (&failure, cancel.reason()) {
        (Some(failure), _) => statewright_engine::explain::failure(failure),
        (None, Some(reason)) => format!("cancelled before the browser was ready: {reason}"),
        (None, None) => "cancelled before the browser was ready".to_owned(),
    };
    RunReport {
        status,
        end_state: None,
        outcome: None,
        message,
        failure,
        duration: began.elapsed(),
        steps: 0,
        actions: 0,
        outputs: Default::default(),
    }
}

/// The desktop (only for workflows that use it: a clear error without X) and the browser
/// (only for workflows with page checks or actions; `chrome` when it was got already).
async fn start_drivers(
    workflow: &statewright_workflow::Workflow,
    skills: &statewright_engine::Skills,
    browser: &Browser,
    resume: bool,
    chrome: Option<ChromeDriver>,
) -> Result<World, String> {
    // A skill's page or desktop is the run's too.
    let needs = skills.values().map(needs).fold(needs(workflow), |all, one| statewright_world::Needs {
        browser: all.browser || one.browser,
        desktop: all.desktop || one.desktop,
    });
    let desktop = match needs.desktop.then(X11Desktop::connect) {
        Some(connecting) => match connecting.await {
            Ok(desktop) => Some(desktop),
            Err(e) => {
                if let Some(chrome) = chrome {
                    chrome.close().await;
                }
                return Err(e.to_string());
            }
        },
        None => None,
    };
    let chrome = match chrome {
        Some(chrome) => Some(chrome),
        None if needs.browser => {
            Some(ChromeDriver::start(&chrome_options(workflow, browser, resume)).await.map_err(|e| e.to_string())?)
        }
        None => None,
    };
    Ok(World::new(chrome, desktop))
}

/// How a run of `workflow` gets its browser page.
pub(crate) fn chrome_options(
    workflow: &statewright_workflow::Workflow,
    browser: &Browser,
    resume: bool,
) -> LaunchOptions {
    let (headed, cdp_url) = match browser {
        Browser::Launch { headed } => (*headed, None),
        Browser::Attach { cdp_url } => (false, Some(cdp_url.clone())),
    };
    LaunchOptions {
        headed,
        cdp_url,
        executable: None,
        viewport: (workflow.config.viewport.width, workflow.config.viewport.height),
        adopt_page: resume,
    }
}

/// The recorder thread: persist a batch, then notify. After a failed write nothing more is
/// persisted or announced; the engine is stopped and the run marked failed if the store
/// still takes that.
fn record(
    store: Store,
    mut handle: RunHandle,
    mut events: UnboundedReceiver<Event>,
    mut observer: impl FnMut(&Event),
    store_failure: &Mutex<Option<String>>,
    stop: &Cancel,
) -> Store {
    let mut failed = false;
    while let Some(first) = events.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH
            && let Ok(event) = events.try_recv()
        {
            batch.push(event);
        }
        if failed {
            continue;
        }
        if let Err(e) = store.record_all(&mut handle, &batch) {
            tracing::error!("cannot record the run in {}: {e}", store.path().display());
            *store_failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
            failed = true;
            stop.cancel("the run could not be recorded");
            continue;
        }
        batch.iter().for_each(&mut observer);
    }
    if failed {
        let error = store_failure.lock().unwrap_or_else(|e| e.into_inner()).clone().unwrap_or_default();
        if let Err(e) = store.abort_run(handle, &format!("the run could not be recorded: {error}")) {
            tracing::error!("cannot mark the run failed either ({e}); the next start marks it interrupted");
        }
    }
    store
}
