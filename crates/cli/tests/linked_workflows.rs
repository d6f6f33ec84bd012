//! A workflow file that is a symbolic link (`workflows/shop.json -> ~/projects/shop/shop.json`,
//! a workflow kept in its own repository), written by the real binary: `compile --out` merges
//! into the file the link leads to and the link stays a link (the write used to rename a new
//! file over the link, leaving the repository's file as it was); a link to nothing is exit 2
//! with nothing written.

mod common;

use std::path::Path;

use common::{statewright, text};
use serde_json::json;

/// A seed 003 session: one page, one act on it.
fn session(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let page = json!({"url": "https://shop.example/login", "title": "Shop", "text": "Shop Sign in",
        "elements": [{"id": "e1", "tag": "input", "role": "textbox", "name": "Username", "selector": "#username"}]});
    std::fs::write(dir.join("step-001.json"), page.to_string()).unwrap();
    let timeline = json!({"task_description": "Sign in", "timeline": [
        {"action_step": 1, "action_type": "individual_action", "action": "type", "element_label": "Username", "args": ["e1", "alice"]}]});
    std::fs::write(dir.join("action_timeline.json"), timeline.to_string()).unwrap();
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink())
}

#[test]
fn compile_out_through_a_link_writes_the_linked_file_and_a_link_to_nothing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let (workflows, repo, source) = (dir.path().join("workflows"), dir.path().join("repo"), dir.path().join("session"));
    std::fs::create_dir_all(&workflows).unwrap();
    std::fs::create_dir_all(&repo).unwrap();
    session(&source);
    let draft = statewright(&["compile", source.to_str().unwrap(), "--name", "Shop"], &runs);
    assert_eq!(draft.status.code(), Some(0), "{}", text(&draft.stderr));
    let mut kept: serde_json::Value = serde_json::from_slice(&draft.stdout).unwrap();
    kept["description"] = json!("kept in its own repository");
    std::fs::write(repo.join("shop.json"), serde_json::to_string_pretty(&kept).unwrap()).unwrap();
    // Relative, as `ln -s ../repo/shop.json` makes it.
    std::os::unix::fs::symlink("../repo/shop.json", workflows.join("shop.json")).unwrap();
    let out = workflows.join("shop.json");
    let out_arg = out.to_str().unwrap();

    let merged = statewright(&["compile", source.to_str().unwrap(), "--out", out_arg], &runs);
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    assert!(is_link(&out), "the link is still a link");
    let written = std::fs::read_to_string(repo.join("shop.json")).unwrap();
    assert!(written.contains("kept in its own repository"), "merged into the linked file: {written}");
    let names = |d: &Path| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect::<Vec<_>>();
    assert_eq!(names(&workflows), ["shop.json"], "no temporary file left beside the link");
    assert_eq!(names(&repo), ["shop.json"], "nor beside its file");

    std::fs::remove_file(repo.join("shop.json")).unwrap();
    let refused = statewright(&["compile", source.to_str().unwrap(), "--out", out_arg], &runs);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(
        text(&refused.stderr)
            .contains(&format!("{out_arg} is a symbolic link to ../repo/shop.json, which does not exist")),
        "{}",
        text(&refused.stderr)
    );
    assert!(is_link(&out) && names(&repo).is_empty(), "the link left, nothing written");
}
