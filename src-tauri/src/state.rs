//! What the app holds while it runs: the workflows library, the runs folder, the runs in
//! progress (by id, with what cancels them) and the folder watcher.

use std::collections::HashMap;
use std::ops::Deref;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use statewright_engine::Cancel;
use statewright_store::Store;
use statewright_workbench::Library;
use statewright_workbench::watch::WorkflowWatcher;

use crate::error::CommandResult;

pub struct AppState {
    pub library: Arc<Library>,
    pub runs_dir: PathBuf,
    pub db: PathBuf,
    pub live_runs: Mutex<HashMap<String, Cancel>>,
    watcher: Mutex<Option<WorkflowWatcher>>,
    store: StoreAccess,
}

/// The commands' connection to the run store: opened on first use, then shared, one
/// command at a time, on blocking threads (runs have their own connections).
#[derive(Clone)]
pub struct StoreAccess {
    db: PathBuf,
    store: Arc<Mutex<Option<Store>>>,
}

pub struct StoreGuard<'a>(MutexGuard<'a, Option<Store>>);

impl Deref for StoreGuard<'_> {
    type Target = Store;
    fn deref(&self) -> &Store {
        self.0.as_ref().expect("opened by StoreAccess::get")
    }
}

impl StoreAccess {
    /// The store, opening it if this is the first use. Blocking: call it off the runtime.
    pub fn get(&self) -> CommandResult<StoreGuard<'_>> {
        let mut guard = self.store.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(Store::open(&self.db)?);
        }
        Ok(StoreGuard(guard))
    }
}

impl AppState {
    pub fn new(workflows_dir: PathBuf, runs_dir: PathBuf) -> Self {
        let db = statewright_store::Store::default_path(&runs_dir);
        Self {
            library: Arc::new(Library::new(workflows_dir)),
            runs_dir,
            store: StoreAccess { db: db.clone(), store: Arc::default() },
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

    /// The run store, for a blocking closure (never held across an `.await`).
    pub fn store(&self) -> StoreAccess {
        self.store.clone()
    }
}
