//! Watching the workflows folder for changes made by other programs (an editor, git, the
//! CLI). A workflow or skill file may be a symbolic link to a file kept elsewhere (its own
//! git repository), so the folder each link leads into is watched too (and, for a link to a
//! link or through a folder that is a link, every folder on the way: see [`links`]), and an
//! edit there is reported under the link's id. The returned handle stops the watcher when dropped.

mod links;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};

use crate::Library;
use crate::ipc::WorkflowChange;
use links::Links;

/// How long events keep arriving before they are handled together: a checkout that writes
/// thousands of files costs one rescan of the links, not one per file.
const COALESCE: Duration = Duration::from_millis(50);

/// The most times the links are read again in one rescan, each time because a folder was
/// newly watched: one made between reading the links and watching it has no event to tell
/// of it, so they are read again until no new folder is wanted (a `mkdir -p` racing with the
/// rescan), within reason; what is made after is seen by the folders watched by then.
const MOST_ROUNDS: usize = 16;

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
    /// The workflows folder, and the skills folder while it is there (until then, it is
    /// awaited as a link's missing folder is).
    own: Vec<PathBuf>,
    /// Folders watched for links' files, or for a missing one to be made (neither of `own`).
    linked: BTreeSet<PathBuf>,
    links: Links,
}

impl WorkflowWatcher {
    /// The folders watched because a workflow or skill links into them or holds a folder
    /// link on its way or, for a folder not there yet, the nearest folder above it that is
    /// (to see it made), sorted and canonical.
    pub fn linked_folders(&self) -> Vec<PathBuf> {
        self.state.lock().expect("watcher lock").linked.iter().cloned().collect()
    }
}

/// Calls `on_change` for every workflow or skill file written, created or removed in the
/// library's folders (the skills folder too when it is made later: its skills are reported
/// then), or in a folder a linked one's file is kept in or its link leads through. Temporary
/// files (`.name.tmp`) and other files are ignored.
pub fn watch(
    library: Arc<Library>,
    on_change: impl Fn(WorkflowChange) + Send + 'static,
) -> crate::Result<WorkflowWatcher> {
    let dir = library.dir().to_path_buf();
    let (events, received) = mpsc::channel();
    let mut notify = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        let _ = events.send(res);
    })?;
    notify.watch(&dir, RecursiveMode::NonRecursive)?;
    let mut watching = Watching { notify, own: vec![dir], linked: BTreeSet::new(), links: Links::default() };
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
            paths.extend(event.paths);
        }
        let mut changed = BTreeSet::new();
        for path in &paths {
            // A watched folder removed or moved away takes its watch along (or keeps it on
            // the moved folder): whatever is by its name now is watched anew.
            let skills = path == library.skills_dir() && watching.own.contains(path);
            if watching.linked.remove(path) || skills {
                let _ = watching.notify.unwatch(path);
                watching.own.retain(|own| own != path);
                rescan = true;
            }
            let through: Vec<String> = watching.links.ids_through(path).cloned().collect();
            // A link added, retargeted or removed in the workflows or skills folder, or on a
            // link's way (a file there may have become a link, or stopped being one), is
            // followed again.
            let own = path.parent().is_some_and(|folder| watching.own.iter().any(|own| own == folder));
            rescan |= !through.is_empty() || own || watching.links.awaited.contains(path);
            changed.extend(through);
            changed.extend(library.id_of(path));
        }
        if rescan {
            changed.extend(watching.follow_links(library));
        }
        drop(watching);
        for id in changed {
            let removed = library.file(&id).is_err();
            on_change(WorkflowChange { id, removed });
        }
    }
}

impl Watching {
    /// Reads the links in the workflows and skills folders again and watches the folders
    /// they lead through, each once; folders no link leads into any more are no longer
    /// watched. Gives the ids of the links that lead elsewhere than before, and of the
    /// skills in a skills folder newly watched.
    fn follow_links(&mut self, library: &Library) -> BTreeSet<String> {
        let before = std::mem::take(&mut self.links);
        let mut skills = Vec::new();
        for _ in 0..MOST_ROUNDS {
            let there = library.skills_dir().is_dir();
            skills.extend(self.watch_skills(library, there));
            self.links = Links::read(library, &self.own);
            // A skills folder made since it was looked for may have had no watch to tell of it.
            if !self.watch_wanted() && there == library.skills_dir().is_dir() {
                break;
            }
        }
        let ids = before.chains.keys().chain(self.links.chains.keys());
        let relinked = ids.filter(|id| before.chains.get(*id) != self.links.chains.get(*id)).cloned();
        relinked.chain(skills).collect()
    }

    /// Watches the skills folder as one of `own` when it is `there` and was not watched (made
    /// since the start, or made again), and no longer when it is gone. Gives the ids of the
    /// skills in a folder newly watched: written before its watch, they had no event of theirs.
    fn watch_skills(&mut self, library: &Library, there: bool) -> Vec<String> {
        let skills = library.skills_dir();
        let watched = self.own.iter().any(|own| own == skills);
        if there && !watched && self.notify.watch(skills, RecursiveMode::NonRecursive).is_ok() {
            self.own.push(skills.to_path_buf());
            let entries = std::fs::read_dir(skills).into_iter().flatten().flatten();
            return entries.filter_map(|entry| library.id_of(&entry.path())).collect();
        }
        if !there && watched {
            let _ = self.notify.unwatch(skills);
            self.own.retain(|own| own != skills);
        }
        Vec::new()
    }

    /// Watches the folders the links want and no others; tells whether one is newly watched.
    fn watch_wanted(&mut self) -> bool {
        let wanted = &self.links.folders;
        for gone in self.linked.difference(wanted).cloned().collect::<Vec<_>>() {
            let _ = self.notify.unwatch(&gone);
            self.linked.remove(&gone);
        }
        let mut newly = false;
        for folder in wanted {
            // A folder that cannot be watched (unreadable) is tried again at the next rescan.
            if !self.linked.contains(folder) && self.notify.watch(folder, RecursiveMode::NonRecursive).is_ok() {
                self.linked.insert(folder.clone());
                newly = true;
            }
        }
        newly
    }
}
