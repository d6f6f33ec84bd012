//! Watching the workflows folder for changes made by other programs (an editor, git, the
//! CLI). The returned handle stops the watcher when dropped.

use std::sync::Arc;

use notify::{EventKind, RecursiveMode, Watcher};

use crate::Library;
use crate::ipc::WorkflowChange;

/// Keeps the watcher alive; drop it to stop watching.
pub struct WorkflowWatcher {
    _watcher: notify::RecommendedWatcher,
}

/// Calls `on_change` for every workflow file written, created or removed in the library's
/// folder. Temporary files (`.name.tmp`) and other files are ignored.
pub fn watch(
    library: Arc<Library>,
    on_change: impl Fn(WorkflowChange) + Send + 'static,
) -> crate::Result<WorkflowWatcher> {
    let dir = library.dir().to_path_buf();
    let skills = library.skills_dir().to_path_buf();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        let Ok(event) = res else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for path in &event.paths {
            if let Some(id) = library.id_of(path) {
                on_change(WorkflowChange { id, removed: !path.exists() });
            }
        }
    })?;
    watcher.watch(&dir, RecursiveMode::NonRecursive)?;
    // The skills folder too, when there is one (one made later is seen after a restart).
    if skills.is_dir() {
        watcher.watch(&skills, RecursiveMode::NonRecursive)?;
    }
    Ok(WorkflowWatcher { _watcher: watcher })
}
