//! TypeScript for the types the front end shares with Rust, generated from their JSON
//! Schemas (schemars), so there is one definition of each type: the Rust one.
//!
//! The conversion covers what schemars emits for serde types: objects (with `required`),
//! `additionalProperties` maps, arrays, nullable type lists, string enums and consts,
//! `oneOf`/`anyOf` unions (tagged enums), `allOf` and `$ref`s to `$defs`.

use std::collections::BTreeMap;
use std::fmt::Write;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};

use crate::ErrorPayload;
use crate::ipc::{
    AgentRunRequest, BatchMessage, BatchRequest, JudgeAnswers, JudgeMessage, ModelSettings, ModelSettingsChange,
    OpenedWorkflow, RecordedWorkflow, RunFilter, RunMessage, RunRequest, SaveResult, TrashEntry, WorkflowChange,
    WorkflowEntry,
};

const HEADER: &str = "// Generated from the Rust types by crates/workbench/src/bindings.rs. Do not edit:\n\
// change the Rust type, then run `UPDATE_BINDINGS=1 cargo test -p statewright-workbench --test bindings`.\n";

/// The text of `ui/src/bindings.ts`.
pub fn typescript() -> String {
    let mut generator = SchemaGenerator::default();
    let mut roots: Vec<(String, Schema)> = Vec::new();
    macro_rules! root {
        ($($t:ty),* $(,)?) => {$(
            roots.push((<$t as JsonSchema>::schema_name().into_owned(), generator.root_schema_for::<$t>()));
        )*};
    }
    root!(
        statewright_workflow::Workflow,
        statewright_workflow::Diagnostic,
        statewright_engine::Event,
        statewright_store::RunSummary,
        statewright_store::RunDetail,
        statewright_store::ReviewList,
        ErrorPayload,
        WorkflowEntry,
        TrashEntry,
        OpenedWorkflow,
        RecordedWorkflow,
        SaveResult,
        WorkflowChange,
        RunRequest,
        AgentRunRequest,
        BatchRequest,
        BatchMessage,
        JudgeAnswers,
        JudgeMessage,
        RunFilter,
        RunMessage,
        crate::ReviewView,
        crate::ipc::FixPreview,
        crate::ipc::HealedSaved,
        crate::ipc::SynthesizedState,
        statewright_graph::GraphReport,
        statewright_graph::Route,
        ModelSettings,
        ModelSettingsChange,
    );
    let mut types: BTreeMap<String, Value> = BTreeMap::new();
    for (name, schema) in roots {
        let mut value = schema.to_value();
        if let Some(Value::Object(defs)) = value.as_object_mut().and_then(|o| o.remove("$defs")) {
            types.extend(defs);
        }
        types.insert(name, value);
    }
    let mut out = String::from(HEADER);
    for (name, schema) in &types {
        out.push('\n');
        doc(&mut out, schema, "");
        let _ = writeln!(out, "export type {name} = {};", ts(schema, ""));
    }
    out
}

fn doc(out: &mut String, schema: &Value, indent: &str) {
    if let Some(text) = schema.get("description").and_then(Value::as_str) {
        let text = text.replace("*/", "* /");
        let _ = writeln!(out, "{indent}/** {} */", text.replace('\n', &format!("\n{indent} * ")));
    }
}

fn literal(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "unknown".into())
}

fn union(parts: Vec<String>) -> String {
    let mut seen = Vec::new();
    for p in parts {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    match seen.len() {
        0 => "never".into(),
        _ => seen.join(" | "),
    }
}

fn wrap(t: String) -> String {
    if t.contains(" | ") || t.contains(" & ") { format!("({t})") } else { t }
}

/// The TypeScript type of one schema.
fn ts(schema: &Value, indent: &str) -> String {
    let obj = match schema {
        Value::Bool(true) => return "unknown".into(),
        Value::Bool(false) => return "never".into(),
        Value::Object(obj) => obj,
        _ => return "unknown".into(),
    };
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or("unknown").to_owned();
    }
    if let Some(c) = obj.get("const") {
        return literal(c);
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        return union(values.iter().map(literal).collect());
    }
    let mut parts: Vec<String> = Vec::new();
    let has_shape = obj.contains_key("type") || obj.contains_key("properties");
    if has_shape {
        parts.push(shape(obj, indent));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(members)) = obj.get(key) {
            let u = union(members.iter().map(|m| ts(m, indent)).collect());
            parts.push(if has_shape { wrap(u) } else { u });
        }
    }
    if let Some(Value::Array(members)) = obj.get("allOf") {
        parts.extend(members.iter().map(|m| wrap(ts(m, indent))));
    }
    match parts.len() {
        0 => "unknown".into(),
        1 => parts.remove(0),
        _ => parts.join(" & "),
    }
}

fn shape(obj: &Map<String, Value>, indent: &str) -> String {
    let types: Vec<&str> = match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec!["object"],
    };
    union(
        types
            .into_iter()
            .map(|t| match t {
                "string" => "string".into(),
                "integer" | "number" => "number".into(),
                "boolean" => "boolean".into(),
                "null" => "null".into(),
                "array" => match obj.get("items") {
                    Some(items) => format!("{}[]", wrap(ts(items, indent))),
                    None => "unknown[]".into(),
                },
                _ => object(obj, indent),
            })
            .collect(),
    )
}

fn object(obj: &Map<String, Value>, indent: &str) -> String {
    let props = obj.get("properties").and_then(Value::as_object);
    let extra = obj.get("additionalProperties");
    let Some(props) = props.filter(|p| !p.is_empty()) else {
        return match extra {
            Some(Value::Bool(false)) => "Record<string, never>".into(),
            Some(schema @ Value::Object(_)) => format!("Record<string, {}>", ts(schema, indent)),
            _ => "Record<string, unknown>".into(),
        };
    };
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for (name, schema) in props {
        doc(&mut out, schema, &inner);
        let optional = if required.contains(&name.as_str()) { "" } else { "?" };
        let _ = writeln!(out, "{inner}{name}{optional}: {};", ts(schema, &inner));
    }
    out.push_str(indent);
    out.push('}');
    out
}
