//! Reading workflow files: JSON syntax, format detection, typed deserialisation with
//! positioned errors, then validation. Both native files and CliGent files come in here.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::cligent;
use crate::diagnostic::{Diagnostic, Diagnostics, Reporter, Severity};
use crate::json_problem::{LONE_SURROGATE_HELP, half_pair, json_problem, lone_surrogate};
use crate::model::{Action, Check, Workflow};
use crate::span::{JsonPath, Seg, SpanIndex};
use crate::validate::validate;

mod source;
pub(crate) use source::kind;
pub use source::{
    MAX_INPUT_BYTES, MAX_WRITTEN_BYTES, NotUtf8, Unreadable, open_input, read_input_bytes, read_input_text,
    read_workflow_text, utf8_text,
};

/// Which dialect a file was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceFormat {
    Native,
    /// Seed 000's format: a bare array of states, or `{"states", "config", "parameters"}`.
    CliGent,
}

/// A workflow that passed validation, with any warnings.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub workflow: Workflow,
    pub format: SourceFormat,
    pub warnings: Diagnostics,
    /// The text it was loaded from, as read: what a layout-preserving write edits and what
    /// diagnostics point into, so a file is read once (a second read could see another file).
    pub source: String,
}

/// Reads and validates a workflow file (a regular file of at most
/// [`MAX_INPUT_BYTES`]).
pub fn load_file(path: &Path) -> Result<Loaded, Diagnostics> {
    let file = path.display().to_string();
    let src = read_workflow_text(path).map_err(|e| {
        let (line, column) = e.place.unwrap_or((1, 1));
        Diagnostics(vec![Diagnostic {
            severity: Severity::Error,
            file: file.clone(),
            line,
            column,
            path: String::new(),
            message: e.message,
            help: Some(e.help),
        }])
    })?;
    // A CliGent array has no name of its own: the file's stem stands in.
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    load_text(src, &file, &stem)
}

/// Parses and validates workflow text. `file` names it in diagnostics; `fallback_name`
/// names workflows whose format has no name field.
pub fn load_str(source: &str, file: &str, fallback_name: &str) -> Result<Loaded, Diagnostics> {
    load_text(source.to_owned(), file, fallback_name)
}

/// [`load_str`] keeping `source` itself in [`Loaded`], not a copy of it.
fn load_text(source: String, file: &str, fallback_name: &str) -> Result<Loaded, Diagnostics> {
    let src = without_bom(&source);
    let invalid = |e: serde_json::Error| {
        let (message, help) = match lone_surrogate(src, &e) {
            Some(escape) => (format!("invalid JSON: {}", half_pair(&escape)), LONE_SURROGATE_HELP),
            None => (
                format!("invalid JSON: {}", json_problem(src, &e)),
                "a workflow file is a JSON document; check quotes, commas and brackets near here",
            ),
        };
        Diagnostics(vec![Diagnostic {
            severity: Severity::Error,
            file: file.to_owned(),
            line: e.line().max(1),
            column: e.column().max(1),
            path: String::new(),
            message,
            help: Some(help.into()),
        }])
    };
    serde_json::from_str::<Syntax>(src).map_err(invalid)?;
    let index = SpanIndex::new(src);
    let mut report = Reporter::new(file, &index);
    repeated_keys(&index, &mut report);
    let format = detect(&index);
    // A valid native file is read straight into its types. A JSON tree of the file takes
    // about 20 times its size, so it is built only to read CliGent's looser format and to
    // report a native file's mistakes as they always were.
    let typed = match format {
        SourceFormat::Native if !report.has_errors() => serde_json::from_str::<Workflow>(src).ok(),
        _ => None,
    };
    let workflow = match typed {
        Some(workflow) => Some(workflow),
        None => {
            let value: Value = serde_json::from_str(src).map_err(invalid)?;
            match format {
                SourceFormat::Native => native(&value, &mut report),
                SourceFormat::CliGent => cligent::convert(&value, fallback_name, &mut report),
            }
        }
    };
    if let Some(workflow) = &workflow {
        validate(workflow, format, &mut report);
    }
    match workflow {
        Some(workflow) if !report.has_errors() => {
            let warnings = Diagnostics(report.found);
            Ok(Loaded { workflow, format, warnings, source })
        }
        _ => Err(Diagnostics(report.found)),
    }
}

/// The text after a UTF-8 byte order mark, which Windows editors (Notepad) write at the
/// start of a file and JSON does not allow; editors do not show it, so positions are
/// counted without it.
pub fn without_bom(src: &str) -> &str {
    src.strip_prefix('\u{feff}').unwrap_or(src)
}

