//! The workflows folder as the app's commands use it: real files in a temporary folder.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::json;
use statewright_workbench::{Error, Library, watch};

/// A library over `workflows/` in a fresh folder (its skills go to `skills/` beside it).
fn library() -> (Folder, Library) {
    let root = tempfile::tempdir().expect("temp dir");
    let dir = root.path().join("workflows");
    std::fs::create_dir(&dir).expect("workflows folder");
    let lib = Library::new(&dir);
    (Folder { _root: root, dir }, lib)
}

struct Folder {
    _root: tempfile::TempDir,
    dir: std::path::PathBuf,
}

impl Folder {
    fn path(&self) -> &std::path::Path {
        &self.dir
    }
}

#[test]
fn a_created_workflow_is_listed_and_opens_valid() {
    let (_dir, lib) = library();
    let entry = lib.create("Login flow").expect("create");
    assert_eq!(entry.id, "login-flow.json");
    assert_eq!(entry.name, "Login flow");
    let listed = lib.list().expect("list");
    assert_eq!(listed.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ["login-flow.json"]);
    let opened = lib.open("login-flow.json").expect("open");
    assert!(opened.workflow.is_some());
    assert!(opened.diagnostics.is_empty(), "the starter workflow validates: {:?}", opened.diagnostics);
    assert!(matches!(lib.create("login flow"), Err(Error::Exists(_))), "the same file twice is refused");
    assert!(matches!(lib.create("../evil"), Err(Error::BadName(_))));
}

#[test]
fn saving_writes_the_native_format_and_refuses_to_overwrite_changes_made_elsewhere() {
    let (dir, lib) = library();
    lib.create("Shop").expect("create");
    let opened = lib.open("shop.json").expect("open");
    let mut wf = serde_json::to_value(opened.workflow.expect("a workflow")).expect("json");
    // Field order as the UI might send it: the file still comes out in the model's order.
    wf["states"][0] = json!({"next": ["Done"], "checks": [{"value": "about:blank", "type": "url"}], "name": "Begin"});
    wf["states"][1]["name"] = json!("Done");
    let saved = lib.save("shop.json", &wf, Some(&opened.hash)).expect("save");
    let text = std::fs::read_to_string(dir.path().join("shop.json")).expect("read");
    assert!(text.contains("\"name\": \"Begin\",\n      \"checks\""), "stable field order:\n{text}");
    assert!(saved.diagnostics.is_empty(), "{:?}", saved.diagnostics);

    std::fs::write(dir.path().join("shop.json"), text.replace("Begin", "Start")).expect("edit elsewhere");
    let err = lib.save("shop.json", &wf, Some(&saved.hash)).expect_err("a stale hash is a conflict");
    assert_eq!(err.code(), "conflict");
    lib.save("shop.json", &wf, None).expect("overwriting knowingly works");
}

#[test]
fn saving_a_one_state_change_changes_only_that_state_in_the_file() {
    let (dir, lib) = library();
    let shipped = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo"))
        .join("../../workflows/demo-shop.json");
    let before = std::fs::read_to_string(shipped).expect("the bundled demo workflow");
    std::fs::write(dir.path().join("demo-shop.json"), &before).expect("copy");
    let opened = lib.open("demo-shop.json").expect("open");
    let mut wf = serde_json::to_value(opened.workflow.expect("a workflow")).expect("json");
    let unchanged = lib.save("demo-shop.json", &wf, Some(&opened.hash)).expect("save as is");
    assert_eq!(std::fs::read_to_string(dir.path().join("demo-shop.json")).unwrap(), before, "saved as is: no change");

    let home = wf["states"].as_array_mut().unwrap().iter_mut().find(|s| s["name"] == "Home page").unwrap();
    home["actions"][0]["target"] = json!({"css": "#hero a.sign-in"});
    lib.save("demo-shop.json", &wf, Some(&unchanged.hash)).expect("save");
    let after = std::fs::read_to_string(dir.path().join("demo-shop.json")).unwrap();
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(before.lines().count(), after.lines().count(), "{after}");
    assert_eq!(changed.len(), 1, "{changed:#?}");
    assert!(changed[0].1.contains("#hero a.sign-in"), "{changed:#?}");
}

#[test]
fn a_workflow_with_validation_errors_still_opens_with_its_diagnostics() {
    let (dir, lib) = library();
    let broken = json!({"version": 1, "name": "b", "states": [
        {"name": "A", "checks": [{"type": "url", "value": "x"}], "next": ["Nowhere"]}
    ]});
    std::fs::write(dir.path().join("b.json"), broken.to_string()).expect("write");
    let opened = lib.open("b.json").expect("open");
    assert!(opened.workflow.is_some(), "fixable in the editor");
    assert!(opened.diagnostics.iter().any(|d| d.path == "states[0].next[0]"), "{:?}", opened.diagnostics);
    let found = lib.validate(&broken);
    assert!(found.iter().any(|d| d.message.contains("Nowhere")), "{found:?}");
}

#[test]
fn ids_never_reach_outside_the_folder() {
    let (_dir, lib) = library();
    for id in ["../x.json", "/etc/passwd", "a/b.json", ".hidden.json", "x.txt"] {
        assert_eq!(lib.open(id).expect_err(id).code(), "not_found", "{id}");
    }
}

