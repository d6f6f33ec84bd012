//! Semantic validation: everything serde cannot see. Each finding says what is wrong and
//! what to do; validation never stops at the first problem. Here: the workflow, its
//! states, checks and templates; an action's rules are in `validate/actions.rs`.

use std::collections::HashMap;

use regex::Regex;

use crate::diagnostic::Reporter;
use crate::load::SourceFormat;
use crate::model::{
    Check, Config, FORMAT_VERSION, SelectorKind, TitleMatch, UrlMatch, VariableMatch, WindowSelector, Workflow,
};
use crate::params::{Piece, parse_template};
use crate::selector::{validate_css, validate_xpath};
use crate::span::JsonPath;

mod actions;
mod lookalike;
use actions::check_action;
pub use actions::is_script_address;

pub(crate) fn validate(workflow: &Workflow, format: SourceFormat, report: &mut Reporter) {
    let root = JsonPath::root();
    if format == SourceFormat::Native && workflow.version != FORMAT_VERSION {
        report.error(
            &root.key("version"),
            format!("unsupported format version {}", workflow.version),
            Some(format!("this Statewright reads version {FORMAT_VERSION}")),
        );
    }
    if workflow.name.trim().is_empty() {
        report.error(&root.key("name"), "the workflow has an empty name", Some("give it a short name".into()));
    }
    for name in workflow.parameters.keys() {
        if !is_identifier(name) {
            report.error_at_key(
                &root.key("parameters").key(name),
                format!("`{name}` is not a valid parameter name"),
                Some("use letters, digits and `_`, starting with a letter or `_`".into()),
            );
        }
    }
    config(&workflow.config, &root.key("config"), report);
    if let Some(skill) = &workflow.skill {
        for (key, checks) in [("pre", &skill.pre), ("post", &skill.post)] {
            for (ci, check) in checks.iter().enumerate() {
                check_check(check, &root.key("skill").key(key).index(ci), workflow, report);
            }
        }
    }
    states(workflow, report);
    templates(workflow, report);
}

fn config(config: &Config, path: &JsonPath, report: &mut Reporter) {
    for (key, value, must_be_positive) in [
        ("transition_period", config.transition_period, true),
        ("no_states_timeout", config.no_states_timeout, false),
        ("action_period", config.action_period, false),
        ("state_timeout", config.state_timeout, false),
        ("action_timeout", config.action_timeout, true),
        ("verify_timeout", config.verify_timeout, true),
    ] {
        if !value.is_finite() || !(0.0..=MAX_SECONDS).contains(&value) || (must_be_positive && value == 0.0) {
            let bound = if must_be_positive { "greater than 0" } else { "from 0" };
            report.error(
                &path.key(key),
                format!("`{key}` must be a number of seconds {bound} up to 86400 (a day), not {}", seconds(value)),
                Some("a longer wait would hold the run (and its browser) all but for ever".into()),
            );
        }
    }
    if config.recursion_limit == 0 {
        report.error(&path.key("recursion_limit"), "`recursion_limit` must be at least 1", None);
    }
    for (i, stage) in config.escalation.iter().enumerate() {
        if config.escalation[..i].contains(stage) {
            report.error(
                &path.key("escalation").index(i),
                format!("escalation stage `{}` is listed twice", stage.as_str()),
                Some("each stage runs at most once per escalation; remove the repeat".into()),
            );
        }
    }
    let b = &config.breakers;
    for (key, limit) in [
        ("state_entries", b.state_entries),
        ("action_attempts", b.action_attempts),
        ("same_target", b.same_target),
        ("cycles", b.cycles),
        ("consecutive_failures", b.consecutive_failures),
    ] {
        if limit == 0 {
            report.error(&path.key("breakers").key(key), format!("breaker `{key}` must be at least 1"), None);
        }
    }
    let vp = config.viewport;
    if !(100..=10_000).contains(&vp.width) || !(100..=10_000).contains(&vp.height) {
        report.error(
            &path.key("viewport"),
            format!("viewport {}x{} is out of range", vp.width, vp.height),
            Some("use sizes between 100 and 10000 pixels".into()),
        );
    }
}

/// The longest wait a workflow may ask for, in seconds (a day): in its config as in its
/// actions, so that no number can make a run wait for ever.
pub(crate) const MAX_SECONDS: f64 = 86_400.0;

/// A number of seconds as a message shows it: `1e308`, not its 309 digits.
pub(crate) fn seconds(value: f64) -> String {
    let huge_or_tiny = value.is_finite() && value != 0.0 && !(1e-6..1e15).contains(&value.abs());
    if huge_or_tiny { format!("{value:e}") } else { format!("{value}") }
}

/// How many undefined state names get a did-you-mean.
const MAX_SUGGESTIONS: usize = 20;