/// A key written twice in one object is an error: JSON readers keep the last silently, so
/// a second `checks` would drop the first's checks without a word.
fn repeated_keys(index: &SpanIndex, report: &mut Reporter) {
    for (path, again, first) in index.repeated_keys() {
        let key = match path.0.last() {
            Some(Seg::Key(key)) => key.as_str(),
            _ => continue,
        };
        report.error_at_pos(
            again,
            path,
            format!(
                "the key `{key}` is given twice in this object (first at line {}, column {})",
                first.line, first.column
            ),
            Some("only one of them would count; merge them into one or remove one".into()),
        );
    }
}

/// Native files carry `"version"`; everything else is read as CliGent.
fn detect(index: &SpanIndex) -> SourceFormat {
    if index.has(&JsonPath::root().key("version")) { SourceFormat::Native } else { SourceFormat::CliGent }
}

/// Any JSON document, checked as a JSON tree (`Value`) reads it, so a file is refused with
/// the same error, at the same place, without the tree being built. (serde's `IgnoredAny`
/// skips more leniently: a lone surrogate escape, a number out of range.)
struct Syntax;

impl<'de> serde::Deserialize<'de> for Syntax {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Syntax)
    }
}

impl<'de> serde::de::Visitor<'de> for Syntax {
    type Value = Syntax;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Syntax, E> {
        Ok(Syntax)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Syntax, E> {
        Ok(Syntax)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Syntax, E> {
        Ok(Syntax)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Syntax, E> {
        Ok(Syntax)
    }

    fn visit_str<E>(self, _: &str) -> Result<Syntax, E> {
        Ok(Syntax)
    }

    fn visit_unit<E>(self) -> Result<Syntax, E> {
        Ok(Syntax)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Syntax, A::Error> {
        while seq.next_element::<Syntax>()?.is_some() {}
        Ok(Syntax)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Syntax, A::Error> {
        while map.next_entry::<Syntax, Syntax>()?.is_some() {}
        Ok(Syntax)
    }
}

/// Deserialises a native file. Checks and actions are deserialised one by one first, so
/// that one file with several mistakes gets all of them reported, each at its own place.
fn native(value: &Value, report: &mut Reporter) -> Option<Workflow> {
    if let Some(states) = value.get("states").and_then(Value::as_array) {
        let states_path = JsonPath::root().key("states");
        for (si, state) in states.iter().enumerate() {
            let state_path = states_path.index(si);
            for (key, typed) in [("checks", check_piece as PieceCheck), ("actions", action_piece)] {
                if let Some(items) = state.get(key).and_then(Value::as_array) {
                    for (i, item) in items.iter().enumerate() {
                        typed(item, &state_path.key(key).index(i), report);
                    }
                }
            }
        }
    }
    if report.has_errors() {
        return None;
    }
    deserialize::<Workflow>(value, &JsonPath::root(), report)
}

type PieceCheck = fn(&Value, &JsonPath, &mut Reporter);

fn check_piece(item: &Value, path: &JsonPath, report: &mut Reporter) {
    deserialize::<Check>(item, path, report);
}

fn action_piece(item: &Value, path: &JsonPath, report: &mut Reporter) {
    deserialize::<Action>(item, path, report);
}

/// Deserialises `value` (found at `base`), reporting a failure at the most precise place.
pub(crate) fn deserialize<T: DeserializeOwned>(value: &Value, base: &JsonPath, report: &mut Reporter) -> Option<T> {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(t) => Some(t),
        Err(err) => {
            let mut path = base.clone();
            for seg in err.path().iter() {
                match seg {
                    serde_path_to_error::Segment::Seq { index } => path = path.index(*index),
                    serde_path_to_error::Segment::Map { key } => path = path.key(key),
                    _ => {}
                }
            }
            let message = err.inner().to_string();
            let value_at = lookup(value, &path, base);
            report_serde_error(&message, &path, value_at, report);
            None
        }
    }
}

fn lookup<'v>(root: &'v Value, path: &JsonPath, base: &JsonPath) -> Option<&'v Value> {
    let mut v = root;
    for seg in path.0.get(base.0.len()..)? {
        v = match seg {
            Seg::Key(k) => v.get(k)?,
            Seg::Index(i) => v.get(i)?,
        };
    }
    Some(v)
}

/// Turns serde's message into a diagnostic with a place and a hint.
fn report_serde_error(message: &str, path: &JsonPath, value: Option<&Value>, report: &mut Reporter) {
    if let Some(field) = quoted_after(message, "unknown field `") {
        let expected = message.split_once(", expected ").map(|(_, e)| e.to_owned());
        let help = expected.map(|e| format!("the fields allowed here are {e}"));
        // serde_path_to_error sometimes already includes the offending key in the path.
        let at = if path.0.last() == Some(&Seg::Key(field.clone())) { path.clone() } else { path.key(&field) };
        report.error_at_key(&at, format!("unknown field `{field}`"), help);
        return;
    }
    if let Some(variant) = quoted_after(message, "unknown variant `") {
        let expected = message.split_once(", expected ").map_or(String::new(), |(_, e)| e.to_owned());
        // For tagged checks and actions, point at the "type" value.
        let at = match path.0.last() {
            Some(Seg::Key(k)) if k == "type" => path.clone(),
            _ if value.is_some_and(|v| v.get("type").is_some()) => path.key("type"),
            _ => path.clone(),
        };
        let suggestion = crate::validate::closest(
            &variant,
            expected.split(", ").map(|s| s.trim_matches(|c| c == '`' || c == ' ').trim_start_matches("one of `")),
        );
        let mut help = format!("expected {expected}");
        if let Some(s) = suggestion {
            help = format!("did you mean `{s}`? ({help})");
        }
        // Inside a tagged check or action, serde names the object, not the field whose
        // value it did not know (`"read": "everything"`): find that field.
        let object = value.and_then(Value::as_object);
        let field = object.filter(|m| m.get("type").and_then(Value::as_str) != Some(variant.as_str())).and_then(|m| {
            m.iter().find(|(k, v)| *k != "type" && v.as_str() == Some(variant.as_str())).map(|(k, _)| k.clone())
        });
        if let Some(field) = field {
            report.error(&path.key(&field), format!("unknown `{field}` value `{variant}`"), Some(help));
            return;
        }
        report.error(&at, format!("unknown {} `{variant}`", variant_kind(path)), Some(help));
        return;
    }
    if let Some((text, expected)) = text_for_number(message) {
        // Inside a tagged check or action serde names the object, not the field (a click's
        // `position.x`): find the text in it.
        let at = value.and_then(|v| path_to_text(v, text, path)).unwrap_or_else(|| path.clone());
        let (message, help) = if text.contains("{{") {
            (
                format!("`{text}` where a number goes: `{{{{…}}}}` fills in text only"),
                "write the number itself: parameters and variables fill in text (addresses, typed text, selectors), \
                 not numbers such as a position's fractions",
            )
        } else {
            (format!("expected a number ({expected}), not the text `{text}`"), "write the number without quotes")
        };
        report.error(&at, message, Some(help.into()));
        return;
    }
    if let Some(field) = quoted_after(message, "missing field `") {
        report.error(path, format!("missing field `{field}`"), Some(format!("add \"{field}\": … here")));
        return;
    }
    report.error(path, message.to_owned(), None);
}

fn variant_kind(path: &JsonPath) -> &'static str {
    let parent = path.0.iter().rev().find_map(|s| match s {
        Seg::Key(k) if k != "type" => Some(k.as_str()),
        _ => None,
    });
    match parent {
        Some("actions") => "action",
        Some("checks") => "check type",
        _ => "value",
    }
}

/// The text and the number type of serde's "invalid type: string \"…\", expected f64".
fn text_for_number(message: &str) -> Option<(&str, &str)> {
    let (text, expected) = message.strip_prefix("invalid type: string \"")?.rsplit_once("\", expected ")?;
    let number =
        matches!(expected, "f32" | "f64" | "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64")
            || expected.contains("number")
            || expected.contains("integer");
    number.then_some((text, expected))
}

/// Where in `value` (at `base`) the string `text` is (the first found).
fn path_to_text(value: &Value, text: &str, base: &JsonPath) -> Option<JsonPath> {
    match value {
        Value::String(s) if s == text => Some(base.clone()),
        Value::Object(map) => map.iter().find_map(|(k, v)| path_to_text(v, text, &base.key(k))),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| path_to_text(v, text, &base.index(i))),
        _ => None,
    }
}

fn quoted_after(message: &str, prefix: &str) -> Option<String> {
    let rest = message.split_once(prefix)?.1;
    Some(rest.split_once('`')?.0.to_owned())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod choice_tests;

#[cfg(test)]
mod desktop_tests;

#[cfg(test)]
mod refusal_tests;

#[cfg(test)]
mod large_tests;
