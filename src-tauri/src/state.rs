//! What the app holds while it runs: the workflows library, the runs folder, the runs in
//! progress (by id, with what cancels them) and the folder watcher.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use statewright_engine::CancellationToken;
use statewright_workbench::Library;
use statewright_workbench::watch::WorkflowWatcher;

pub struct AppState {
    pub library: Arc<Library>,
    pub runs_dir: PathBuf,
    pub db: PathBuf,
    pub live_runs: Mutex<HashMap<String, CancellationToken>>,
    watcher: Mutex<Option<WorkflowWatcher>>,
}

impl AppState {
    pub fn new(workflows_dir: PathBuf, runs_dir: PathBuf) -> Self {
        let db = statewright_store::Store::default_path(&runs_dir);
        Self {
            library: Arc::new(Library::new(workflows_dir)),
            runs_dir,
            db,
            live_runs: Mutex::new(HashMap::new()),
            watcher: Mutex::new(None),
        }
    }

    /// `$STATEWRIGHT_WORKFLOWS_DIR` (default `workflows`) and `$STATEWRIGHT_RUNS_DIR`
    /// (default `runs`), as the CLI reads them.
    pub fn from_env() -> Self {
        let var =
            |name: &str, default: &str| std::env::var_os(name).map_or_else(|| PathBuf::from(default), PathBuf::from);
        let runs_dir = var("STATEWRIGHT_RUNS_DIR", "runs");
        let _ = std::fs::create_dir_all(&runs_dir);
        Self::new(var("STATEWRIGHT_WORKFLOWS_DIR", "workflows"), runs_dir)
    }

    pub fn keep_watcher(&self, watcher: WorkflowWatcher) {
        *self.watcher.lock().expect("watcher lock") = Some(watcher);
    }

    /// A store handle for one blocking operation (never held across an `.await`).
    pub fn store(&self) -> Result<statewright_store::Store, statewright_store::Error> {
        statewright_store::Store::open(&self.db)
    }
}
