//! An action's rules: its target names one element, its fields are in range, its files stay
//! in the run's folder, and what it names (a skill, a variable) is well formed.

use indexmap::IndexMap;

use super::{is_identifier, is_skill_name, pattern, sample, selector, window_selector};
use crate::diagnostic::Reporter;
use crate::keys::parse_key_combo;
use crate::model::{Action, ExtractRead, Position, SelectorKind, Target, TitleMatch, Workflow};
use crate::span::JsonPath;

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
            Some("skills are files skills/NAME.json: letters, digits, `-` and `_`, not a Windows device name (CON, NUL, COM1…)".into()),
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
                "a `pattern` narrows one text: it needs `read` text, lines, attribute or value",
                None,
            );
        }
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
    if target.exact.is_some() && target.text.is_none() && target.name.is_none() {
        report.error(
            &path.key("exact"),
            "`exact` says how `text` or a role's `name` is matched, and the target has neither",
            None,
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

pub(super) fn check_action(action: &Action, path: &JsonPath, workflow: &Workflow, report: &mut Reporter) {
    if let Some(t) = action.target() {
        target(t, &path.key("target"), workflow, report);
    }
    if let Some(w) = action.window() {
        window_selector(w, &path.key("window"), workflow, report);
    }
    match action {
        Action::NavigateTo { url } => match sample(url, workflow) {
            Some(s) if is_script_address(&s) => report.error(
                &path.key("url"),
                format!("`{s}` is a script, not an address: navigate_to runs no scripts"),
                Some("click the link or button that has it, or navigate_to the page it leads to".into()),
            ),
            Some(s) if !has_scheme(&s) => report.error(
                &path.key("url"),
                format!("`{s}` is not an absolute URL"),
                Some("start it with http://, https://, file:// or about:".into()),
            ),
            _ => {}
        },
        Action::Drag { to, position, .. } => {
            target(to, &path.key("to"), workflow, report);
            position_field(*position, &path.key("position"), report);
        }
        Action::Click { count, position, .. } => {
            if !(1..=3).contains(count) {
                report.error(
                    &path.key("count"),
                    format!("click count {count} is out of range"),
                    Some("use 1, 2 (double click) or 3".into()),
                );
            }
            position_field(*position, &path.key("position"), report);
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
        Action::Upload { files, .. } if files.is_empty() || files.iter().any(|f| f.trim().is_empty()) => {
            let files = path.key("files");
            report.error(
                &files,
                "upload needs at least one file, and no empty one",
                Some("e.g. \"files\": [\"{{invoice}}\"]".into()),
            );
        }
        Action::SelectOption { value, label, .. } if value.is_some() == label.is_some() => {
            report.error(path, "select_option needs exactly one of `value` or `label`", None);
        }
        Action::SelectOption { value, label, .. } => {
            let given = value.as_ref().map(|v| ("value", v)).or(label.as_ref().map(|l| ("label", l)));
            if let Some((key, choices)) = given
                && choices.as_slice().is_empty()
            {
                report.error(
                    &path.key(key),
                    format!("an empty `{key}` list chooses no option"),
                    Some(format!("name one option (\"{key}\": \"Leia\") or several (\"{key}\": [\"Leia\", \"Yoda\"])")),
                );
            }
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
        Action::Download { timeout: Some(t), .. } => seconds_field(*t, &path.key("timeout"), report),
        _ => {}
    }
    let Some(filename) = action.filename() else { return };
    if let Some(what) = crate::params::run_folder_file(filename) {
        report.error(
            &path.key("filename"),
            format!("`{filename}` is a name the run folder keeps for {what}"),
            Some("the run's own records would overwrite this file, or it theirs; choose another name".into()),
        );
    } else if !crate::params::is_plain_file_name(filename) {
        report.error(
            &path.key("filename"),
            format!("`{filename}` is not a plain file name"),
            Some("files are written into the run's folder; use a name like page.html".into()),
        );
    }
}

fn seconds_field(value: f64, path: &JsonPath, report: &mut Reporter) {
    if !(0.0..=super::MAX_SECONDS).contains(&value) {
        report.error(
            path,
            format!("{} is not a sensible number of seconds", super::seconds(value)),
            Some("use a number from 0 to 86400".into()),
        );
    }
}

/// Where inside an element: fractions of its width and height.
fn position_field(position: Option<Position>, path: &JsonPath, report: &mut Reporter) {
    if position.is_some_and(|p| !(fraction(p.x) && fraction(p.y))) {
        report.error(path, "position is a fraction of the element's size: x and y from 0 to 1", None);
    }
}

fn fraction(v: f64) -> bool {
    (0.0..=1.0).contains(&v)
}

/// A `javascript:` address: text to run in the page, which no action does (workflows are
/// data), however a browser would take it. Read as browsers read a URL (WHATWG): past
/// leading spaces and control characters, tabs and line breaks anywhere dropped
/// (`java\tscript:`), the scheme in any case.
pub fn is_script_address(url: &str) -> bool {
    let read = url.trim_start_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r'));
    let scheme: String = read.take(11).collect();
    scheme.eq_ignore_ascii_case("javascript:")
}

fn has_scheme(url: &str) -> bool {
    url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}
