//! The watcher on real folders: a workflow file that is a symbolic link to a file kept in
//! another folder (its own repository) is reported when that file is edited there.
#![cfg(unix)]

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use statewright_workbench::ipc::WorkflowChange;
use statewright_workbench::{Library, watch};

const DEADLINE: Duration = Duration::from_secs(5);

/// `workflows/` and two repositories beside it, each keeping a workflow file.
struct Home {
    _root: tempfile::TempDir,
    root: PathBuf,
}

impl Home {
    fn new() -> Self {
        let root = tempfile::tempdir().expect("temp dir");
        // Canonical, as the watcher reports the folders it watches.
        let path = std::fs::canonicalize(root.path()).unwrap();
        for folder in ["workflows", "repo-a", "repo-b"] {
            std::fs::create_dir(path.join(folder)).unwrap();
        }
        for file in ["repo-a/shop.json", "repo-a/cart.json", "repo-b/shop.json"] {
            std::fs::write(path.join(file), "{}").unwrap();
        }
        Self { _root: root, root: path }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    fn link(&self, to: &str, name: &str) {
        std::os::unix::fs::symlink(to, self.path("workflows").join(name)).unwrap();
    }

    fn watch(&self) -> (watch::WorkflowWatcher, Receiver<WorkflowChange>) {
        let (tx, rx) = mpsc::channel();
        let watching = watch::watch(Arc::new(Library::new(self.path("workflows"))), move |change| {
            let _ = tx.send(change);
        })
        .expect("watch");
        (watching, rx)
    }
}

/// The first change reported for `id` within the deadline.
fn change_of(rx: &Receiver<WorkflowChange>, id: &str) -> WorkflowChange {
    let until = Instant::now() + DEADLINE;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(change) if change.id == id => return change,
            Ok(_) => {}
            Err(_) => panic!("no change of {id} reported within {DEADLINE:?}"),
        }
    }
}

/// Waits until the watcher watches exactly `folders` for linked files.
fn until_watching(watching: &watch::WorkflowWatcher, folders: &[PathBuf]) {
    let until = Instant::now() + DEADLINE;
    while watching.linked_folders() != folders {
        assert!(Instant::now() < until, "watching {:?}, not {folders:?}", watching.linked_folders());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn drain(rx: &Receiver<WorkflowChange>) {
    std::thread::sleep(Duration::from_millis(200));
    while rx.try_recv().is_ok() {}
}

#[test]
fn an_edit_to_a_linked_workflows_file_in_its_repository_is_reported() {
    let home = Home::new();
    home.link(home.path("repo-a/shop.json").to_str().unwrap(), "shop.json");
    let (_watching, rx) = home.watch();
    std::fs::write(home.path("repo-a/shop.json"), r#"{"edited": "in its repository"}"#).unwrap();
    let change = change_of(&rx, "shop.json");
    assert!(!change.removed, "{change:?}");

    std::fs::remove_file(home.path("repo-a/shop.json")).unwrap();
    assert!(change_of(&rx, "shop.json").removed, "its file gone, the link leads nowhere");
}

#[test]
fn each_folder_is_watched_once_and_follows_links_added_retargeted_and_removed() {
    let home = Home::new();
    // Two links into one repository, a relative one as `ln -s` makes it, and a link to a
    // workflow in the folder itself (watched already).
    home.link("../repo-a/shop.json", "shop.json");
    home.link(home.path("repo-a/cart.json").to_str().unwrap(), "cart.json");
    std::fs::write(home.path("workflows/plain.json"), "{}").unwrap();
    home.link("plain.json", "alias.json");
    let (watching, rx) = home.watch();
    assert_eq!(watching.linked_folders(), [home.path("repo-a")]);

    std::fs::write(home.path("workflows/plain.json"), r#"{"edited": true}"#).unwrap();
    change_of(&rx, "alias.json");

    // Retargeted as `ln -sfn` does it: a new link renamed over the old one.
    std::os::unix::fs::symlink("../repo-b/shop.json", home.path("workflows/.shop.json.new")).unwrap();
    std::fs::rename(home.path("workflows/.shop.json.new"), home.path("workflows/shop.json")).unwrap();
    until_watching(&watching, &[home.path("repo-a"), home.path("repo-b")]);
    drain(&rx);
    std::fs::write(home.path("repo-b/shop.json"), r#"{"edited": "in repo b"}"#).unwrap();
    change_of(&rx, "shop.json");

    std::fs::remove_file(home.path("workflows/cart.json")).unwrap();
    until_watching(&watching, &[home.path("repo-b")]);
    std::fs::remove_file(home.path("workflows/shop.json")).unwrap();
    until_watching(&watching, &[]);

    home.link("../repo-a/cart.json", "cart.json");
    until_watching(&watching, &[home.path("repo-a")]);
    drain(&rx);
    std::fs::write(home.path("repo-a/cart.json"), r#"{"edited": "after the link came"}"#).unwrap();
    change_of(&rx, "cart.json");
}
