//! Deleting to the trash and restoring from it, on real files in a temporary folder.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use statewright_workbench::{Error, Library};

/// `workflows/` in a fresh folder, with `skills/` beside it.
struct Home {
    root: tempfile::TempDir,
    lib: Library,
}

impl Home {
    fn new() -> Self {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(root.path().join("workflows")).expect("workflows folder");
        std::fs::create_dir(root.path().join("skills")).expect("skills folder");
        let lib = Library::new(root.path().join("workflows"));
        Self { root, lib }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }
}

fn at(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|items| items.map(|i| i.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_deleted_workflow_waits_in_the_trash_and_comes_back_byte_for_byte() {
    let home = Home::new();
    home.lib.create("Shop").expect("create");
    home.lib.create("Other").expect("create");
    let before = std::fs::read(home.path("workflows/shop.json")).unwrap();

    let trashed = home.lib.delete("shop.json", at(1_718_000_000_000)).expect("delete");
    assert_eq!(trashed.id, "1718000000000-shop.json");
    assert_eq!(
        (trashed.original.as_str(), trashed.name.as_str(), trashed.deleted_ms),
        ("shop.json", "Shop", 1_718_000_000_000)
    );
    assert!(!home.path("workflows/shop.json").exists(), "gone from the folder");
    assert_eq!(files_in(&home.path("workflows/.trash")), ["1718000000000-shop.json"], "moved, not removed");
    let listed: Vec<String> = home.lib.list().unwrap().into_iter().map(|e| e.id).collect();
    assert_eq!(listed, ["other.json"], "the trash is not a workflow of the folder");
    assert_eq!(home.lib.list_trash().unwrap(), std::slice::from_ref(&trashed), "listed as it was trashed");

    let restored = home.lib.restore(&trashed.id, None).expect("restore");
    assert_eq!((restored.id.as_str(), restored.name.as_str()), ("shop.json", "Shop"));
    assert_eq!(std::fs::read(home.path("workflows/shop.json")).unwrap(), before, "the very bytes that were deleted");
    assert!(home.lib.list_trash().unwrap().is_empty(), "restored: out of the trash");
    let again = home.lib.restore(&trashed.id, None).expect_err("restored once only");
    assert_eq!(again.code(), "not_found", "{again}");
}

#[test]
fn the_trash_lists_the_latest_first_and_keeps_two_deletions_in_one_millisecond() {
    let home = Home::new();
    home.lib.create("Shop").expect("create");
    let first = home.lib.delete("shop.json", at(5_000)).expect("delete");
    home.lib.create("Shop").expect("create it again");
    let second = home.lib.delete("shop.json", at(5_000)).expect("delete again, same clock");
    assert_ne!(first.id, second.id, "the second copy does not replace the first");
    assert_eq!(second.deleted_ms, 5_001);
    home.lib.create("Alpha").expect("create");
    home.lib.delete("alpha.json", at(1_000)).expect("delete");
    let order: Vec<String> = home.lib.list_trash().unwrap().into_iter().map(|e| e.id).collect();
    assert_eq!(order, ["5001-shop.json", "5000-shop.json", "1000-alpha.json"]);
}

#[test]
fn a_skill_goes_to_the_skills_trash_and_back_to_the_skills_folder() {
    let home = Home::new();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::copy(repo.join("skills/demo-sign-in.json"), home.path("skills/demo-sign-in.json")).unwrap();

    let trashed = home.lib.delete("skills/demo-sign-in.json", at(7)).expect("delete a skill");
    assert_eq!(trashed.id, "skills/7-demo-sign-in.json");
    assert!(trashed.skill);
    assert_eq!(files_in(&home.path("skills/.trash")), ["7-demo-sign-in.json"], "in the skills folder's own trash");
    assert!(!home.path("workflows/.trash").exists(), "not in the workflows' trash");

    let restored = home.lib.restore(&trashed.id, None).expect("restore");
    assert_eq!(restored.id, "skills/demo-sign-in.json");
    assert!(restored.skill && home.path("skills/demo-sign-in.json").is_file());
}

#[test]
fn restoring_over_a_taken_name_is_refused_and_a_new_name_can_be_given() {
    let home = Home::new();
    home.lib.create("Shop").expect("create");
    let trashed = home.lib.delete("shop.json", at(42)).expect("delete");
    home.lib.create("Shop").expect("a new workflow under the old name");
    let newer = std::fs::read(home.path("workflows/shop.json")).unwrap();

    let refused = home.lib.restore(&trashed.id, None).expect_err("the name is taken");
    assert!(matches!(refused, Error::Exists(ref id) if id == "shop.json"), "{refused}");
    assert_eq!(refused.code(), "exists");
    assert_eq!(std::fs::read(home.path("workflows/shop.json")).unwrap(), newer, "the newer file is untouched");
    assert_eq!(home.lib.list_trash().unwrap().len(), 1, "the deleted one stays in the trash");

    let bad = home.lib.restore(&trashed.id, Some("../../evil")).expect_err("a new name is checked like any name");
    assert_eq!(bad.code(), "bad_name");
    let restored = home.lib.restore(&trashed.id, Some("Old shop")).expect("restore under a new name");
    assert_eq!((restored.id.as_str(), restored.name.as_str()), ("old-shop.json", "Old shop"));
    assert!(home.lib.open("old-shop.json").unwrap().diagnostics.is_empty(), "still a valid workflow");
    assert!(home.lib.list_trash().unwrap().is_empty());
}

#[test]
fn hostile_names_reach_nothing_outside_the_folders() {
    let home = Home::new();
    home.lib.create("Shop").expect("create");
    // Files a hostile name might aim at: beside the folders, and in a trash-like place outside.
    std::fs::write(home.path("secret.json"), "{}").unwrap();
    std::fs::create_dir(home.path(".trash")).unwrap();
    std::fs::write(home.path(".trash/1-secret.json"), "{}").unwrap();
    let secret = home.path("secret.json").display().to_string();

    for id in [
        "../secret.json",
        secret.as_str(),
        "skills/../secret.json",
        "skills/../../secret.json",
        "a/b.json",
        "..",
        ".trash",
        "shop.json\0",
    ] {
        let e = home.lib.delete(id, at(1)).expect_err(id);
        assert_eq!(e.code(), "not_found", "{id}: {e}");
    }
    for id in [
        "../secret.json",
        "1-../secret.json",
        "1-..\\secret.json",
        "../.trash/1-secret.json",
        "skills/../../.trash/1-secret.json",
        "skills/1-../../secret.json",
        ".trash/1-shop.json",
        secret.as_str(),
    ] {
        let e = home.lib.restore(id, None).expect_err(id);
        assert_eq!(e.code(), "not_found", "{id}: {e}");
    }
    assert!(home.path("secret.json").is_file() && home.path(".trash/1-secret.json").is_file(), "nothing outside moved");
    assert!(home.path("workflows/shop.json").is_file(), "nor anything inside");
    assert!(home.lib.list_trash().unwrap().is_empty());

    // A file put in the trash by hand under a name the trash does not make is passed over.
    std::fs::create_dir_all(home.path("workflows/.trash")).unwrap();
    std::fs::write(home.path("workflows/.trash/notes.json"), "{}").unwrap();
    assert!(home.lib.list_trash().unwrap().is_empty());
}

/// Each thing a person may have left at `workflows/.trash` that is no folder of its own, how
/// the refusal names it, and whether it stays as it was.
#[cfg(unix)]
#[test]
fn a_trash_that_is_not_a_folder_is_refused_naming_it_and_nothing_moves() {
    type Make = fn(&Home, &Path);
    let cases: [(&str, Make, &str); 4] = [
        ("a file", |_, trash| std::fs::write(trash, "my notes").unwrap(), "it is a file."),
        (
            "a named pipe",
            |_, trash| assert!(std::process::Command::new("mkfifo").arg(trash).status().unwrap().success()),
            "it is a named pipe (FIFO).",
        ),
        (
            "a broken link",
            |home, trash| std::os::unix::fs::symlink(home.path("gone"), trash).unwrap(),
            "gone, which does not exist.",
        ),
        (
            "a link to a folder outside",
            |home, trash| std::os::unix::fs::symlink(home.path("elsewhere"), trash).unwrap(),
            "it is a symbolic link to the folder",
        ),
    ];
    for (case, make, what) in cases {
        let home = Home::new();
        home.lib.create("Shop").expect("create");
        let before = std::fs::read(home.path("workflows/shop.json")).unwrap();
        // Outside the workflows folder: a file a restore through the link would take in.
        std::fs::create_dir(home.path("elsewhere")).unwrap();
        std::fs::write(home.path("elsewhere/1-other.json"), r#"{"name": "other"}"#).unwrap();
        let trash = home.path("workflows/.trash");
        make(&home, &trash);

        let refused = home.lib.delete("shop.json", at(1)).expect_err(case);
        assert_eq!(refused.code(), "trash_not_a_folder", "{case}: {refused}");
        let message = refused.to_string();
        assert!(message.starts_with(&format!("cannot use the trash {}: ", trash.display())), "{case}: {message}");
        assert!(message.contains(what), "{case}: {message}");
        assert!(message.contains("Nothing was moved"), "{case}: {message}");
        assert_eq!(std::fs::read(home.path("workflows/shop.json")).unwrap(), before, "{case}: the workflow stays");
        for refused in [home.lib.list_trash().expect_err(case), home.lib.restore("1-other.json", None).expect_err(case)]
        {
            assert_eq!(refused.code(), "trash_not_a_folder", "{case}: {refused}");
        }
        assert_eq!(files_in(&home.path("elsewhere")), ["1-other.json"], "{case}: nothing moved in or out");
        assert!(!home.path("workflows/other.json").exists(), "{case}");
        let left = std::fs::symlink_metadata(&trash).expect("the person's .trash is left");
        assert!(!left.is_dir(), "{case}");
        if case == "a file" {
            assert_eq!(std::fs::read_to_string(&trash).unwrap(), "my notes", "never written over");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_linked_workflow_goes_to_the_trash_as_its_link_and_comes_back_as_it() {
    let home = Home::new();
    home.lib.create("Shop").expect("create");
    // The workflow kept in its own repository, linked into the folder as `ln -s` makes it.
    std::fs::create_dir(home.path("repo")).unwrap();
    std::fs::rename(home.path("workflows/shop.json"), home.path("repo/shop.json")).unwrap();
    std::os::unix::fs::symlink("../repo/shop.json", home.path("workflows/shop.json")).unwrap();
    let kept = std::fs::read(home.path("repo/shop.json")).unwrap();

    let trashed = home.lib.delete("shop.json", at(9)).expect("delete");
    assert_eq!(home.lib.list_trash().unwrap(), std::slice::from_ref(&trashed), "listed, with its workflow's name");
    assert_eq!(trashed.name, "Shop");
    assert_eq!(std::fs::read(home.path("repo/shop.json")).unwrap(), kept, "its file stays where it is kept");

    let restored = home.lib.restore(&trashed.id, None).expect("restore");
    assert_eq!((restored.id.as_str(), restored.name.as_str()), ("shop.json", "Shop"));
    let link = std::fs::read_link(home.path("workflows/shop.json")).expect("back as a link");
    assert_eq!(link, Path::new("../repo/shop.json"));
    assert!(home.lib.list_trash().unwrap().is_empty());
}

#[test]
fn a_trashed_link_to_a_named_pipe_is_refused_at_once_when_restored_under_a_new_name() {
    let home = Home::new();
    std::fs::create_dir(home.path("workflows/.trash")).unwrap();
    let pipe = home.path("pipe.json");
    assert!(std::process::Command::new("mkfifo").arg(&pipe).status().unwrap().success());
    std::os::unix::fs::symlink(&pipe, home.path("workflows/.trash/1718000000000-x.json")).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let lib = Library::new(home.path("workflows"));
    std::thread::spawn(move || tx.send(lib.restore("1718000000000-x.json", Some("y")).map(|_| ())));
    // Before, the pipe was waited on for ever.
    let refused = rx.recv_timeout(Duration::from_secs(20)).expect("answered within 20 s").expect_err("a pipe");
    assert!(refused.to_string().contains("is a named pipe (FIFO), not a regular file"), "{refused}");
    assert_eq!(files_in(&home.path("workflows/.trash")), ["1718000000000-x.json"], "left in the trash");
}

#[cfg(unix)]
#[test]
fn a_trashed_link_whose_file_is_gone_is_not_restored_and_stays_in_the_trash() {
    let home = Home::new();
    std::fs::create_dir(home.path("repo")).unwrap();
    std::fs::write(home.path("repo/shop.json"), r#"{"name": "Shop"}"#).unwrap();
    std::os::unix::fs::symlink("../repo/shop.json", home.path("workflows/shop.json")).unwrap();
    let trashed = home.lib.delete("shop.json", at(9)).expect("delete");
    // Its file removed from the repository since.
    std::fs::remove_file(home.path("repo/shop.json")).unwrap();

    for name in [None, Some("Shop again")] {
        let refused = home.lib.restore(&trashed.id, name).expect_err("a link leading nowhere");
        assert_eq!(refused.code(), "dangling_link", "{name:?}: {refused}");
        assert!(refused.to_string().contains("../repo/shop.json, which does not exist"), "{refused}");
        assert_eq!(files_in(&home.path("workflows")), [".trash"], "{name:?}: nothing put back");
        let listed: Vec<String> = home.lib.list_trash().unwrap().into_iter().map(|e| e.id).collect();
        assert_eq!(listed, [trashed.id.as_str()], "{name:?}: left in the trash");
    }
    let entry = std::fs::read_link(home.path("workflows/.trash/9-shop.json")).expect("still the link");
    assert_eq!(entry, Path::new("../repo/shop.json"));

    // Its file back, the link is restored.
    std::fs::write(home.path("repo/shop.json"), r#"{"name": "Shop"}"#).unwrap();
    assert_eq!(home.lib.restore(&trashed.id, None).expect("restore").id, "shop.json");
}
