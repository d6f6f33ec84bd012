//! The workflows folder as an unlucky or hostile user leaves it, through the commands the
//! window calls (Tauri's mock runtime, real files in a temporary folder): what is not a
//! workflow file never breaks the list, what cannot be read says why, saves never leave half
//! a file or a stray temporary one, a workflow linked from its own repository is saved there
//! (and stays linked), and a `.trash` that is no folder is refused, naming it, with nothing moved.

mod common;

use std::path::Path;

use common::{app, invoke};
use serde_json::{Value, json};

fn ids(listed: &Value) -> Vec<&str> {
    listed.as_array().expect("a list").iter().filter_map(|e| e["id"].as_str()).collect()
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into())
        .collect();
    names.sort();
    names
}

#[test]
fn what_is_not_a_workflow_file_never_breaks_the_list_and_what_cannot_be_read_says_why() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    let dir = home.path().join("workflows");
    invoke(&window, "create_workflow", json!({"name": "Good"})).expect("create");
    std::fs::create_dir(dir.join("folder.json")).expect("a folder named like a workflow");
    std::os::unix::fs::symlink(home.path().join("gone.json"), dir.join("dangling.json")).expect("a broken link");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.json")).expect("a link to a device");
    let fifo = std::process::Command::new("mkfifo").arg(dir.join("pipe.json")).status().expect("mkfifo");
    assert!(fifo.success());
    // Larger than a workflow file may be (sparse: no disk space is used).
    std::fs::File::create(dir.join("huge.json")).and_then(|f| f.set_len(65 << 20)).expect("a 65 MiB file");
    std::fs::write(dir.join("broken.json"), "{\n  \"name\": \"x\",\n  \"states\": [\n   }\n").expect("broken JSON");

    let listed = invoke(&window, "list_workflows", json!({})).expect("the list has what can be listed");
    assert_eq!(ids(&listed), ["broken.json", "good.json", "huge.json"], "{listed}");
    let error_of = |id: &str| {
        let entry = listed.as_array().unwrap().iter().find(|e| e["id"] == id).expect("listed");
        entry["error"].as_str().unwrap_or_default().to_owned()
    };
    assert_eq!(error_of("broken.json"), "line 4, column 4: invalid JSON: expected value", "where it is wrong");
    assert!(error_of("huge.json").contains("larger than 64 MiB"), "{}", error_of("huge.json"));

    // Opened, the large file is not read: it is no workflow, and the editor is told why.
    let opened = invoke(&window, "open_workflow", json!({"id": "huge.json"})).expect("opens as no workflow");
    assert_eq!(opened["workflow"], Value::Null);
    assert!(opened["diagnostics"][0]["message"].as_str().is_some_and(|m| m.contains("64 MiB")), "{opened}");
    for id in ["folder.json", "pipe.json", "zero.json", "dangling.json"] {
        let error = invoke(&window, "open_workflow", json!({"id": id})).expect_err("not a workflow file");
        assert_eq!(error["code"], "not_found", "{id}: {error}");
    }
}

#[test]
fn a_save_over_a_folder_is_refused_and_leaves_no_temporary_file() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    let dir = home.path().join("workflows");
    invoke(&window, "create_workflow", json!({"name": "Good"})).expect("create");
    let workflow = invoke(&window, "open_workflow", json!({"id": "good.json"})).expect("open")["workflow"].clone();
    std::fs::create_dir(dir.join("folder.json")).expect("a folder named like a workflow");
    let error = invoke(&window, "save_workflow", json!({"id": "folder.json", "workflow": workflow}))
        .expect_err("a folder is not written over");
    assert_eq!(error["code"], "not_found", "{error}");
    assert_eq!(names_in(&dir), ["folder.json", "good.json"], "no temporary file is left behind");
}

#[test]
fn saves_at_once_each_write_a_whole_file() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    let dir = home.path().join("workflows");
    invoke(&window, "create_workflow", json!({"name": "Shop"})).expect("create");
    let workflow = invoke(&window, "open_workflow", json!({"id": "shop.json"})).expect("open")["workflow"].clone();
    std::thread::scope(|scope| {
        for writer in 0..4 {
            let (window, mut workflow) = (&window, workflow.clone());
            scope.spawn(move || {
                for save in 0..40 {
                    workflow["states"][0]["description"] =
                        json!(format!("writer {writer}, save {save} {}", "x".repeat(save * 500)));
                    let saved = invoke(window, "save_workflow", json!({"id": "shop.json", "workflow": workflow}));
                    assert!(saved.is_ok(), "writer {writer}, save {save}: {saved:?}");
                }
            });
        }
    });
    let opened = invoke(&window, "open_workflow", json!({"id": "shop.json"})).expect("open");
    assert!(
        opened["workflow"]["states"][0]["description"].as_str().is_some_and(|d| d.contains("save 39")),
        "a whole last save"
    );
    assert_eq!(names_in(&dir), ["shop.json"], "no temporary file is left behind");
}

