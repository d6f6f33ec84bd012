//! Compiling from folders, bad ones included: a seed 003 session with element references, a
//! run folder with missing screenshots and page files, a cut-short timeline, a failed run.
//! Each gives a draft that validates and says what it could not use; nothing panics.

use serde_json::json;
use statewright_author::{CompileOptions, Ending, compile, from_folder};
use statewright_workflow::{Action, load_str, to_native_json};

fn page(url: &str, elements: serde_json::Value) -> serde_json::Value {
    json!({ "url": url, "title": "Shop", "text": "Shop Sign in Search", "elements": elements })
}

fn write(dir: &std::path::Path, name: &str, value: &serde_json::Value) {
    std::fs::write(dir.join(name), serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

fn login_elements() -> serde_json::Value {
    json!([
        { "id": "e1", "tag": "input", "role": "textbox", "name": "Username", "selector": "#username" },
        { "id": "e2", "tag": "button", "role": "button", "name": "Sign in", "selector": "#sign-in" }
    ])
}

fn search_elements() -> serde_json::Value {
    json!([{ "id": "e9", "tag": "input", "role": "combobox", "name": "Where from?", "selector": "#from" }])
}

#[test]
fn a_seed_003_session_compiles_with_its_element_references_resolved() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "step-001.json", &page("https://shop.example/login", login_elements()));
    write(dir.path(), "step-003.json", &page("https://shop.example/search", search_elements()));
    write(
        dir.path(),
        "action_timeline.json",
        &json!({
            "task_description": "Search for flights",
            "timeline": [
                { "action_step": 1, "action_type": "individual_action", "action": "type", "element_label": "Username", "args": ["e1", "alice"] },
                { "action_step": 2, "action_type": "individual_action", "action": "click", "element_label": "Sign in", "args": ["e2"] },
                { "action_step": 3, "action_type": "subtask_replay", "subtask_name": "Enter Departure" },
                { "action_step": 4, "action_type": "individual_action", "action": "fill", "element_label": "Where from?", "args": ["e9", "Chicago"] }
            ]
        }),
    );
    let t = from_folder(dir.path()).unwrap();
    assert_eq!(t.task.as_deref(), Some("Search for flights"));
    assert!(t.notes.iter().any(|n| n.contains("skill replay `Enter Departure` left out")), "{:?}", t.notes);
    let options = CompileOptions { parameters: vec![("city".into(), "Chicago".into())], ..CompileOptions::default() };
    let draft = compile(&t, &options);
    let w = &draft.workflow;
    load_str(&to_native_json(w), "draft.json", &w.name).expect("the draft validates");
    let login = w.states.iter().find(|s| s.actions.len() == 2).expect("the login page's two acts");
    assert!(matches!(&login.actions[0], Action::Type { target, text, .. }
        if target.role.as_deref() == Some("textbox") && target.name.as_deref() == Some("Username") && text == "alice"));
    let search = w.states.iter().find(|s| s.actions.len() == 1).unwrap();
    assert!(matches!(&search.actions[0], Action::Type { text, .. } if text == "{{city}}"), "{:?}", search.actions);
    assert!(w.parameters.contains_key("city"));
}

#[test]
fn a_cut_short_timeline_with_missing_files_keeps_what_is_there_and_says_what_is_not() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "step-001.json", &page("https://shop.example/login", login_elements()));
    // step-002.json is missing; its screenshot too.
    let timeline = json!({
        "status": "failed",
        "message": "no state matched for 30 s",
        "steps": [
            { "step": 1, "state": "Login", "url": "https://shop.example/login", "screenshot": "step-001.jpg" },
            { "step": 2, "state": "Search", "url": "https://shop.example/search", "screenshot": "step-002.jpg" }
        ],
        "timeline": [
            { "step": 1, "action_type": "state_action", "action": "type", "args": { "target": { "css": "#username" }, "text": "alice" } },
            { "step": 1, "action_type": "state_action", "action": "click", "args": { "target": { "css": "#sign-in" } } },
            { "step": 2, "action_type": "state_action", "action": "teleport", "args": {} }
        ]
    });
    let mut text = serde_json::to_string_pretty(&timeline).unwrap();
    let cut = text.find("\"teleport\"").unwrap();
    text.truncate(cut);
    std::fs::write(dir.path().join("timeline.json"), &text).unwrap();
    // A header cut short cannot be salvaged: a clear error with line and column.
    let err = from_folder(dir.path()).unwrap_err().to_string();
    assert!(err.contains("timeline.json:") && err.contains("EOF"), "{err}");

    // Its seed 003 twin, a bare list cut short, keeps its complete entries.
    std::fs::remove_file(dir.path().join("timeline.json")).unwrap();
    let list = serde_json::to_string_pretty(&timeline["timeline"]).unwrap();
    std::fs::write(dir.path().join("action_timeline.json"), &list[..list.find("\"teleport\"").unwrap()]).unwrap();
    let t = from_folder(dir.path()).unwrap();
    assert!(t.notes.iter().any(|n| n.contains("cut short") && n.contains("2 complete entries")), "{:?}", t.notes);
    let acts: usize = t.pages.iter().map(|p| p.acts.len()).sum();
    assert_eq!(acts, 2);
    let draft = compile(&t, &CompileOptions::default());
    load_str(&to_native_json(&draft.workflow), "draft.json", "draft").expect("the draft validates");
}

#[test]
fn a_failed_run_compiles_up_to_where_it_went_wrong_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "step-001.json", &page("https://shop.example/login", login_elements()));
    write(dir.path(), "step-002.json", &page("https://shop.example/search", search_elements()));
    write(
        dir.path(),
        "timeline.json",
        &json!({
            "status": "failed",
            "message": "no state matched for 30 s",
            "steps": [
                { "step": 1, "state": "Login", "url": "https://shop.example/login", "screenshot": "step-001.jpg" },
                { "step": 2, "state": "Search", "url": "https://shop.example/search" }
            ],
            "timeline": [
                { "step": 1, "action": "click", "args": { "target": { "css": "#sign-in" } } },
                { "step": 2, "action": "type", "args": { "target": { "css": "#from" }, "text": "x" }, "error": "not found" }
            ]
        }),
    );
    let t = from_folder(dir.path()).unwrap();
    assert!(matches!(t.ending, Ending::Failed { .. }));
    assert!(t.notes.iter().any(|n| n.contains("step-001.jpg is missing")), "{:?}", t.notes);
    let draft = compile(&t, &CompileOptions::default());
    assert!(!draft.report.complete);
    assert!(
        draft.report.notes.iter().any(|n| n.contains("failed") && n.contains("no state matched")),
        "{:?}",
        draft.report.notes
    );
    let ends: Vec<_> = draft.workflow.states.iter().filter_map(|s| s.terminal.as_ref()).collect();
    assert!(
        ends.iter().all(|t| t.outcome == statewright_workflow::Outcome::Failure),
        "no success state for a failed run"
    );
    assert_eq!(draft.report.actions, 1, "the act that failed is not in the draft");
    load_str(&to_native_json(&draft.workflow), "draft.json", "draft").expect("the draft validates");
}

#[test]
fn a_folder_without_a_trajectory_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = from_folder(dir.path()).unwrap_err().to_string();
    assert!(err.contains("no trajectory here"), "{err}");
    write(dir.path(), "action_timeline.json", &json!([{ "action": "click", "args": ["e1"] }]));
    let err = from_folder(dir.path()).unwrap_err().to_string();
    assert!(err.contains("no page observations"), "{err}");
}
