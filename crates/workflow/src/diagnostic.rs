//! Diagnostics: what is wrong with a workflow file, where, and what to do about it.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

use crate::span::{JsonPath, LineCol, SpanIndex};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// One finding, positioned in its file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The JSON path of the offending value, e.g. `states[2].actions[0].target`.
    pub path: String,
    pub message: String,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}:{}:{}: {level}: {}", self.file, self.line, self.column, self.message)?;
        if !self.path.is_empty() {
            write!(f, "\n    at {}", self.path)?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n    help: {help}")?;
        }
        Ok(())
    }
}

/// Every diagnostic of one file; an error when any of them is an error.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.severity == Severity::Error)
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Collects diagnostics for one file, turning JSON paths into lines and columns.
pub(crate) struct Reporter<'a> {
    file: &'a str,
    index: &'a SpanIndex<'a>,
    pub(crate) found: Vec<Diagnostic>,
}

impl<'a> Reporter<'a> {
    pub(crate) fn new(file: &'a str, index: &'a SpanIndex<'a>) -> Self {
        Self { file, index, found: Vec::new() }
    }

    pub(crate) fn error(&mut self, path: &JsonPath, message: impl Into<String>, help: impl Into<Option<String>>) {
        let pos = self.index.value_pos(path);
        self.push(Severity::Error, pos, path, message.into(), help.into());
    }

    /// An error about the key of `path` rather than its value (unknown fields).
    pub(crate) fn error_at_key(
        &mut self,
        path: &JsonPath,
        message: impl Into<String>,
        help: impl Into<Option<String>>,
    ) {
        let pos = self.index.key_pos(path);
        self.push(Severity::Error, pos, path, message.into(), help.into());
    }

    /// An error at a character inside the string value at `path` (selectors, call strings).
    pub(crate) fn error_in_string(
        &mut self,
        path: &JsonPath,
        char_index: usize,
        message: impl Into<String>,
        help: impl Into<Option<String>>,
    ) {
        let pos = self.index.string_char_pos(path, char_index);
        self.push(Severity::Error, pos, path, message.into(), help.into());
    }

    pub(crate) fn warning(&mut self, path: &JsonPath, message: impl Into<String>, help: impl Into<Option<String>>) {
        let pos = self.index.value_pos(path);
        self.push(Severity::Warning, pos, path, message.into(), help.into());
    }

    fn push(&mut self, severity: Severity, pos: LineCol, path: &JsonPath, message: String, help: Option<String>) {
        self.found.push(Diagnostic {
            severity,
            file: self.file.to_owned(),
            line: pos.line,
            column: pos.column,
            path: if path.0.is_empty() { String::new() } else { path.to_string() },
            message: shorten(message),
            help: help.map(shorten),
        });
    }

    pub(crate) fn has_errors(&self) -> bool {
        self.found.iter().any(|d| d.severity == Severity::Error)
    }
}

/// The longest message a diagnostic keeps: one that quotes a megabyte-long value keeps its
/// start and says how much was left out, so a terminal stays readable.
const MAX_MESSAGE_CHARS: usize = 300;

fn shorten(text: String) -> String {
    let total = text.chars().count();
    if total <= MAX_MESSAGE_CHARS {
        return text;
    }
    let kept: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
    format!("{kept}… ({} more characters)", total - MAX_MESSAGE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn messages_quoting_huge_values_are_shortened() {
        let huge = format!("unknown state `{}`", "é".repeat(100_000));
        let short = shorten(huge);
        assert!(short.chars().count() < 400, "{} characters", short.chars().count());
        assert!(short.starts_with("unknown state `éé") && short.ends_with("(99716 more characters)"), "{short}");
        assert_eq!(shorten("fine".into()), "fine");
    }
}