#[test]
fn a_name_too_long_for_a_file_is_refused_as_a_name_and_the_longest_goes_to_the_trash_and_back() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    let error = invoke(&window, "create_workflow", json!({"name": "a".repeat(300)})).expect_err("too long");
    assert_eq!(error["code"], "bad_name", "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("too long")), "{error}");
    let error = invoke(&window, "create_workflow", json!({"name": "é".repeat(100)})).expect_err("too long in bytes");
    assert_eq!(error["code"], "bad_name", "{error}");

    let longest = "a".repeat(200 - ".json".len());
    let created = invoke(&window, "create_workflow", json!({"name": longest})).expect("the longest name");
    let id = created["id"].clone();
    let workflow = invoke(&window, "open_workflow", json!({"id": id})).expect("open")["workflow"].clone();
    invoke(&window, "save_workflow", json!({"id": id, "workflow": workflow}))
        .expect("saved through its temporary file");
    let trashed = invoke(&window, "delete_workflow", json!({"id": id})).expect("into the trash");
    let restored = invoke(&window, "restore_workflow", json!({"trash_id": trashed["id"]})).expect("and back");
    assert_eq!(restored["id"], id);
}

#[test]
fn validating_from_the_editor_names_what_is_wrong() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    invoke(&window, "create_workflow", json!({"name": "Shop"})).expect("create");
    let mut workflow = invoke(&window, "open_workflow", json!({"id": "shop.json"})).expect("open")["workflow"].clone();
    assert_eq!(invoke(&window, "validate_workflow", json!({"workflow": workflow})).expect("validates"), json!([]));
    workflow["states"][0]["actions"] = json!([{"kind": "click"}]);
    let found = invoke(&window, "validate_workflow", json!({"workflow": workflow})).expect("validates");
    let found = found.as_array().expect("a list of problems");
    assert!(!found.is_empty() && found.iter().all(|d| d["message"].is_string()), "{found:?}");
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink())
}

#[test]
fn a_workflow_linked_from_its_own_repository_is_saved_there_and_stays_a_link() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    let (dir, repo) = (home.path().join("workflows"), home.path().join("projects/shop"));
    invoke(&window, "create_workflow", json!({"name": "Shop"})).expect("create");
    std::fs::create_dir_all(&repo).expect("the repository");
    std::fs::rename(dir.join("shop.json"), repo.join("shop.json")).expect("kept in the repository");
    std::os::unix::fs::symlink(repo.join("shop.json"), dir.join("shop.json")).expect("linked into the folder");

    let opened = invoke(&window, "open_workflow", json!({"id": "shop.json"})).expect("open");
    let mut workflow = opened["workflow"].clone();
    workflow["description"] = json!("edited in the app");
    invoke(&window, "save_workflow", json!({"id": "shop.json", "workflow": workflow, "expected_hash": opened["hash"]}))
        .expect("saved");
    assert!(is_link(&dir.join("shop.json")), "the link is still a link");
    let kept = std::fs::read_to_string(repo.join("shop.json")).expect("the repository's file");
    assert!(kept.contains("edited in the app"), "the repository got the edit: {kept}");
    assert_eq!(names_in(&dir), ["shop.json"], "no temporary file in the folder");
    assert_eq!(names_in(&repo), ["shop.json"], "nor in the repository");

    // The repository's file gone (a branch switched, a folder moved): the save says so.
    std::fs::remove_file(repo.join("shop.json")).expect("remove the target");
    let error = invoke(&window, "save_workflow", json!({"id": "shop.json", "workflow": workflow}))
        .expect_err("a link to nothing is not written");
    assert_eq!(error["code"], "dangling_link", "{error}");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!(
            "{} is a symbolic link to {}",
            dir.join("shop.json").display(),
            repo.join("shop.json").display()
        )),
        "{message}"
    );
    assert!(is_link(&dir.join("shop.json")) && names_in(&repo).is_empty(), "the link left, nothing made");
}

#[test]
fn deleting_with_a_trash_that_is_no_folder_is_refused_naming_it_and_the_workflow_stays() {
    let home = tempfile::tempdir().expect("temp dir");
    let (_app, window) = app(home.path());
    let dir = home.path().join("workflows");
    invoke(&window, "create_workflow", json!({"name": "Shop"})).expect("create");
    let before = std::fs::read(dir.join("shop.json")).expect("the workflow");
    let trash = dir.join(".trash");

    std::fs::write(&trash, "a note of mine").expect("a file named .trash");
    let error = invoke(&window, "delete_workflow", json!({"id": "shop.json"})).expect_err("no trash folder");
    assert_eq!(error["code"], "trash_not_a_folder", "{error}");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.starts_with(&format!("cannot use the trash {}: it is a file.", trash.display())), "{message}");
    for (cmd, args) in [("list_trash", json!({})), ("restore_workflow", json!({"trash_id": "1-shop.json"}))] {
        let error = invoke(&window, cmd, args).expect_err(cmd);
        assert_eq!(error["code"], "trash_not_a_folder", "{cmd}: {error}");
    }
    assert_eq!(std::fs::read_to_string(&trash).expect("left as it was"), "a note of mine");

    // A link to a folder outside: a workflow moved there would leave the workflows folder.
    let outside = home.path().join("outside");
    std::fs::create_dir(&outside).expect("a folder outside");
    std::fs::remove_file(&trash).expect("the file moved away");
    std::os::unix::fs::symlink(&outside, &trash).expect("a linked trash");
    let error = invoke(&window, "delete_workflow", json!({"id": "shop.json"})).expect_err("not followed");
    assert_eq!(error["code"], "trash_not_a_folder", "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("symbolic link to the folder")), "{error}");
    assert!(names_in(&outside).is_empty(), "nothing left the workflows folder");
    assert_eq!(std::fs::read(dir.join("shop.json")).expect("still there"), before, "the workflow stays as it was");
}
