//! The workflow model of Statewright and everything that reads it: native JSON files,
//! CliGent files (seed 000), validation with positioned diagnostics, `{{name}}`
//! parameters, key names and the committed JSON Schema.
//!
//! Workflows are data. Nothing here evaluates anything taken from a file.

pub mod call;
mod cligent;
pub mod diagnostic;
mod display;
pub mod keys;
mod load;
pub mod model;
pub mod params;
pub mod selector;
pub mod span;
mod validate;

pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use load::{Loaded, SourceFormat, load_file, load_str};
pub use model::*;
pub use params::{ParamError, Params};

/// The JSON Schema of the native format, as committed in `schema/workflow.schema.json`.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(Workflow);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema always serialises");
    text.push('\n');
    text
}

/// The native JSON text of a workflow: stable field order, two-space indentation.
pub fn to_native_json(workflow: &Workflow) -> String {
    let mut text = serde_json::to_string_pretty(workflow).expect("a workflow always serialises");
    text.push('\n');
    text
}