fn states(workflow: &Workflow, report: &mut Reporter) {
    let states_path = JsonPath::root().key("states");
    if workflow.states.is_empty() {
        report.error(
            &states_path,
            "the workflow has no states",
            Some("add at least a start state and a terminal state".into()),
        );
        return;
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, state) in workflow.states.iter().enumerate() {
        let path = states_path.index(i);
        if state.name.trim().is_empty() {
            report.error(&path.key("name"), "a state has an empty name", None);
        } else if let Some(first) = seen.insert(state.name.as_str(), i) {
            seen.insert(state.name.as_str(), first);
            report.error(
                &path.key("name"),
                format!("duplicate state name `{}` (also states[{first}])", state.name),
                Some("state names identify states in `next`, logs and runs; make them unique".into()),
            );
        }
        if state.checks.is_empty() && !state.awaits_synthesis() {
            report.error(
                &path.key("checks"),
                format!("state `{}` has no checks, so it can never be recognised", state.name),
                Some("add a check on the URL, a text, an element or the title, or a `prompt` for the model to synthesise them from".into()),
            );
        }
        for (key, checks) in [("checks", &state.checks), ("expect", &state.expect)] {
            for (ci, check) in checks.iter().enumerate() {
                check_check(check, &path.key(key).index(ci), workflow, report);
            }
        }
        for (ai, action) in state.actions.iter().enumerate() {
            check_action(action, &path.key("actions").index(ai), workflow, report);
        }
        // Allowed (the file still runs), but it says the run goes on from here, and it does not.
        if state.is_terminal() && !state.next.is_empty() {
            report.warning(
                &path.key("next"),
                format!("`next` of terminal state `{}` is never followed: entering it ends the run", state.name),
                Some("remove `next`, or `terminal` if the run goes on from here".into()),
            );
        }
    }
    lookalike::lookalike_state_names(workflow, &states_path, report);
    // Suggestions cost an edit distance per state: offered for the first few mistakes only,
    // so a file full of them still validates in linear time.
    let mut suggestions = MAX_SUGGESTIONS;
    for (i, state) in workflow.states.iter().enumerate() {
        for (ni, next) in state.next.iter().enumerate() {
            if !seen.contains_key(next.as_str()) {
                let help = if suggestions > 0 {
                    suggestions -= 1;
                    closest(next, seen.keys().copied()).map(|s| format!("did you mean `{s}`?"))
                } else {
                    None
                };
                report.error(
                    &states_path.index(i).key("next").index(ni),
                    format!("`next` names an undefined state `{next}`"),
                    help,
                );
            }
        }
    }
    if !workflow.states.iter().any(|s| s.is_terminal()) {
        report.error(
            &states_path,
            "the workflow has no terminal state, so a run can never finish",
            Some("mark the final state with \"terminal\": {\"outcome\": \"success\"} (CliGent: \"end_state\")".into()),
        );
    }
}

/// Substitutes defaults for references, so strings with parameters can still be checked
/// before a run. `None` when a referenced parameter has no default: then only the run can
/// tell whether the string is valid.
fn sample(s: &str, workflow: &Workflow) -> Option<String> {
    parse_template(s)
        .ok()?
        .into_iter()
        .map(|p| match p {
            Piece::Literal(t) => Some(t.to_owned()),
            Piece::Param { name, .. } => {
                workflow.parameters.get(name).and_then(|p| p.default.clone()).filter(|d| !d.is_empty())
            }
        })
        .collect()
}

fn selector(kind: SelectorKind, raw: &str, path: &JsonPath, workflow: &Workflow, report: &mut Reporter) {
    if raw.trim().is_empty() {
        report.error(path, "empty selector", None);
        return;
    }
    let Some(s) = sample(raw, workflow) else {
        return;
    };
    let result = match kind {
        SelectorKind::Css => validate_css(&s),
        SelectorKind::Xpath => validate_xpath(&s),
    };
    if let Err(e) = result {
        let (what, help) = match kind {
            SelectorKind::Css => ("CSS selector", "fix the selector; XPath expressions need \"by\": \"xpath\""),
            SelectorKind::Xpath => ("XPath expression", "fix the expression (XPath 1.0, as document.evaluate accepts)"),
        };
        // Offsets are only exact when no reference was substituted before the error.
        let offset = if s == raw { e.offset } else { 0 };
        report.error_in_string(path, offset, format!("invalid {what}: {}", e.message), Some(help.into()));
    }
}

