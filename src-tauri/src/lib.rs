//! The Statewright app: a thin Tauri shell. Commands parse their input, call the core
//! crates (`statewright-workbench`, the run store, the runner) and turn results and errors
//! into IPC values; a run's events stream to the window over its `ipc::Channel`.

mod commands;
mod error;
mod screenshots;
mod state;

use tauri::{Emitter, Manager};

pub use error::{CommandError, ErrorCode};
pub use state::AppState;

/// Event names of broadcast notices (a run's own events go over its channel).
pub const WORKFLOW_CHANGED: &str = "statewright://workflow-changed";
pub const REVIEWS_CHANGED: &str = "statewright://reviews-changed";

/// The app with its commands, state and protocol, before a context is attached. Generic
/// over the runtime so tests can use Tauri's mock runtime.
pub fn builder<R: tauri::Runtime>(base: tauri::Builder<R>, state: AppState) -> tauri::Builder<R> {
    base.manage(state).register_uri_scheme_protocol("shot", screenshots::serve).invoke_handler(handlers()).setup(
        |app| {
            let handle = app.handle().clone();
            let state = app.state::<AppState>();
            let watcher = statewright_workbench::watch::watch(state.library.clone(), move |change| {
                let _ = handle.emit(WORKFLOW_CHANGED, change);
            })?;
            state.keep_watcher(watcher);
            Ok(())
        },
    )
}

fn handlers<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
    tauri::generate_handler![
        commands::workflows::list_workflows,
        commands::workflows::open_workflow,
        commands::workflows::create_workflow,
        commands::workflows::duplicate_workflow,
        commands::workflows::rename_workflow,
        commands::workflows::save_workflow,
        commands::workflows::validate_workflow,
        commands::trash::delete_workflow,
        commands::trash::list_trash,
        commands::trash::restore_workflow,
        commands::graph::analyze_workflow,
        commands::graph::plan_route,
        commands::runs::start_run,
        commands::runs::cancel_run,
        commands::runs::list_runs,
        commands::runs::open_run,
        commands::runs::open_step_page,
        commands::reviews::list_reviews,
        commands::reviews::show_review,
        commands::reviews::preview_resolution,
        commands::reviews::resolve_review,
        commands::reviews::decide_proposal,
        commands::reviews::save_healed_locators,
        commands::settings::model_settings,
        commands::settings::save_model_settings,
        commands::synthesis::synthesize_state,
        commands::record::record_workflow,
        commands::record::stop_recording,
        commands::agent::start_agent_run,
        commands::batch::start_batch,
        commands::batch::cancel_batch,
        commands::judge::judge_answers,
    ]
}

pub fn run() {
    // Errors only: the app's log is not where a person looks; its windows say what went wrong.
    let quiet = || tracing_subscriber::EnvFilter::new(format!("error,{}", statewright_runner::LIBRARY_NOISE));
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| quiet());
    tracing_subscriber::fmt().with_env_filter(filter).init();
    let state = AppState::from_env();
    let app = builder(tauri::Builder::default(), state)
        .build(tauri::generate_context!("../tauri.conf.json"))
        .expect("the Statewright window failed");
    app.run(|app, event| {
        if let tauri::RunEvent::ExitRequested { api, .. } = &event {
            close_live_runs(app, api);
        }
    });
}

/// On exit, live runs are cancelled and given a few seconds to close their browsers, so no
/// Chromium outlives the app.
fn close_live_runs(app: &tauri::AppHandle, api: &tauri::ExitRequestApi) {
    let live: Vec<_> = app.state::<AppState>().live_runs.lock().expect("live runs lock").values().cloned().collect();
    if live.is_empty() {
        return;
    }
    api.prevent_exit();
    live.iter().for_each(|token| token.cancel("the app was closed"));
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        for _ in 0..50 {
            if app.state::<AppState>().live_runs.lock().expect("live runs lock").is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        // Whatever has not finished by now is abandoned: exit for real next time.
        app.state::<AppState>().live_runs.lock().expect("live runs lock").clear();
        app.exit(0);
    });
}
