//! The committed JSON Schema must match the Rust types: editors and other tools read it.

use std::path::PathBuf;

#[test]
fn committed_schema_is_up_to_date() {
    let path = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo"))
        .join("../../schema/workflow.schema.json");
    let generated = statewright_workflow::json_schema();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("write the schema");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "schema/workflow.schema.json is stale; regenerate it with `UPDATE_SCHEMA=1 cargo test -p statewright-workflow --test schema`"
    );
}

#[test]
fn the_schema_describes_the_action_whitelist() {
    let schema: serde_json::Value = serde_json::from_str(&statewright_workflow::json_schema()).expect("schema is JSON");
    let text = schema.to_string();
    for action in [
        "navigate_to",
        "click",
        "type",
        "press_key",
        "scroll_to",
        "select_option",
        "wait_for",
        "save_html",
        "launch",
        "focus_window",
        "mouse_click",
        "mouse_drag",
        "scroll_at",
        "key_combo",
        "type_text",
        "wait_for_window",
        "window_title",
        "app_class",
        "window_exists",
        "window_focused",
    ] {
        assert!(text.contains(&format!("\"{action}\"")), "the schema must name the `{action}` action");
    }
}