fn check_check(check: &Check, path: &JsonPath, workflow: &Workflow, report: &mut Reporter) {
    match check {
        Check::Element { by, selector: s, .. } => selector(*by, s, &path.key("selector"), workflow, report),
        Check::Url { mode: UrlMatch::Pattern, value, .. }
        | Check::Title { mode: TitleMatch::Pattern, value, .. }
        | Check::WindowTitle { mode: TitleMatch::Pattern, value, .. } => {
            pattern(value, &path.key("value"), workflow, report)
        }
        Check::Text { value, .. } if value.trim().is_empty() => {
            report.error(&path.key("value"), "a text check needs a non-empty value", None);
        }
        Check::AppClass { value, .. } if value.trim().is_empty() => {
            report.error(&path.key("value"), "an app_class check needs a non-empty value", None);
        }
        Check::WindowExists { .. } | Check::WindowFocused { .. } => {
            if let Some(selector) = check.window_selector() {
                window_selector(&selector, path, workflow, report);
            }
        }
        Check::Variable { name, mode, value, .. } => variable_check(name, *mode, value, path, workflow, report),
        _ => {}
    }
}

/// A `variable` check names a variable or parameter, and its value suits its comparison.
fn variable_check(
    name: &str,
    mode: VariableMatch,
    value: &str,
    path: &JsonPath,
    workflow: &Workflow,
    report: &mut Reporter,
) {
    let variables = workflow.variables();
    if !workflow.parameters.contains_key(name) && !variables.contains(&name) {
        let known = workflow.parameters.keys().map(String::as_str).chain(variables.iter().copied());
        let help = match closest(name, known) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "set it with an `extract` action, e.g. {\"type\": \"extract\", \"into\": \"total\", …}".into(),
        };
        report.error(&path.key("name"), format!("no variable or parameter `{name}`"), Some(help));
    }
    match mode {
        VariableMatch::Pattern => pattern(value, &path.key("value"), workflow, report),
        VariableMatch::LessThan | VariableMatch::AtMost | VariableMatch::GreaterThan | VariableMatch::AtLeast => {
            if let Some(s) = sample(value, workflow)
                && crate::variables::number_in(&s).is_none()
            {
                report.error(
                    &path.key("value"),
                    format!("`{s}` has no number to compare with"),
                    Some("numeric comparisons need a number such as 100 or 12.50".into()),
                );
            }
        }
        VariableMatch::Equals | VariableMatch::Contains => {}
    }
}

/// A skill's name, which is also its file's: `skills/NAME.json`.
pub fn is_skill_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with(['-', '.'])
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !crate::is_device_name(name)
}

fn pattern(value: &str, path: &JsonPath, workflow: &Workflow, report: &mut Reporter) {
    if let Some(s) = sample(value, workflow)
        && let Err(e) = Regex::new(&s)
    {
        report.error(path, format!("invalid regular expression: {e}"), Some("patterns use Rust regex syntax".into()));
    }
}

/// A window selector names a title, a class or both, and its title pattern compiles.
fn window_selector(selector: &WindowSelector, path: &JsonPath, workflow: &Workflow, report: &mut Reporter) {
    let title = selector.title.as_deref().filter(|t| !t.is_empty());
    let class = selector.app_class.as_deref().filter(|c| !c.trim().is_empty());
    if title.is_none() && class.is_none() {
        report.error(
            path,
            "a window selector needs a non-empty `title` or `app_class` (or both)",
            Some("e.g. {\"title\": \"Terminal\", \"match\": \"contains\"} or {\"app_class\": \"XTerm\"}".into()),
        );
    }
    if let Some(title) = &selector.title
        && selector.mode == TitleMatch::Pattern
    {
        pattern(title, &path.key("title"), workflow, report);
    }
}

/// Every template must parse and reference a declared parameter or a variable that an
/// `extract` sets.
fn templates(workflow: &Workflow, report: &mut Reporter) {
    let variables = workflow.variables();
    workflow.each_template_string(|path, s| match parse_template(s) {
        Err(e) => {
            report.error_in_string(path, e.offset, e.message, Some("write parameter references as {{name}}".into()))
        }
        Ok(pieces) => {
            for piece in pieces {
                if let Piece::Param { name, offset } = piece
                    && !workflow.parameters.contains_key(name)
                    && !variables.contains(&name)
                {
                    let known = workflow.parameters.keys().map(String::as_str).chain(variables.iter().copied());
                    let help = match closest(name, known) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!(
                            "declare it under \"parameters\": {{\"{name}\": {{\"default\": \"…\"}}}}, \
                                 or set it with an `extract` action"
                        ),
                    };
                    report.error_in_string(
                        path,
                        offset,
                        format!("reference to undefined parameter or variable `{name}`"),
                        Some(help),
                    );
                }
            }
        }
    });
}

fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
pub fn closest<'c>(word: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    let len = word.chars().count();
    let limit = if len <= 3 { 1 } else { (len / 3).max(2) };
    candidates
        .filter(|c| c.len().abs_diff(word.len()) <= limit * 4)
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb { prev } else { 1 + prev.min(row[j]).min(cur) };
            prev = cur;
        }
    }
    row[b.len()]
}
