//! Seed 003 skill folders: read as skills (variables at their action and argument, labels
//! named after a variable's value, roles and XPaths kept), written back, and read again to
//! the same skill; what cannot be read is an error naming the file.

use std::path::Path;

use statewright_author::skill003::{export, import};
use statewright_workflow::{Action, Check};

fn folder(root: &Path, name: &str, front: &str, actions: &str) -> std::path::PathBuf {
    let dir = root.join("google_flights").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), format!("---\n{front}---\n\n# Body\n\nWhat it does.\n")).unwrap();
    std::fs::write(dir.join("actions.json"), actions).unwrap();
    dir
}

const FRONT: &str = r#"name: enter-departure-location
id: 9
description: "Enter and confirm the departure city"
url_start: "https://www.google.com/travel/flights"
url_end: "https://www.google.com/travel/flights"
variables:
  departure_city:
    type: string
    default_value: "Edinburgh"
    description: "Name of the departure city"
    action_index: 9
    arg_position: 1
"#;

const ACTIONS: &str = r#"[
  {"action_step": 5, "action": "click", "element_label": "Where from?", "args": ["e149"]},
  {"action_step": 9, "action": "type", "element_label": "Where else?", "args": ["e552", "Edinburgh"]},
  {"action_step": 10, "action": "click", "element_label": "Edinburgh", "element_role": "option", "args": ["e601"]},
  {"action_step": 11, "action": "enter", "args": []},
  {"action_step": 12, "action": "click", "xpath": "//button[@jsname='done']", "args": ["e700"]}
]"#;

#[test]
fn the_seeds_example_becomes_a_linear_skill_with_its_variable_in_place() {
    let root = tempfile::tempdir().unwrap();
    folder(root.path(), "001-enter-departure-location", FRONT, ACTIONS);
    let imported = import(root.path()).unwrap();
    assert_eq!(imported.len(), 1);
    let skill = &imported[0].skill;
    assert_eq!(skill.name, "enter-departure-location");
    assert_eq!(skill.parameters["departure_city"].default.as_deref(), Some("Edinburgh"));
    let spec = skill.skill.as_ref().unwrap();
    assert!(matches!(&spec.pre[..], [Check::Url { value, .. }] if value == "https://www.google.com/travel/flights"));
    assert_eq!(spec.post.len(), 1);
    let state = &skill.states[0];
    assert!(state.terminal.is_some() && skill.states.len() == 1, "one terminal state holds the actions");
    let shown: Vec<String> = state.actions.iter().map(|a| serde_json::to_string(a).unwrap()).collect();
    assert_eq!(
        shown,
        [
            r#"{"type":"click","target":{"css":"[aria-label=\"Where from?\"]"}}"#,
            r#"{"type":"type","target":{"css":"[aria-label=\"Where else?\"]"},"text":"{{departure_city}}"}"#,
            r#"{"type":"click","target":{"role":"option","name":"{{departure_city}}"}}"#,
            r#"{"type":"press_key","key":"Enter"}"#,
            r#"{"type":"click","target":{"xpath":"//button[@jsname='done']"}}"#,
        ]
    );
}

#[test]
fn a_skill_written_back_reads_as_the_same_skill() {
    let root = tempfile::tempdir().unwrap();
    folder(root.path(), "001-enter-departure-location", FRONT, ACTIONS);
    let first = import(root.path()).unwrap().remove(0).skill;
    let out = tempfile::tempdir().unwrap();
    let written = export(&first, 3, out.path()).unwrap();
    assert_eq!(written, out.path().join("003-enter-departure-location"));
    let md = std::fs::read_to_string(written.join("SKILL.md")).unwrap();
    assert!(
        md.contains("url_start: \"https://www.google.com/travel/flights\"") && md.contains("action_index: 1"),
        "{md}"
    );
    let again = import(out.path()).unwrap().remove(0).skill;
    assert_eq!((&again.states, &again.parameters), (&first.states, &first.parameters));
    assert_eq!(again.skill.as_ref().unwrap().pre, first.skill.as_ref().unwrap().pre);
}

#[test]
fn several_options_of_a_select_are_a_list_there_and_back() {
    let root = tempfile::tempdir().unwrap();
    let actions = r#"[
  {"action_step": 1, "action": "select", "element_label": "People", "args": ["e7", ["Leia", "Leia, Yoda"]]},
  {"action_step": 2, "action": "select", "element_label": "Fruit", "args": ["e8", "Apple"]}
]"#;
    folder(root.path(), "001-choose-people", "name: choose-people\n", actions);
    let first = import(root.path()).unwrap().remove(0).skill;
    let chosen: Vec<String> = first.states[0].actions.iter().map(|a| serde_json::to_string(a).unwrap()).collect();
    assert_eq!(
        chosen,
        [
            r#"{"type":"select_option","target":{"css":"[aria-label=\"People\"]"},"value":["Leia","Leia, Yoda"]}"#,
            r#"{"type":"select_option","target":{"css":"[aria-label=\"Fruit\"]"},"value":"Apple"}"#,
        ]
    );
    let out = tempfile::tempdir().unwrap();
    let written = export(&first, 1, out.path()).unwrap();
    let entries = std::fs::read_to_string(written.join("actions.json")).unwrap();
    assert!(entries.contains(r#""Leia, Yoda""#), "{entries}");
    let again = import(out.path()).unwrap().remove(0).skill;
    assert_eq!(again.states, first.states);
}

#[test]
fn what_cannot_be_read_is_an_error_naming_the_file_and_entry() {
    let root = tempfile::tempdir().unwrap();
    let dir = folder(root.path(), "002-bad", FRONT, r#"[{"action": "teleport", "args": []}]"#);
    let error = import(root.path()).unwrap_err().to_string();
    assert!(error.starts_with(&dir.join("actions.json").display().to_string()), "{error}");
    assert!(error.contains("entry 0: `teleport`"), "{error}");

    let root = tempfile::tempdir().unwrap();
    folder(root.path(), "003-broken", "name: x\n  bad: indent\n", "[]");
    assert!(import(root.path()).unwrap_err().to_string().contains("SKILL.md: line 3: unexpected indentation"));

    let empty = tempfile::tempdir().unwrap();
    assert!(import(empty.path()).unwrap_err().to_string().contains("no folder with a SKILL.md"));
}

#[test]
fn a_skill_spread_over_states_or_with_a_plain_css_target_cannot_be_written() {
    let demo = statewright_workflow::load_file(
        &Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../../skills/demo-sign-in.json"),
    )
    .unwrap()
    .workflow;
    let out = tempfile::tempdir().unwrap();
    let error = export(&demo, 1, out.path()).unwrap_err().to_string();
    assert!(error.contains("finds elements by aria-label"), "its form uses #username: {error}");
    let mut spread = demo.clone();
    spread.states[1].actions = vec![Action::PressKey { key: "Enter".into() }];
    assert!(export(&spread, 1, out.path()).unwrap_err().to_string().contains("spread over 2 states"));
}
