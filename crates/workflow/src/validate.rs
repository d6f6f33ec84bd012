//! Semantic validation: everything serde cannot see. Each finding says what is wrong and
//! what to do; validation never stops at the first problem.

use std::collections::HashMap;

use indexmap::IndexMap;
use regex::Regex;

use crate::diagnostic::Reporter;
use crate::keys::parse_key_combo;
use crate::load::SourceFormat;
use crate::model::{
    Action, Check, Config, ExtractRead, FORMAT_VERSION, SelectorKind, Target, TitleMatch, UrlMatch, VariableMatch,
    WindowSelector, Workflow,
};
use crate::params::{Piece, parse_template};
use crate::selector::{validate_css, validate_xpath};
use crate::span::JsonPath;

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
        if !value.is_finite() || value < 0.0 || (must_be_positive && value == 0.0) {
            let bound = if must_be_positive { "greater than 0" } else { "0 or more" };
            report.error(&path.key(key), format!("`{key}` must be a number of seconds {bound}, not {value}"), None);
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
    }
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

/// A `use_skill` names a skill, and its arguments and outputs are names.
fn use_skill(
    action: (&str, &IndexMap<String, String>, &IndexMap<String, String>),
    path: &JsonPath,
    workflow: &Workflow,
    report: &mut Reporter,
) {
    let (skill, args, outputs) = action;
    if !is_skill_name(skill) {
        report.error(
            &path.key("skill"),
            format!("`{skill}` is not a skill name"),
            Some("skills are files skills/NAME.json: letters, digits, `-` and `_`".into()),
        );
    }
    for name in args.keys().filter(|n| !is_identifier(n)) {
        report.error_at_key(&path.key("args").key(name), format!("`{name}` is not a parameter name"), None);
    }
    for (here, there) in outputs {
        if !is_identifier(here) {
            report.error_at_key(&path.key("outputs").key(here), format!("`{here}` is not a valid variable name"), None);
        } else if workflow.parameters.contains_key(here) {
            report.error_at_key(
                &path.key("outputs").key(here),
                format!("`{here}` is a parameter; a run's parameters are not overwritten"),
                Some("name the variable differently".into()),
            );
        }
        if !is_identifier(there) {
            report.error(&path.key("outputs").key(here), format!("`{there}` is not a variable name"), None);
        }
    }
}

/// A skill's name, which is also its file's: `skills/NAME.json`.
pub fn is_skill_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with(['-', '.'])
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// An `extract` names a new variable and says exactly what to read.
fn extract(
    action: (&str, ExtractRead, Option<&str>, Option<&str>),
    path: &JsonPath,
    workflow: &Workflow,
    report: &mut Reporter,
) {
    let (into, read, attribute, regex) = action;
    if !is_identifier(into) {
        report.error(
            &path.key("into"),
            format!("`{into}` is not a valid variable name"),
            Some("use letters, digits and `_`, starting with a letter or `_`: it is referenced as {{name}}".into()),
        );
    } else if workflow.parameters.contains_key(into) {
        report.error(
            &path.key("into"),
            format!("`{into}` is a parameter; a run's parameters are not overwritten"),
            Some("name the variable differently".into()),
        );
    }
    match (read, attribute) {
        (ExtractRead::Attribute, None) => report.error(
            path,
            "`read: attribute` needs the attribute's name",
            Some("e.g. \"attribute\": \"href\"".into()),
        ),
        (ExtractRead::Attribute, Some(a)) if a.trim().is_empty() => {
            report.error(&path.key("attribute"), "empty attribute name", None)
        }
        (ExtractRead::Attribute, Some(_)) | (_, None) => {}
        (_, Some(_)) => report.error(
            &path.key("attribute"),
            "`attribute` is only read with \"read\": \"attribute\"",
            Some("add \"read\": \"attribute\" or remove `attribute`".into()),
        ),
    }
    if let Some(regex) = regex {
        if read.is_text() {
            pattern(regex, &path.key("pattern"), workflow, report);
        } else {
            report.error(
                &path.key("pattern"),
                "a `pattern` narrows one text: it needs `read` text, attribute or value",
                None,
            );
        }
    }
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

fn target(target: &Target, path: &JsonPath, workflow: &Workflow, report: &mut Reporter) {
    let kinds = [("css", &target.css), ("xpath", &target.xpath), ("text", &target.text), ("role", &target.role)];
    let set: Vec<&str> = kinds.iter().filter(|(_, v)| v.is_some()).map(|(k, _)| *k).collect();
    if set.len() != 1 {
        let found = if set.is_empty() { "none".to_owned() } else { set.join(" and ") };
        report.error(
            path,
            format!("a target needs exactly one of css, xpath, text or role (found {found})"),
            Some("e.g. {\"css\": \"#submit\"} or {\"role\": \"button\", \"name\": \"Sign in\"}".into()),
        );
    }
    if target.name.is_some() && target.role.is_none() {
        report.error(
            &path.key("name"),
            "`name` narrows a `role` target and needs `role`",
            Some("add \"role\": \"button\" (or the element's role)".into()),
        );
    }
    if let Some(css) = &target.css {
        selector(SelectorKind::Css, css, &path.key("css"), workflow, report);
    }
    if let Some(xpath) = &target.xpath {
        selector(SelectorKind::Xpath, xpath, &path.key("xpath"), workflow, report);
    }
    for (key, value) in [("text", &target.text), ("role", &target.role)] {
        if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
            report.error(&path.key(key), format!("empty `{key}`"), None);
        }
    }
}

