//! The workflow model of Statewright and everything that reads it: native JSON files,
//! CliGent files (seed 000), validation with positioned diagnostics, `{{name}}`
//! parameters, key names and the committed JSON Schema.
//!
//! Workflows are data. Nothing here evaluates anything taken from a file.

pub mod call;
mod cligent;
pub mod diagnostic;
mod display;
mod file_names;
mod json_problem;
pub mod keys;
mod load;
pub mod model;
pub mod params;
mod preserve;
mod redact;
pub mod selector;
pub mod skills;
pub mod span;
mod template_strings;
mod validate;
pub mod variables;
mod write;

pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use file_names::{is_device_name, portable_stem};
pub use json_problem::json_problem;
pub use load::{
    Loaded, MAX_INPUT_BYTES, MAX_WRITTEN_BYTES, NotUtf8, SourceFormat, Unreadable, load_file, load_str, open_input,
    read_input_bytes, read_input_text, read_workflow_text, utf8_text, without_bom,
};
pub use model::*;
pub use params::{ParamError, Params};
pub use preserve::to_native_json_preserving;
pub use validate::{closest, is_script_address, is_skill_name};
pub use write::{Unwritable, what_is_at, writable_file, write_workflow_text};

/// The JSON Schema of the native format, as committed in `schema/workflow.schema.json`.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(Workflow);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema always serialises");
    text.push('\n');
    text
}

/// The native JSON text of a workflow: stable field order, two-space indentation, and only
/// the config knobs that differ from their defaults, so saved files diff cleanly.
pub fn to_native_json(workflow: &Workflow) -> String {
    let mut value = serde_json::to_value(workflow).expect("a workflow always serialises");
    if let Some(config) = value.get_mut("config").and_then(|c| c.as_object_mut()) {
        let defaults = serde_json::to_value(Config::default()).expect("the default config serialises");
        prune_defaults(config, &defaults);
    }
    let mut text = serde_json::to_string_pretty(&value).expect("a workflow always serialises");
    text.push('\n');
    text
}

/// Removes the entries of `object` equal to those of `defaults`, recursively for objects.
fn prune_defaults(object: &mut serde_json::Map<String, serde_json::Value>, defaults: &serde_json::Value) {
    object.retain(|key, value| {
        let Some(default) = defaults.get(key) else { return true };
        if let (Some(inner), true) = (value.as_object_mut(), default.is_object()) {
            prune_defaults(inner, default);
            return !inner.is_empty();
        }
        // Numbers compare by value: a file's `4` and the default's `4.0` are the same knob.
        !(value == default || value.as_f64().is_some_and(|v| default.as_f64() == Some(v)))
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn native_json_keeps_only_the_config_knobs_that_differ_from_their_defaults() {
        let text = r#"{"version": 1, "name": "w", "config": {"no_states_timeout": 4, "action_timeout": 10, "breakers": {"cycles": 2}},
            "states": [{"name": "End", "checks": [{"type": "url", "value": "about:blank"}], "terminal": {"outcome": "success"}}]}"#;
        let workflow = crate::load_str(text, "w.json", "w").unwrap().workflow;
        let saved: serde_json::Value = serde_json::from_str(&crate::to_native_json(&workflow)).unwrap();
        assert_eq!(saved["config"], serde_json::json!({"no_states_timeout": 4.0, "breakers": {"cycles": 2}}));
        let default = crate::load_str(
            &text.replace("\"cycles\": 2", "\"cycles\": 4").replace("4, \"action", "30, \"action"),
            "w.json",
            "w",
        );
        let saved: serde_json::Value =
            serde_json::from_str(&crate::to_native_json(&default.unwrap().workflow)).unwrap();
        assert!(saved.get("config").is_none(), "an all-default config is not written: {saved}");
    }
}
