//! Watching the workflows folder for changes made by other programs (an editor, git, the
//! CLI). A workflow file may be a symbolic link to a file kept elsewhere (its own git
//! repository), so the folder each link leads into is watched too, and an edit there is
//! reported under the link's id. The returned handle stops the watcher when dropped.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};

use crate::Library;
use crate::ipc::WorkflowChange;

/// How long events keep arriving before they are handled together: a checkout that writes
/// thousands of files costs one rescan of the links, not one per file.
const COALESCE: Duration = Duration::from_millis(50);

/// The most events handled together: a storm that never pauses for [`COALESCE`] is still
/// reported as it goes, a batch at a time, rather than once it is over.
const MOST_AT_ONCE: usize = 4096;

/// Keeps the watcher alive; drop it to stop watching.
pub struct WorkflowWatcher {
    // The worker thread holds only a Weak reference, so dropping this stops notify, whose
    // callback owns the channel's sender, and the worker ends when the channel closes.
    state: Arc<Mutex<Watching>>,
}

struct Watching {
    notify: notify::RecommendedWatcher,
    /// Folders watched for links' files (neither the workflows nor the skills folder).
    linked: BTreeSet<PathBuf>,
    /// Where each link leads (folder canonical), with the link's id.
    targets: Vec<(PathBuf, String)>,
}

impl WorkflowWatcher {
    /// The folders watched because a workflow links into them, sorted and canonical.
    pub fn linked_folders(&self) -> Vec<PathBuf> {
        self.state.lock().expect("watcher lock").linked.iter().cloned().collect()
    }
}

/// Calls `on_change` for every workflow file written, created or removed in the library's
/// folder, or in the folder a linked workflow's file is kept in. Temporary files
/// (`.name.tmp`) and other files are ignored.
pub fn watch(
    library: Arc<Library>,
    on_change: impl Fn(WorkflowChange) + Send + 'static,
) -> crate::Result<WorkflowWatcher> {
    let dir = library.dir().to_path_buf();
    let skills = library.skills_dir().to_path_buf();
    let (events, received) = mpsc::channel();
    let mut notify = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        let _ = events.send(res);
    })?;
    notify.watch(&dir, RecursiveMode::NonRecursive)?;
    // The skills folder too, when there is one (one made later is seen after a restart).
    if skills.is_dir() {
        notify.watch(&skills, RecursiveMode::NonRecursive)?;
    }
    let mut watching = Watching { notify, linked: BTreeSet::new(), targets: Vec::new() };
    watching.follow_links(&library);
    let state = Arc::new(Mutex::new(watching));
    let weak = Arc::downgrade(&state);
    std::thread::Builder::new()
        .name("workflow-watcher".into())
        .spawn(move || handle_events(&received, &weak, &library, &on_change))?;
    Ok(WorkflowWatcher { state })
}

/// Handles events in batches until the watcher is dropped.
fn handle_events(
    received: &Receiver<notify::Result<notify::Event>>,
    state: &Weak<Mutex<Watching>>,
    library: &Library,
    on_change: &dyn Fn(WorkflowChange),
) {
    while let Ok(first) = received.recv() {
        let mut batch = vec![first];
        while batch.len() < MOST_AT_ONCE
            && let Ok(more) = received.recv_timeout(COALESCE)
        {
            batch.push(more);
        }
        let Some(state) = state.upgrade() else { return };
        let mut watching = state.lock().expect("watcher lock");
        let mut paths = BTreeSet::new();
        let mut rescan = false;
        for event in batch {
            // An error may mean events were lost: look at the links again.
            let Ok(event) = event else {
                rescan = true;
                continue;
            };
            rescan |= event.need_rescan();
            if matches!(event.kind, EventKind::Access(_)) {
                continue;
            }
            for path in event.paths {
                rescan |= path.parent() == Some(library.dir());
                paths.insert(path);
            }
        }
        if rescan {
            watching.follow_links(library);
        }
        let mut changed = BTreeSet::new();
        for path in &paths {
            if let Some(id) = library.id_of(path) {
                changed.insert(id);
            }
            let links = watching.targets.iter().filter(|(target, _)| target == path);
            changed.extend(links.map(|(_, id)| id.clone()));
        }
        drop(watching);
        for id in changed {
            let removed = library.file(&id).is_err();
            on_change(WorkflowChange { id, removed });
        }
    }
}

impl Watching {
    /// Reads the workflows folder's links again and watches the folders they lead into,
    /// each once; folders no link leads into any more are no longer watched.
    fn follow_links(&mut self, library: &Library) {
        self.targets = links(library);
        let own = [library.dir(), library.skills_dir()];
        let wanted: BTreeSet<PathBuf> = self
            .targets
            .iter()
            .filter_map(|(target, _)| target.parent())
            .filter(|folder| !own.contains(folder))
            .map(Path::to_path_buf)
            .collect();
        for gone in self.linked.difference(&wanted).cloned().collect::<Vec<_>>() {
            let _ = self.notify.unwatch(&gone);
            self.linked.remove(&gone);
        }
        for folder in wanted {
            // A folder that cannot be watched (unreadable) is tried again at the next rescan.
            if !self.linked.contains(&folder) && self.notify.watch(&folder, RecursiveMode::NonRecursive).is_ok() {
                self.linked.insert(folder);
            }
        }
    }
}

/// Each workflow that is a symbolic link, with the path it leads to: relative links are
/// read from the workflows folder, and the folder is canonical (as notify reports paths in
/// it). A dangling link counts when its folder exists, so its file appearing is seen.
fn links(library: &Library) -> Vec<(PathBuf, String)> {
    let Ok(entries) = std::fs::read_dir(library.dir()) else { return Vec::new() };
    let mut links = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(id) = library.id_of(&path) else { continue };
        let Ok(to) = std::fs::read_link(&path) else { continue };
        let to = library.dir().join(to);
        let (Some(folder), Some(name)) = (to.parent(), to.file_name()) else { continue };
        if let Ok(folder) = std::fs::canonicalize(folder) {
            links.push((folder.join(name), id));
        }
    }
    links
}
