//! Desktop checks and actions: what loads, what is refused and where.

use super::*;
use crate::model::{Action, Check, MouseButton, Point, TitleMatch, WindowSelector};
use crate::params::Params;

fn load(src: &str) -> Result<Loaded, Diagnostics> {
    load_str(src, "wf.json", "wf")
}

/// A workflow whose single terminal state has `checks` and `actions` (JSON arrays).
fn wf(checks: &str, actions: &str) -> String {
    format!(
        r#"{{
  "version": 1,
  "name": "desktop",
  "parameters": {{"app": {{"default": "xterm"}}, "title": {{"default": "Terminal"}}}},
  "states": [
    {{
      "name": "only",
      "checks": {checks},
      "actions": {actions},
      "terminal": {{"outcome": "success"}}
    }}
  ]
}}"#
    )
}

const CHECK: &str = r#"[{"type": "window_title", "value": "x"}]"#;

fn loads(src: &str) -> Workflow {
    match load(src) {
        Ok(loaded) => loaded.workflow,
        Err(d) => panic!("expected a valid workflow, got:\n{d}\n{src}"),
    }
}

/// The error messages, panicking if the file loads.
fn messages(src: &str) -> Vec<String> {
    match load(src) {
        Ok(_) => panic!("expected errors for:\n{src}"),
        Err(d) => d.0.into_iter().filter(|d| d.severity == Severity::Error).map(|d| d.message).collect(),
    }
}

fn has_error(src: &str, needle: &str) {
    let all = messages(src);
    assert!(all.iter().any(|m| m.contains(needle)), "expected an error containing {needle:?}, got {all:#?}");
}

#[test]
fn every_desktop_check_loads() {
    let checks = r#"[
        {"type": "window_title", "match": "contains", "value": "{{title}}"},
        {"type": "window_title", "match": "pattern", "value": "^Term.*$", "negate": true},
        {"type": "app_class", "value": "XTerm"},
        {"type": "window_exists", "title": "Terminal", "match": "contains"},
        {"type": "window_exists", "app_class": "xterm"},
        {"type": "window_focused", "title": "Terminal", "app_class": "XTerm", "negate": true}
    ]"#;
    let workflow = loads(&wf(checks, "[]"));
    let checks = &workflow.states[0].checks;
    assert!(checks.iter().all(Check::is_desktop));
    assert_eq!(checks[0], Check::WindowTitle { mode: TitleMatch::Contains, value: "{{title}}".into(), negate: false });
    assert_eq!(
        checks[5].window_selector(),
        Some(WindowSelector {
            title: Some("Terminal".into()),
            mode: TitleMatch::Exact,
            app_class: Some("XTerm".into())
        })
    );
}

#[test]
fn every_desktop_action_loads_and_round_trips() {
    let actions = r#"[
        {"type": "launch", "program": "{{app}}", "args": ["-T", "{{title}}"]},
        {"type": "wait_for_window", "window": {"title": "{{title}}"}, "timeout": 5},
        {"type": "focus_window", "window": {"app_class": "XTerm"}},
        {"type": "mouse_click", "x": 10, "y": 20},
        {"type": "mouse_click", "x": 10, "y": 20, "window": {"title": "T", "match": "contains"}, "button": "right", "count": 2},
        {"type": "mouse_drag", "from": {"x": 1, "y": 2}, "to": {"x": 3, "y": 4}, "window": {"app_class": "XTerm"}},
        {"type": "scroll_at", "x": 5, "y": 6, "dy": 3},
        {"type": "key_combo", "keys": "Control+Shift+T"},
        {"type": "type_text", "text": "ls\n"}
    ]"#;
    let src = wf(CHECK, actions);
    let workflow = loads(&src);
    let actions = &workflow.states[0].actions;
    assert!(actions.iter().all(|a| a.is_desktop() && !a.is_browser()));
    assert_eq!(actions[0], Action::Launch { program: "{{app}}".into(), args: vec!["-T".into(), "{{title}}".into()] });
    assert_eq!(
        actions[4],
        Action::MouseClick {
            x: 10,
            y: 20,
            window: Some(WindowSelector { title: Some("T".into()), mode: TitleMatch::Contains, app_class: None }),
            button: MouseButton::Right,
            count: 2,
        }
    );
    assert_eq!(
        actions[5],
        Action::MouseDrag {
            from: Point { x: 1, y: 2 },
            to: Point { x: 3, y: 4 },
            window: Some(WindowSelector { app_class: Some("XTerm".into()), ..Default::default() })
        }
    );
    assert_eq!(actions[6], Action::ScrollAt { x: 5, y: 6, window: None, dx: 0, dy: 3 });
    let kinds: Vec<_> = actions.iter().map(Action::kind).collect();
    assert_eq!(
        kinds,
        [
            "launch",
            "wait_for_window",
            "focus_window",
            "mouse_click",
            "mouse_click",
            "mouse_drag",
            "scroll_at",
            "key_combo",
            "type_text"
        ]
    );
    assert_eq!(actions[4].to_string(), "mouse_click (10, 20) in window containing \"T\" (right) ×2");
    let written = crate::to_native_json(&workflow);
    assert_eq!(loads(&written), workflow, "desktop actions survive writing and reading back");
}

