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

    /// An error at a position the index found itself (a key written twice).
    pub(crate) fn error_at_pos(&mut self, pos: LineCol, path: &JsonPath, message: String, help: Option<String>) {
        self.push(Severity::Error, pos, path, message, help);
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

/// The longest value a message quotes whole. A message that quotes a megabyte-long value
/// (or a number written with 300 digits) keeps the value's start and says how much was
/// left out; the words around it, which say what is wrong, are always kept whole.
const MAX_VALUE_CHARS: usize = 80;

/// `text` with each value it quotes cut after [`MAX_VALUE_CHARS`] characters.
pub fn shorten(text: String) -> String {
    if text.chars().count() <= MAX_VALUE_CHARS {
        return text;
    }
    let mut out = String::with_capacity(text.len().min(1024));
    let mut rest = text.as_str();
    while !rest.is_empty() {
        // A value is what a message quotes (`…` or "…"), or else one long run without spaces.
        let quoted = rest.chars().next().filter(|c| *c == '`' || *c == '"').and_then(|quote| {
            let close = rest[1..].find(quote)? + 1;
            Some((&rest[..1], &rest[1..close], &rest[close..close + 1]))
        });
        let (open, value, close) = quoted.unwrap_or_else(|| {
            let end = rest.find(|c: char| c.is_whitespace() || c == '`' || c == '"').unwrap_or(rest.len());
            let end = if end == 0 { rest.chars().next().map_or(0, char::len_utf8) } else { end };
            ("", &rest[..end], "")
        });
        out.push_str(open);
        out.push_str(&shorten_value(value));
        out.push_str(close);
        rest = &rest[open.len() + value.len() + close.len()..];
    }
    out
}

fn shorten_value(value: &str) -> std::borrow::Cow<'_, str> {
    let total = value.chars().count();
    if total <= MAX_VALUE_CHARS {
        return value.into();
    }
    let kept: String = value.chars().take(MAX_VALUE_CHARS).collect();
    format!("{kept}… ({} more characters)", total - MAX_VALUE_CHARS).into()
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn messages_quoting_huge_values_are_shortened() {
        let huge = format!("unknown state `{}`", "é".repeat(100_000));
        let short = shorten(huge);
        assert!(short.chars().count() < 200, "{} characters", short.chars().count());
        assert!(short.starts_with("unknown state `éé") && short.ends_with("(99920 more characters)`"), "{short}");
        assert_eq!(shorten("fine".into()), "fine");
    }

    #[test]
    fn the_reason_after_a_long_value_is_kept_whole() {
        let name = "x".repeat(300);
        let short = shorten(format!("`{name}` is not a plain file name"));
        assert!(short.ends_with("… (220 more characters)` is not a plain file name"), "{short}");
        let digits = format!("1{}", "0".repeat(308));
        let short = shorten(format!("{digits} is not a sensible number of seconds"));
        assert!(short.ends_with("(229 more characters) is not a sensible number of seconds"), "{short}");
        let serde = format!("invalid type: string \"{}\", expected f64", "a b ".repeat(100));
        assert!(shorten(serde).ends_with("(320 more characters)\", expected f64"));
        let many = format!("{} and then the reason", "word ".repeat(100));
        assert_eq!(shorten(many.clone()), many, "a long message of short words is left alone");
        assert_eq!(shorten("unclosed `quote and é".repeat(10)), "unclosed `quote and é".repeat(10));
    }
}
