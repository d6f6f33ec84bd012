//! Literal text rewrites applied to a site's html, js and css as they are served: a
//! "drifted" copy of a site (ids renamed, texts changed) for testing how workflows survive
//! a redesign, without a second copy of the site that would fall out of step with the first.
//!
//! Invariant: every rule matched something when the rewrites were built (rules apply in
//! order, each to the output of the ones before), so a drift file cannot silently rot as
//! the site it describes changes.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Replace every occurrence of `from` with `to`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rewrite {
    pub from: String,
    pub to: String,
    /// Why the rule exists, for people reading the file.
    #[serde(default)]
    pub note: Option<String>,
}

/// A drift file: `{"description": "...", "rules": [{"from", "to", "note"?}, ...]}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DriftFile {
    #[serde(default)]
    #[allow(dead_code)] // documentation for people; nothing reads it
    description: Option<String>,
    rules: Vec<Rewrite>,
}

#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    /// A file that cannot be read; `message` says why, naming the file where the caller
    /// does not (a drift file's errors are shown after its path).
    #[error("{message}")]
    Read { path: PathBuf, message: String },
    #[error("{path} is not a drift file: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("rewrite rule {number} has an empty `from`")]
    EmptyFrom { number: usize },
    #[error("rewrite rule {number} ({from:?}) matches nothing in the site's html, js or css")]
    Unmatched { number: usize, from: String },
}

/// Reads the rules of a drift file: as every input file is read, so a named pipe or a
/// device given as one is refused at once rather than waited on or read without end.
pub fn load_rules(path: &Path) -> Result<Vec<Rewrite>, SiteError> {
    let text = statewright_workflow::read_input_text(path, "drift file")
        .map_err(|e| SiteError::Read { path: path.to_owned(), message: e.message })?;
    let file: DriftFile = serde_json::from_str(&text).map_err(|e| SiteError::Parse {
        path: path.to_owned(),
        message: format!("line {}, column {}: {}", e.line(), e.column(), statewright_workflow::json_problem(&text, &e)),
    })?;
    Ok(file.rules)
}

/// Applies `rules` in order to `text`.
pub fn apply(rules: &[Rewrite], text: &str) -> String {
    rules.iter().fold(text.to_owned(), |text, rule| text.replace(&rule.from, &rule.to))
}

/// Checks that every rule, applied in order, matches at least one of `files`.
pub fn check(rules: &[Rewrite], files: Vec<String>) -> Result<(), SiteError> {
    let mut files = files;
    for (i, rule) in rules.iter().enumerate() {
        let number = i + 1;
        if rule.from.is_empty() {
            return Err(SiteError::EmptyFrom { number });
        }
        if !files.iter().any(|f| f.contains(&rule.from)) {
            return Err(SiteError::Unmatched { number, from: rule.from.clone() });
        }
        for file in &mut files {
            *file = file.replace(&rule.from, &rule.to);
        }
    }
    Ok(())
}

/// Files whose text is rewritten: what a redesign changes. Data (json) and images are not.
pub fn is_rewritten(path: &str) -> bool {
    matches!(path.rsplit_once('.').map(|(_, ext)| ext), Some("html" | "js" | "mjs" | "css"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(from: &str, to: &str) -> Rewrite {
        Rewrite { from: from.into(), to: to.into(), note: None }
    }

    #[test]
    fn rules_apply_in_order_to_every_occurrence() {
        let rules = [rule("a", "b"), rule("bb", "c")];
        assert_eq!(apply(&rules, "a-a ab"), "b-b c");
    }

    #[test]
    fn a_rule_must_match_what_the_rules_before_it_left() {
        let files = vec!["id=\"old\"".to_owned(), "getElementById('old')".to_owned()];
        assert!(check(&[rule("\"old\"", "\"new\""), rule("'old'", "'new'")], files.clone()).is_ok());
        match check(&[rule("old", "new"), rule("'old'", "'new'")], files.clone()) {
            Err(SiteError::Unmatched { number: 2, from }) => assert_eq!(from, "'old'"),
            other => panic!("the second rule's text was consumed by the first: {other:?}"),
        }
        assert!(matches!(check(&[rule("", "x")], files), Err(SiteError::EmptyFrom { number: 1 })));
    }

    #[test]
    fn only_pages_scripts_and_styles_are_rewritten() {
        assert!(is_rewritten("/login.html") && is_rewritten("/app.js") && is_rewritten("/style.css"));
        assert!(!is_rewritten("/data/products.json") && !is_rewritten("/logo.png") && !is_rewritten("/README"));
    }
}