#[test]
fn parameters_are_filled_into_desktop_strings() {
    let checks = r#"[{"type": "window_exists", "title": "{{title}}", "app_class": "{{app}}"}]"#;
    let actions = r#"[
        {"type": "launch", "program": "{{app}}", "args": ["-T", "{{title}}"]},
        {"type": "mouse_click", "x": 1, "y": 1, "window": {"title": "{{title}}"}},
        {"type": "type_text", "text": "{{title}}"},
        {"type": "key_combo", "keys": "{{title}}"}
    ]"#;
    let workflow = loads(&wf(checks, actions));
    let params = Params::bind(&workflow, &[("title".into(), "Shell".into())]).unwrap();
    let bound = workflow.bound(&params, false);
    let state = &bound.states[0];
    assert_eq!(state.checks[0].window_selector().unwrap().title.as_deref(), Some("Shell"));
    assert_eq!(state.checks[0].window_selector().unwrap().app_class.as_deref(), Some("xterm"));
    assert_eq!(state.actions[0], Action::Launch { program: "xterm".into(), args: vec!["-T".into(), "Shell".into()] });
    assert_eq!(state.actions[1].window().and_then(|w| w.title.as_deref()), Some("Shell"));
    assert_eq!(state.actions[2], Action::TypeText { text: "Shell".into() });
    assert_eq!(state.actions[3], Action::KeyCombo { keys: "Shell".into() });
}

#[test]
fn undefined_parameters_in_desktop_strings_are_errors() {
    has_error(
        &wf(CHECK, r#"[{"type": "launch", "program": "x", "args": ["{{nope}}"]}]"#),
        "undefined parameter or variable `nope`",
    );
    has_error(
        &wf(r#"[{"type": "window_focused", "app_class": "{{nope}}"}]"#, "[]"),
        "undefined parameter or variable `nope`",
    );
    has_error(
        &wf(CHECK, r#"[{"type": "focus_window", "window": {"title": "{{nope}}"}}]"#),
        "undefined parameter or variable `nope`",
    );
}

#[test]
fn invalid_patterns_are_errors() {
    has_error(
        &wf(r#"[{"type": "window_title", "match": "pattern", "value": "(a"}]"#, "[]"),
        "invalid regular expression",
    );
    has_error(
        &wf(r#"[{"type": "window_exists", "title": "[", "match": "pattern"}]"#, "[]"),
        "invalid regular expression",
    );
    has_error(
        &wf(CHECK, r#"[{"type": "wait_for_window", "window": {"title": "(", "match": "pattern"}}]"#),
        "invalid regular expression",
    );
}

#[test]
fn window_selectors_must_name_something() {
    has_error(&wf(r#"[{"type": "window_exists"}]"#, "[]"), "needs a non-empty `title` or `app_class`");
    has_error(&wf(r#"[{"type": "window_focused", "title": ""}]"#, "[]"), "needs a non-empty `title` or `app_class`");
    has_error(&wf(CHECK, r#"[{"type": "focus_window", "window": {}}]"#), "needs a non-empty `title` or `app_class`");
    has_error(
        &wf(CHECK, r#"[{"type": "mouse_click", "x": 1, "y": 1, "window": {"match": "contains"}}]"#),
        "needs a non-empty `title` or `app_class`",
    );
    has_error(&wf(r#"[{"type": "app_class", "value": " "}]"#, "[]"), "non-empty value");
}

#[test]
fn bad_desktop_actions_are_errors() {
    has_error(&wf(CHECK, r#"[{"type": "launch", "program": " "}]"#), "`launch` needs a program");
    has_error(&wf(CHECK, r#"[{"type": "key_combo", "keys": "Control+Nope"}]"#), "Nope");
    has_error(&wf(CHECK, r#"[{"type": "mouse_click", "x": 1, "y": 1, "count": 7}]"#), "click count 7");
    has_error(&wf(CHECK, r#"[{"type": "wait_for_window", "window": {"title": "t"}, "timeout": -1}]"#), "seconds");
    has_error(&wf(CHECK, r#"[{"type": "mouse_click", "x": 1}]"#), "missing field `y`");
    has_error(
        &wf(CHECK, r#"[{"type": "mouse_drag", "from": {"x": 1, "y": 2, "z": 3}, "to": {"x": 0, "y": 0}}]"#),
        "unknown field `z`",
    );
    has_error(&wf(CHECK, r#"[{"type": "focus_window", "window": {"titel": "x"}}]"#), "unknown field `titel`");
    has_error(&wf(r#"[{"type": "window_exists", "tittle": "x"}]"#, "[]"), "unknown field `tittle`");
    has_error(&wf(CHECK, r#"[{"type": "type_txt", "text": "x"}]"#), "unknown action `type_txt`");
}