fn check_action(action: &Action, path: &JsonPath, workflow: &Workflow, report: &mut Reporter) {
    if let Some(t) = action.target() {
        target(t, &path.key("target"), workflow, report);
    }
    if let Some(w) = action.window() {
        window_selector(w, &path.key("window"), workflow, report);
    }
    match action {
        Action::NavigateTo { url } => {
            if let Some(s) = sample(url, workflow)
                && !has_scheme(&s)
            {
                report.error(
                    &path.key("url"),
                    format!("`{s}` is not an absolute URL"),
                    Some("start it with http://, https://, file:// or about:".into()),
                );
            }
        }
        Action::Click { count, position, .. } => {
            if !(1..=3).contains(count) {
                report.error(
                    &path.key("count"),
                    format!("click count {count} is out of range"),
                    Some("use 1, 2 (double click) or 3".into()),
                );
            }
            if let Some(p) = position
                && !(fraction(p.x) && fraction(p.y))
            {
                report.error(
                    &path.key("position"),
                    "position is a fraction of the element's size: x and y from 0 to 1",
                    None,
                );
            }
        }
        Action::PressKey { key } => {
            if !key.contains("{{")
                && let Err(e) = parse_key_combo(key)
            {
                report.error(&path.key("key"), e, None);
            }
        }
        Action::UseSkill { skill, args, outputs } => use_skill((skill, args, outputs), path, workflow, report),
        Action::Extract { into, read, attribute, pattern, .. } => {
            extract((into, *read, attribute.as_deref(), pattern.as_deref()), path, workflow, report)
        }
        Action::SelectOption { value, label, .. } if value.is_some() == label.is_some() => {
            report.error(path, "select_option needs exactly one of `value` or `label`", None);
        }
        Action::Wait { seconds } => seconds_field(*seconds, &path.key("seconds"), report),
        Action::WaitFor { timeout: Some(t), .. } | Action::WaitForWindow { timeout: Some(t), .. } => {
            seconds_field(*t, &path.key("timeout"), report)
        }
        Action::Launch { program, .. } if program.trim().is_empty() => {
            report.error(
                &path.key("program"),
                "`launch` needs a program",
                Some("e.g. \"xterm\" or \"/usr/bin/gedit\"".into()),
            );
        }
        Action::KeyCombo { keys } => {
            if !keys.contains("{{")
                && let Err(e) = parse_key_combo(keys)
            {
                report.error(&path.key("keys"), e, None);
            }
        }
        Action::MouseClick { count, .. } if !(1..=3).contains(count) => {
            report.error(
                &path.key("count"),
                format!("click count {count} is out of range"),
                Some("use 1, 2 (double click) or 3".into()),
            );
        }
        Action::SwitchTab { tab, .. } => {
            for (key, value) in [("url", &tab.url), ("title", &tab.title)] {
                let (Some(value), path) = (value, path.key("tab").key(key)) else { continue };
                match tab.mode {
                    TitleMatch::Pattern => pattern(value, &path, workflow, report),
                    _ if value.is_empty() => report.error(
                        &path,
                        format!("an empty `{key}` matches every tab"),
                        Some("leave it out to go back to the previous tab".into()),
                    ),
                    _ => {}
                }
            }
        }
        Action::SaveHtml { filename } | Action::Screenshot { filename }
            if !crate::params::is_plain_file_name(filename) =>
        {
            report.error(
                &path.key("filename"),
                format!("`{filename}` is not a plain file name"),
                Some("files are written into the run's folder; use a name like page.html".into()),
            );
        }
        _ => {}
    }
}

fn seconds_field(value: f64, path: &JsonPath, report: &mut Reporter) {
    if !(0.0..=86_400.0).contains(&value) {
        report.error(
            path,
            format!("{value} is not a sensible number of seconds"),
            Some("use a number from 0 to 86400".into()),
        );
    }
}

fn fraction(v: f64) -> bool {
    (0.0..=1.0).contains(&v)
}

fn has_scheme(url: &str) -> bool {
    url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// Every template must parse and reference a declared parameter or a variable that an
/// `extract` sets.
fn templates(workflow: &Workflow, report: &mut Reporter) {
    let variables = workflow.variables();
    let mut copy = workflow.clone();
    for (path, s) in copy.template_strings_mut() {
        match parse_template(s) {
            Err(e) => report.error_in_string(
                &path,
                e.offset,
                e.message,
                Some("write parameter references as {{name}}".into()),
            ),
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
                            &path,
                            offset,
                            format!("reference to undefined parameter or variable `{name}`"),
                            Some(help),
                        );
                    }
                }
            }
        }
    }
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
