//! A large generated workflow (tens of thousands of states, pretty-printed and on one
//! line): every mistake deep in the file is still placed at its exact line and column.

use super::*;

const STATES: usize = 20_000;
/// The state the mistakes are written in, far into the file.
const DEEP: usize = 17_345;

/// A chain of `STATES` states, the `DEEP`th with `deep` in place of its actions, one
/// state per line (`pretty`) or the whole file on one line.
fn chain(deep: &str, pretty: bool) -> String {
    let sep = if pretty { ",\n    " } else { ", " };
    let states: Vec<String> = (0..STATES)
        .map(|i| {
            let checks = if i == 0 {
                r#"[{"type": "url", "value": "about:blank"}]"#.to_owned()
            } else {
                format!(r#"[{{"type": "url", "match": "prefix", "value": "https://x/é{i}/"}}]"#)
            };
            if i == STATES - 1 {
                return format!(r#"{{"name": "s{i}", "checks": {checks}, "terminal": {{"outcome": "success"}}}}"#);
            }
            let actions =
                if i == DEEP { deep.to_owned() } else { r##"[{"type": "click", "target": {"css": "#go"}}]"##.into() };
            format!(r#"{{"name": "s{i}", "checks": {checks}, "actions": {actions}, "next": ["s{}"]}}"#, i + 1)
        })
        .collect();
    let start = if pretty {
        "{\n  \"version\": 1,\n  \"name\": \"big\",\n  \"states\": [\n    "
    } else {
        "{\"version\": 1, \"name\": \"big\", \"states\": ["
    };
    format!("{start}{}{}", states.join(sep), if pretty { "\n  ]\n}\n" } else { "]}" })
}

/// Line and column (1-based, in characters) of `needle` in the `DEEP`th state.
fn deep_pos(src: &str, needle: &str) -> (usize, usize) {
    let state = src.find(&format!("{{\"name\": \"s{DEEP}\"")).expect("the deep state");
    let at = state + src[state..].find(needle).unwrap_or_else(|| panic!("{needle:?} not in the deep state"));
    let before = &src[..at];
    (before.matches('\n').count() + 1, before.rsplit('\n').next().unwrap_or("").chars().count() + 1)
}

fn errors(src: &str) -> Vec<Diagnostic> {
    load_str(src, "big.json", "big").expect_err("the mistakes are errors").0
}

/// The single diagnostic whose message contains `needle`, as (line, column, path).
fn error(found: &[Diagnostic], needle: &str) -> (usize, usize, String) {
    let matching: Vec<_> = found.iter().filter(|d| d.message.contains(needle)).collect();
    assert_eq!(matching.len(), 1, "one error with {needle:?}: {found:#?}");
    (matching[0].line, matching[0].column, matching[0].path.clone())
}

#[test]
fn mistakes_deep_in_a_large_workflow_are_placed_exactly() {
    for pretty in [true, false] {
        let path = |rest: &str| format!("states[{DEEP}].actions{rest}");
        // An unknown field (at its key), an unknown action type (at the type's value) and a
        // key written twice (at the second, naming the first), all in one file.
        let src = chain(
            r##"[{"type": "click", "target": {"css": "#go"}, "colour": "red"},
                {"type": "clik", "target": {"css": "#go"}},
                {"type": "click", "target": {"css": "#go", "css": "#again"}}]"##,
            pretty,
        );
        let found = errors(&src);
        let (line, column, at) = error(&found, "unknown field `colour`");
        assert_eq!(((line, column), at), (deep_pos(&src, "\"colour\""), path("[0].colour")), "pretty: {pretty}");
        let (line, column, at) = error(&found, "unknown action `clik`");
        assert_eq!(((line, column), at), (deep_pos(&src, "\"clik\""), path("[1].type")), "pretty: {pretty}");
        let (line, column, at) = error(&found, "given twice");
        assert_eq!(((line, column), at), (deep_pos(&src, "\"css\": \"#again\""), path("[2].target.css")));
        let (first_line, first_column) = deep_pos(&src, "\"css\": \"#go\", \"css\"");
        let first = format!("first at line {first_line}, column {first_column}");
        assert!(found.iter().any(|d| d.message.contains(&first)), "{first}: {found:#?}");
        // A selector that does not parse: at the character inside the string.
        let src = chain(r##"[{"type": "click", "target": {"css": "#go[é"}}]"##, pretty);
        let (line, column, at) = error(&errors(&src), "selector");
        let (bracket_line, bracket_column) = deep_pos(&src, "[é\"");
        assert_eq!(line, bracket_line, "pretty: {pretty}");
        assert!((bracket_column..bracket_column + 3).contains(&column), "{column} near {bracket_column}");
        assert_eq!(at, path("[0].target.css"));
    }
}

#[test]
fn a_state_deep_in_a_large_workflow_has_its_own_place() {
    let src = chain(r##"[{"type": "click", "target": {"css": "#go"}}]"##, true);
    let index = SpanIndex::new(&src);
    let state = JsonPath::root().key("states").index(DEEP);
    let at = index.value_pos(&state);
    assert_eq!((at.line, at.column), deep_pos(&src, "{\"name\""));
    let name = index.value_pos(&state.key("name"));
    assert_eq!((name.line, name.column), deep_pos(&src, &format!("\"s{DEEP}\"")));
    assert!(load_str(&src, "big.json", "big").is_ok(), "the large workflow itself is valid");
}
