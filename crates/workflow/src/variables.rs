//! Run variables: shaping what an `extract` read into a value, and comparing one in a
//! `variable` check. Shared by the engine and by anything that checks workflows offline.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::model::VariableMatch;

static NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+").expect("a valid pattern"));

/// The first number written in `text`, thousands separators allowed: `$1,234.50` → 1234.5,
/// `3 items` → 3, `-0.5%` → -0.5.
pub fn number_in(text: &str) -> Option<f64> {
    NUMBER.find(text).and_then(|m| m.as_str().replace(',', "").parse().ok())
}

/// What a variable holds as text, for `{{name}}`: strings as they are, numbers as written,
/// lists and tables as compact JSON.
pub fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The part of `text` that `pattern` keeps: its first group, or the whole match when it has
/// no group (or the group took no part). `None` when it does not match.
pub fn narrow(pattern: &Regex, text: &str) -> Option<String> {
    let captures = pattern.captures(text)?;
    let kept = captures.get(1).or_else(|| captures.get(0))?;
    Some(kept.as_str().to_owned())
}

/// Whether `actual` compares as the check asks with `expected`. `pattern` is `expected`
/// compiled, for [`VariableMatch::Pattern`].
pub fn compare(mode: VariableMatch, actual: &str, expected: &str, pattern: Option<&Regex>) -> bool {
    let numbers = || Some((number_in(actual)?, number_in(expected)?));
    match mode {
        VariableMatch::Equals => actual == expected,
        VariableMatch::Contains => actual.contains(expected),
        VariableMatch::Pattern => pattern.is_some_and(|re| re.is_match(actual)),
        VariableMatch::LessThan => numbers().is_some_and(|(a, e)| a < e),
        VariableMatch::AtMost => numbers().is_some_and(|(a, e)| a <= e),
        VariableMatch::GreaterThan => numbers().is_some_and(|(a, e)| a > e),
        VariableMatch::AtLeast => numbers().is_some_and(|(a, e)| a >= e),
    }
}

/// The comparison in words, e.g. `at least`, for check descriptions.
pub fn describe(mode: VariableMatch) -> &'static str {
    match mode {
        VariableMatch::Equals => "=",
        VariableMatch::Contains => "contains",
        VariableMatch::Pattern => "matches",
        VariableMatch::LessThan => "<",
        VariableMatch::AtMost => "<=",
        VariableMatch::GreaterThan => ">",
        VariableMatch::AtLeast => ">=",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_from_prices_counts_and_signs() {
        assert_eq!(number_in("$1,234.50"), Some(1234.5));
        assert_eq!(number_in("3 items"), Some(3.0));
        assert_eq!(number_in("total: -0.5%"), Some(-0.5));
        assert_eq!(number_in("Order #00412"), Some(412.0));
        assert_eq!(number_in(".75"), Some(0.75));
        assert_eq!(number_in("12,5"), Some(12.0), "a decimal comma is not a thousands separator");
        assert_eq!(number_in("none"), None);
    }

    #[test]
    fn comparisons_follow_the_mode_and_fail_without_numbers() {
        assert!(compare(VariableMatch::GreaterThan, "$120.00", "100", None));
        assert!(!compare(VariableMatch::GreaterThan, "$99.99", "100", None));
        assert!(compare(VariableMatch::AtLeast, "100", "100.0", None));
        assert!(compare(VariableMatch::AtMost, "2", "2", None));
        assert!(compare(VariableMatch::LessThan, "-3", "0", None));
        assert!(!compare(VariableMatch::LessThan, "n/a", "0", None), "no number is no match");
        assert!(compare(VariableMatch::Equals, "Ann", "Ann", None));
        assert!(!compare(VariableMatch::Equals, "Ann ", "Ann", None));
        assert!(compare(VariableMatch::Contains, "Order #412 placed", "#412", None));
        let re = Regex::new(r"^#\d+$").unwrap();
        assert!(compare(VariableMatch::Pattern, "#412", "", Some(&re)));
        assert!(!compare(VariableMatch::Pattern, "412", "", Some(&re)));
    }

    #[test]
    fn a_pattern_keeps_its_first_group_or_the_whole_match() {
        let with_group = Regex::new(r"Order #(\d+)").unwrap();
        assert_eq!(narrow(&with_group, "Thanks! Order #412 is on its way").as_deref(), Some("412"));
        let without = Regex::new(r"\d+\.\d\d").unwrap();
        assert_eq!(narrow(&without, "Total: $12.50").as_deref(), Some("12.50"));
        assert_eq!(narrow(&without, "Total: free"), None);
        let optional = Regex::new(r"id=(\d+)?").unwrap();
        assert_eq!(narrow(&optional, "id=").as_deref(), Some("id="), "an idle group falls back to the match");
    }

    #[test]
    fn values_become_text_for_references() {
        assert_eq!(as_text(&Value::from("a b")), "a b");
        assert_eq!(as_text(&Value::from(3)), "3");
        assert_eq!(as_text(&serde_json::json!([{"id": "1"}])), r#"[{"id":"1"}]"#);
    }
}