#[test]
fn rename_moves_the_file_and_duplicate_copies_it() {
    let (dir, lib) = library();
    lib.create("One").expect("create");
    let renamed = lib.rename("one.json", "Two").expect("rename");
    assert_eq!(renamed.id, "two.json");
    assert!(!dir.path().join("one.json").exists());
    let copy = lib.duplicate("two.json", "Three").expect("duplicate");
    assert_eq!(copy.name, "Three");
    assert_eq!(lib.list().expect("list").len(), 2);
}

#[test]
fn the_watcher_reports_files_written_by_another_program() {
    let (dir, lib) = library();
    let (tx, rx) = mpsc::channel();
    let _watching = watch::watch(Arc::new(lib), move |change| {
        let _ = tx.send(change);
    })
    .expect("watch");
    std::fs::write(dir.path().join("other.json"), "{}").expect("write");
    let change = rx.recv_timeout(Duration::from_secs(5)).expect("a change is reported");
    assert_eq!(change.id, "other.json");
    assert!(!change.removed);
}

#[test]
fn skills_beside_the_workflows_are_listed_opened_renamed_and_checked_against() {
    let (dir, lib) = library();
    let skills = dir.path().parent().unwrap().join("skills");
    std::fs::create_dir(&skills).unwrap();
    let repo = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../..");
    std::fs::copy(repo.join("skills/demo-sign-in.json"), skills.join("demo-sign-in.json")).unwrap();
    std::fs::copy(repo.join("workflows/demo-account.json"), dir.path().join("demo-account.json")).unwrap();

    let listed = lib.list().unwrap();
    let ids: Vec<(&str, bool)> = listed.iter().map(|e| (e.id.as_str(), e.skill)).collect();
    assert_eq!(ids, [("demo-account.json", false), ("skills/demo-sign-in.json", true)], "workflows first");
    let opened = lib.open("skills/demo-sign-in.json").unwrap();
    assert!(opened.workflow.unwrap().skill.is_some());
    assert!(lib.open("demo-account.json").unwrap().diagnostics.is_empty(), "its skill is found");

    let renamed = lib.rename("skills/demo-sign-in.json", "sign in").unwrap();
    assert_eq!(renamed.id, "skills/sign-in.json", "a skill stays in the skills folder");
    assert!(skills.join("sign-in.json").is_file());
    let broken = lib.open("demo-account.json").unwrap().diagnostics;
    assert!(
        broken.iter().any(|d| d.message.contains("there is no skill `demo-sign-in`") && d.path.ends_with(".skill")),
        "{broken:?}"
    );
    let account = lib.open("demo-account.json").unwrap();
    let saved = lib.save("demo-account.json", &serde_json::to_value(account.workflow.unwrap()).unwrap(), None).unwrap();
    assert!(saved.diagnostics.iter().any(|d| d.message.contains("no skill `demo-sign-in`")), "saving says so too");
    for id in ["skills/../demo-account.json", "skills/x/y.json", "skills/.hidden.json", "skill/demo.json"] {
        assert!(matches!(lib.open(id), Err(Error::NotFound(_))), "{id}");
    }
}

#[cfg(unix)]
#[test]
fn a_linked_workflow_is_saved_and_renamed_where_it_is_kept_and_stays_a_link() {
    let (dir, lib) = library();
    lib.create("Shop").expect("create");
    let repo = dir.path().parent().unwrap().join("repo");
    std::fs::create_dir(&repo).unwrap();
    std::fs::rename(dir.path().join("shop.json"), repo.join("shop.json")).unwrap();
    std::os::unix::fs::symlink(repo.join("shop.json"), dir.path().join("shop.json")).unwrap();
    let is_link = |name: &str| std::fs::symlink_metadata(dir.path().join(name)).is_ok_and(|m| m.is_symlink());

    let mut workflow = serde_json::to_value(lib.open("shop.json").unwrap().workflow.unwrap()).unwrap();
    workflow["description"] = json!("edited in the app");
    lib.save("shop.json", &workflow, None).expect("save");
    assert!(is_link("shop.json"), "the link stays a link");
    assert!(std::fs::read_to_string(repo.join("shop.json")).unwrap().contains("edited in the app"), "the repo has it");

    let renamed = lib.rename("shop.json", "Shop two").expect("rename");
    assert_eq!(renamed.id, "shop-two.json");
    assert!(is_link("shop-two.json") && !dir.path().join("shop.json").exists(), "the link is renamed");
    let kept = std::fs::read_to_string(repo.join("shop.json")).unwrap();
    assert!(kept.contains(r#""name": "Shop two""#) && kept.contains("edited in the app"), "{kept}");

    std::fs::remove_file(repo.join("shop.json")).unwrap();
    let refused = lib.save("shop-two.json", &workflow, None).expect_err("a link to nothing");
    assert_eq!(refused.code(), "dangling_link", "{refused}");
    assert!(
        refused
            .to_string()
            .contains(&format!("shop-two.json is a symbolic link to {}", repo.join("shop.json").display())),
        "{refused}"
    );
    assert!(is_link("shop-two.json") && std::fs::read_dir(&repo).unwrap().next().is_none(), "nothing written");
}
