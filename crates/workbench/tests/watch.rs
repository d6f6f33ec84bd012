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

/// `workflows/`, `skills/` and two repositories beside them, each keeping a workflow file.
struct Home {
    _root: tempfile::TempDir,
    root: PathBuf,
}

impl Home {
    fn new() -> Self {
        let root = tempfile::tempdir().expect("temp dir");
        // Canonical, as the watcher reports the folders it watches.
        let path = std::fs::canonicalize(root.path()).unwrap();
        for folder in ["workflows", "skills", "repo-a", "repo-b"] {
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

/// Replaces the link at `path` as `ln -sfn` does: a new link renamed over the old one.
fn retarget(path: PathBuf, to: &str) {
    let new = path.with_file_name(".retargeted.new");
    std::os::unix::fs::symlink(to, &new).unwrap();
    std::fs::rename(new, path).unwrap();
}

#[test]
fn a_link_to_a_link_is_followed_to_its_file_and_a_retarget_on_the_way_is_seen() {
    let home = Home::new();
    // repo-a keeps its shop.json as a link into repo-b, where the file is.
    std::fs::remove_file(home.path("repo-a/shop.json")).unwrap();
    std::os::unix::fs::symlink("../repo-b/shop.json", home.path("repo-a/shop.json")).unwrap();
    home.link("../repo-a/shop.json", "shop.json");
    let (watching, rx) = home.watch();
    assert_eq!(watching.linked_folders(), [home.path("repo-a"), home.path("repo-b")]);
    std::fs::write(home.path("repo-b/shop.json"), r#"{"edited": "at the end of the chain"}"#).unwrap();
    assert!(!change_of(&rx, "shop.json").removed);

    // The middle link retargeted into a third repository: reported, then followed there.
    std::fs::create_dir(home.path("repo-c")).unwrap();
    std::fs::write(home.path("repo-c/shop.json"), "{}").unwrap();
    drain(&rx);
    retarget(home.path("repo-a/shop.json"), "../repo-c/shop.json");
    assert!(!change_of(&rx, "shop.json").removed);
    until_watching(&watching, &[home.path("repo-a"), home.path("repo-c")]);
    drain(&rx);
    std::fs::write(home.path("repo-c/shop.json"), r#"{"edited": "in repo c"}"#).unwrap();
    change_of(&rx, "shop.json");
}

#[test]
fn a_loop_of_links_and_a_chain_past_forty_hops_are_followed_only_so_far() {
    let home = Home::new();
    std::os::unix::fs::symlink("../repo-b/loop.json", home.path("repo-a/loop.json")).unwrap();
    std::os::unix::fs::symlink("../repo-a/loop.json", home.path("repo-b/loop.json")).unwrap();
    home.link("../repo-a/loop.json", "loop.json");
    // And a loop of folder links: repo-a/round -> ../repo-b/round -> ../repo-a/round.
    std::os::unix::fs::symlink("../repo-b/round", home.path("repo-a/round")).unwrap();
    std::os::unix::fs::symlink("../repo-a/round", home.path("repo-b/round")).unwrap();
    home.link("../repo-a/round/shop.json", "round.json");
    // hop-00/long.json -> ../hop-01/long.json -> ... -> hop-44/long.json, a file.
    for hop in 0..45 {
        std::fs::create_dir(home.path(&format!("hop-{hop:02}"))).unwrap();
        let file = home.path(&format!("hop-{hop:02}/long.json"));
        match hop {
            44 => std::fs::write(file, "{}").unwrap(),
            _ => std::os::unix::fs::symlink(format!("../hop-{:02}/long.json", hop + 1), file).unwrap(),
        }
    }
    home.link("../hop-00/long.json", "long.json");
    let (watching, rx) = home.watch();
    let hops: Vec<_> = (0..40).map(|hop| home.path(&format!("hop-{hop:02}"))).collect();
    let mut folders = [hops, vec![home.path("repo-a"), home.path("repo-b")]].concat();
    folders.sort();
    assert_eq!(watching.linked_folders(), folders, "40 hops, as the kernel follows");

    // The loop broken by a file where one of its links was: reported and followed.
    std::fs::remove_file(home.path("repo-b/loop.json")).unwrap();
    std::fs::write(home.path("repo-b/loop.json"), "{}").unwrap();
    present(&rx, "loop.json");
    std::fs::remove_file(home.path("repo-b/round")).unwrap();
    std::fs::create_dir(home.path("repo-b/round")).unwrap();
    std::fs::write(home.path("repo-b/round/shop.json"), "{}").unwrap();
    present(&rx, "round.json");
}

/// The first change reported for `id` that finds its file there.
fn present(rx: &Receiver<WorkflowChange>, id: &str) {
    let until = Instant::now() + DEADLINE;
    while change_of(rx, id).removed {
        assert!(Instant::now() < until, "{id} still reported removed");
    }
}
#[test]
fn a_skill_that_is_a_link_is_reported_when_its_file_is_edited() {
    let home = Home::new();
    std::os::unix::fs::symlink("../repo-b/shop.json", home.path("skills/sign-in.json")).unwrap();
    let (watching, rx) = home.watch();
    assert_eq!(watching.linked_folders(), [home.path("repo-b")]);
    std::fs::write(home.path("repo-b/shop.json"), r#"{"edited": "as a skill"}"#).unwrap();
    assert!(!change_of(&rx, "skills/sign-in.json").removed);

    // A skill linked later is followed as it comes, and no longer once it is gone.
    std::os::unix::fs::symlink("../repo-a/cart.json", home.path("skills/cart.json")).unwrap();
    until_watching(&watching, &[home.path("repo-a"), home.path("repo-b")]);
    drain(&rx);
    std::fs::write(home.path("repo-a/cart.json"), r#"{"edited": "as a skill"}"#).unwrap();
    change_of(&rx, "skills/cart.json");
    std::fs::remove_file(home.path("skills/sign-in.json")).unwrap();
    until_watching(&watching, &[home.path("repo-a")]);
}

#[test]
fn a_link_into_a_folder_made_later_is_followed_once_the_folder_is_there() {
    let home = Home::new();
    home.link("../repo-c/deep/shop.json", "shop.json");
    let (watching, rx) = home.watch();
    // Until repo-c is there, only the folder it will be made in is watched, for it.
    assert_eq!(watching.linked_folders(), std::slice::from_ref(&home.root));
    std::fs::create_dir_all(home.path("repo-c/deep")).unwrap();
    until_watching(&watching, &[home.path("repo-c/deep")]);
    drain(&rx);
    std::fs::write(home.path("repo-c/deep/shop.json"), "{}").unwrap();
    assert!(!change_of(&rx, "shop.json").removed);

    // Removed (as a checkout of another branch does) and made again with its file at once.
    drain(&rx);
    std::fs::remove_dir_all(home.path("repo-c")).unwrap();
    assert!(change_of(&rx, "shop.json").removed);
    until_watching(&watching, std::slice::from_ref(&home.root));
    std::fs::create_dir_all(home.path("repo-c/deep")).unwrap();
    std::fs::write(home.path("repo-c/deep/shop.json"), "{}").unwrap();
    present(&rx, "shop.json");
    until_watching(&watching, &[home.path("repo-c/deep")]);
    drain(&rx);
    std::fs::write(home.path("repo-c/deep/shop.json"), r#"{"edited": "after it came back"}"#).unwrap();
    change_of(&rx, "shop.json");

    // Unlinked, then linked into another missing folder, then unlinked: nothing is left
    // watched for it, neither the folder nor the one it was awaited from.
    std::fs::remove_file(home.path("workflows/shop.json")).unwrap();
    until_watching(&watching, &[]);
    home.link("../repo-d/shop.json", "shop.json");
    until_watching(&watching, std::slice::from_ref(&home.root));
    std::fs::remove_file(home.path("workflows/shop.json")).unwrap();
    until_watching(&watching, &[]);
}

/// The ids reported before `id` is: with nothing else written meanwhile, what an edit made
/// before `id`'s was reported as (events come in the order they happen).
fn reported_before(rx: &Receiver<WorkflowChange>, id: &str) -> Vec<String> {
    let until = Instant::now() + DEADLINE;
    let mut before = Vec::new();
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(change) if change.id == id => return before,
            Ok(change) => before.push(change.id),
            Err(_) => panic!("no change of {id} reported within {DEADLINE:?}"),
        }
    }
}

#[test]
fn a_folder_link_on_the_way_is_followed_and_its_retarget_is_seen() {
    let home = Home::new();
    // workflows/shop.json -> shared/current/shop.json, where current -> v1 (a folder link,
    // retargeted to v2 when a new version is released).
    for version in ["v1", "v2"] {
        std::fs::create_dir_all(home.path(&format!("shared/{version}"))).unwrap();
        std::fs::write(home.path(&format!("shared/{version}/shop.json")), "{}").unwrap();
    }
    std::os::unix::fs::symlink("v1", home.path("shared/current")).unwrap();
    home.link(home.path("shared/current/shop.json").to_str().unwrap(), "shop.json");
    let (watching, rx) = home.watch();
    assert_eq!(watching.linked_folders(), [home.path("shared"), home.path("shared/v1")]);

    retarget(home.path("shared/current"), "v2");
    assert!(!change_of(&rx, "shop.json").removed, "it reads another file now");
    until_watching(&watching, &[home.path("shared"), home.path("shared/v2")]);
    drain(&rx);
    std::fs::write(home.path("shared/v2/shop.json"), r#"{"edited": "in v2"}"#).unwrap();
    change_of(&rx, "shop.json");
    drain(&rx);
    std::fs::write(home.path("shared/v1/shop.json"), r#"{"edited": "in v1"}"#).unwrap();
    std::fs::write(home.path("workflows/plain.json"), "{}").unwrap();
    let before = reported_before(&rx, "plain.json");
    assert!(!before.iter().any(|id| id == "shop.json"), "v1 is no longer on its way: {before:?}");
}

#[test]
fn a_skills_folder_made_after_the_start_is_watched_and_its_links_followed() {
    let home = Home::new();
    std::fs::remove_dir(home.path("skills")).unwrap();
    let (watching, rx) = home.watch();
    // Until it is made, the folder it is to be made in is watched for it.
    assert_eq!(watching.linked_folders(), std::slice::from_ref(&home.root));
    std::fs::create_dir(home.path("skills")).unwrap();
    std::fs::write(home.path("skills/sign-in.json"), "{}").unwrap();
    present(&rx, "skills/sign-in.json");
    until_watching(&watching, &[]);

    std::os::unix::fs::symlink("../repo-a/cart.json", home.path("skills/cart.json")).unwrap();
    until_watching(&watching, &[home.path("repo-a")]);
    drain(&rx);
    std::fs::write(home.path("repo-a/cart.json"), r#"{"edited": "as a skill"}"#).unwrap();
    change_of(&rx, "skills/cart.json");

    // Removed (a checkout of a branch without it) and made again: awaited, then watched anew.
    std::fs::remove_dir_all(home.path("skills")).unwrap();
    until_watching(&watching, std::slice::from_ref(&home.root));
    std::fs::create_dir(home.path("skills")).unwrap();
    until_watching(&watching, &[]);
    drain(&rx);
    std::fs::write(home.path("skills/sign-in.json"), "{}").unwrap();
    present(&rx, "skills/sign-in.json");
}
