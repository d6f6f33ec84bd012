//! Seed 003's skill folders as Statewright skills, and back. A folder holds `SKILL.md` (YAML
//! front matter: name, description, `url_start`, `url_end`, `variables`) and `actions.json`
//! (a list of `{action_step, action, element_label, args}`, elements found by aria-label).
//! Such a skill is linear: it becomes one terminal state that holds the actions, recognised
//! where the skill may start, with `url_start` as its precondition and `url_end` as its
//! postcondition; its variables become parameters, referenced as `{{name}}` where the
//! actions used their values.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use statewright_workflow::params::names_a_secret;
use statewright_workflow::{
    Action, Check, FORMAT_VERSION, Outcome, Parameter, SelectorKind, Skill, State, Target, Terminal, UrlMatch,
    Workflow, is_skill_name, load_str, portable_stem, read_input_text,
};

use crate::frontmatter::{self, Yaml};
use crate::trajectory::Page;

/// How deep under the given folder `SKILL.md` files are looked for (seed 003 nests
/// `skills_store/<website>/<skill>/`).
const MAX_DEPTH: usize = 4;

#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct SkillError {
    pub path: PathBuf,
    pub message: String,
}

fn error(path: &Path, message: impl Into<String>) -> SkillError {
    SkillError { path: path.to_owned(), message: message.into() }
}

/// One skill read from a seed 003 folder.
#[derive(Debug, Clone)]
pub struct Imported {
    pub folder: PathBuf,
    pub skill: Workflow,
}

/// Every skill folder under `dir` (or `dir` itself), in path order.
pub fn import(dir: &Path) -> Result<Vec<Imported>, SkillError> {
    let mut folders = Vec::new();
    find_skill_folders(dir, 0, &mut folders);
    if folders.is_empty() {
        return Err(error(dir, "no seed 003 skill here: no folder with a SKILL.md"));
    }
    folders.sort();
    folders.into_iter().map(|folder| Ok(Imported { skill: import_one(&folder)?, folder })).collect()
}

fn find_skill_folders(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if dir.join("SKILL.md").is_file() {
        out.push(dir.to_owned());
        return;
    }
    if depth >= MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        // Symbolic links are not followed: a link loop must not walk for ever.
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            find_skill_folders(&entry.path(), depth + 1, out);
        }
    }
}

/// One variable of `SKILL.md`: its parameter, and where the actions used its value.
struct Variable {
    name: String,
    parameter: Parameter,
    /// `action_step` and argument position, when the front matter gives them.
    used_at: Option<(i64, usize)>,
}

fn import_one(folder: &Path) -> Result<Workflow, SkillError> {
    let md = folder.join("SKILL.md");
    let text = read_input_text(&md, "skill file").map_err(|e| error(&md, e.message))?;
    let (front, body) =
        frontmatter::split(&text).ok_or_else(|| error(&md, "no front matter (a block between `---` lines)"))?;
    let yaml = frontmatter::parse(front).map_err(|e| error(&md, e))?;
    let written =
        yaml.str("name").filter(|n| !n.is_empty()).ok_or_else(|| error(&md, "the front matter has no `name`"))?;
    // The name is the skill's file's stem (`skills/NAME.json`): a device name on Windows
    // (`CON`) is given a `_`, so the folder can be shared with Windows.
    let name = portable_stem(&slug(written));
    if !is_skill_name(&name) {
        return Err(error(&md, format!("`{written}` cannot be made a skill name")));
    }
    let description =
        yaml.str("description").map(str::to_owned).unwrap_or_else(|| first_paragraph(body)).trim().to_owned();
    let variables = variables(&yaml, &md)?;

    let path = folder.join("actions.json");
    let text = read_input_text(&path, "skill file").map_err(|e| error(&path, e.message))?;
    let entries: Vec<Value> = serde_json::from_str(&text).map_err(|e| {
        error(
            &path,
            format!("line {}, column {}: {}", e.line(), e.column(), statewright_workflow::json_problem(&text, &e)),
        )
    })?;
    let mut actions = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        actions.push(action(entry, &variables).map_err(|m| error(&path, format!("entry {i}: {m}")))?);
    }
    if actions.is_empty() {
        return Err(error(&path, "no actions"));
    }

    let url = |key: &str| {
        yaml.str(key).filter(|u| !u.is_empty()).map(|u| Check::Url {
            mode: UrlMatch::Prefix,
            value: u.to_owned(),
            negate: false,
        })
    };
    let pre: Vec<Check> = url("url_start").into_iter().collect();
    let post: Vec<Check> = url("url_end").into_iter().collect();
    let checks = if pre.is_empty() { where_it_starts(&actions) } else { pre.clone() };
    let id = yaml.str("id").map(|id| format!(" {id}")).unwrap_or_default();
    let skill = Workflow {
        version: FORMAT_VERSION,
        name: name.clone(),
        description,
        parameters: variables.into_iter().map(|v| (v.name, v.parameter)).collect(),
        config: Default::default(),
        skill: Some(Skill { pre, post, source: format!("seed 003 skill{id}, imported from {}", folder.display()) }),
        states: vec![State {
            description: "The skill's actions, in order.".into(),
            actions,
            terminal: Some(Terminal { outcome: Outcome::Success, message: String::new() }),
            ..State::new("Steps", checks)
        }],
    };
    // What the folder said must make a valid skill, reported as any workflow's problems are.
    let native = serde_json::to_string_pretty(&skill).unwrap_or_default();
    load_str(&native, &format!("{} (as imported)", folder.display()), &name)
        .map(|loaded| loaded.workflow)
        .map_err(|d| error(folder, format!("the imported skill is not valid:\n{d}")))
}

fn variables(yaml: &Yaml, md: &Path) -> Result<Vec<Variable>, SkillError> {
    let Some(Yaml::Map(map)) = yaml.get("variables") else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for (name, spec) in map {
        let identifier = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !identifier {
            return Err(error(md, format!("variable `{name}` is not a usable parameter name")));
        }
        let default = spec.str("default_value").map(str::to_owned);
        let description = spec.str("description").unwrap_or_default().to_owned();
        let number = |key: &str| spec.str(key).and_then(|s| s.parse::<i64>().ok());
        let used_at = number("action_index").map(|step| (step, number("arg_position").unwrap_or(1).max(0) as usize));
        let parameter = Parameter { description, default, secret: names_a_secret(name) };
        out.push(Variable { name: name.clone(), parameter, used_at });
    }
    Ok(out)
}

/// An `actions.json` entry as a typed action, its variable's value replaced by `{{name}}`.
fn action(entry: &Value, variables: &[Variable]) -> Result<Action, String> {
    let kind = entry.get("action").and_then(Value::as_str).ok_or("no `action`")?;
    let step = entry.get("action_step").and_then(Value::as_i64);
    let mut label = entry.get("element_label").and_then(Value::as_str).filter(|l| !l.is_empty()).map(str::to_owned);
    let mut args: Vec<Value> = entry.get("args").and_then(Value::as_array).cloned().unwrap_or_default();
    for variable in variables {
        let reference = Value::String(format!("{{{{{}}}}}", variable.name));
        match variable.used_at {
            Some((at, position)) if Some(at) == step && position < args.len() => args[position] = reference,
            Some(_) => {}
            // Without a position, the variable is where its default value was typed.
            None => {
                let default = variable.parameter.default.as_deref().filter(|d| !d.is_empty());
                if let Some(arg) = args.iter_mut().skip(1).find(|a| default.is_some() && a.as_str() == default) {
                    *arg = reference;
                }
            }
        }
    }
    // An element named after the value (the suggestion that was typed, say) is named after
    // the variable too, or the skill would only ever pick that one.
    for variable in variables {
        if label.is_some() && label.as_deref() == variable.parameter.default.as_deref() {
            label = Some(format!("{{{{{}}}}}", variable.name));
        }
    }
    let role = entry.get("element_role").and_then(Value::as_str).filter(|r| !r.is_empty());
    // With only an XPath, the action still needs some label to be built from.
    let stand_in = label.clone().or_else(|| entry.get("xpath").map(|_| "xpath".to_owned()));
    let action = crate::read::seed_action(kind, &args, stand_in.as_deref(), &Page::default());
    // Seed 003 finds an element by its label and, when it has it, its role; an XPath, when
    // given, says exactly which.
    let xpath = entry.get("xpath").and_then(Value::as_str).filter(|x| !x.is_empty());
    let action = action.map(|mut action| {
        let found = match (xpath, role, label.clone()) {
            (Some(xpath), _, _) => Some(Target { xpath: Some(xpath.to_owned()), ..Default::default() }),
            (None, Some(role), Some(name)) => {
                Some(Target { role: Some(role.to_owned()), name: Some(name), ..Default::default() })
            }
            _ => None,
        };
        if let (Some(found), Some(target)) = (found, action.target_mut()) {
            *target = found;
        }
        action
    });
    action.ok_or_else(|| {
        format!(
            "`{kind}` with these arguments has no Statewright counterpart (known: click, type, enter, press_key, \
             select, navigate, hover, scroll; element actions need an element_label)"
        )
    })
}

/// Where a skill without `url_start` may start: where its first element is, else anywhere.
fn where_it_starts(actions: &[Action]) -> Vec<Check> {
    match actions.first().and_then(Action::target).and_then(|t| t.css.clone()) {
        Some(selector) => vec![Check::Element { by: SelectorKind::Css, selector, negate: false }],
        None => vec![Check::Url { mode: UrlMatch::Pattern, value: "^".into(), negate: false }],
    }
}

/// `Enter Departure Location!` → `enter-departure-location`.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').chars().take(100).collect()
}

fn first_paragraph(body: &str) -> String {
    body.split("\n\n").map(|p| p.trim()).find(|p| !p.is_empty() && !p.starts_with('#')).unwrap_or_default().to_owned()
}

/// Writes `skill` as seed 003's folder `to/<id>-<name>/`; returns the folder. Only a skill
/// whose actions are in one state can be written: seed 003's skills are lists of actions.
pub fn export(skill: &Workflow, id: usize, to: &Path) -> Result<PathBuf, SkillError> {
    let here = Path::new(&skill.name);
    let acting: Vec<&State> = skill.states.iter().filter(|s| !s.interrupt && !s.actions.is_empty()).collect();
    let [state] = acting.as_slice() else {
        return Err(error(
            here,
            format!("its actions are spread over {} states; seed 003's format holds one list of actions", acting.len()),
        ));
    };
    let mut entries = Vec::new();
    for (i, action) in state.actions.iter().enumerate() {
        let mut entry = entry(action).map_err(|m| error(here, format!("action {i} ({}): {m}", action.kind())))?;
        entry["action_step"] = json!(i);
        entries.push(entry);
    }
    let mut front = vec![
        format!("name: {}", quoted(&skill.name)),
        format!("id: {id}"),
        format!("description: {}", quoted(&skill.description)),
    ];
    let spec = skill.skill.clone().unwrap_or_default();
    for (key, checks) in [("url_start", &spec.pre), ("url_end", &spec.post)] {
        if let Some(Check::Url { value, .. }) = checks.iter().find(|c| matches!(c, Check::Url { negate: false, .. })) {
            front.push(format!("{key}: {}", quoted(value)));
        }
    }
    if !skill.parameters.is_empty() {
        front.push("variables:".into());
        for (name, param) in &skill.parameters {
            front.push(format!("  {name}:"));
            front.push("    type: string".into());
            if let Some(default) = param.default.as_ref().filter(|_| !param.secret) {
                front.push(format!("    default_value: {}", quoted(default)));
            }
            front.push(format!("    description: {}", quoted(&param.description)));
            let reference = Value::String(format!("{{{{{name}}}}}"));
            let used = entries
                .iter()
                .enumerate()
                .find_map(|(i, e)| e["args"].as_array()?.iter().position(|a| *a == reference).map(|p| (i, p)));
            if let Some((step, position)) = used {
                front.push(format!("    action_index: {step}"));
                front.push(format!("    arg_position: {position}"));
            }
        }
    }
    let variables: String =
        skill.parameters.iter().map(|(n, p)| format!("- **{n}**: {}\n", p.description)).collect::<Vec<_>>().concat();
    let title = skill.name.split('-').map(capitalised).collect::<Vec<_>>().join(" ");
    let md = format!(
        "---\n{}\n---\n\n# {title}\n\n{}\n{}",
        front.join("\n"),
        skill.description,
        if variables.is_empty() { String::new() } else { format!("\n## Variables\n\n{variables}") }
    );
    let folder = to.join(format!("{id:03}-{}", skill.name));
    // Through the one writer of workflow files: a pipe left in the folder is refused, not
    // waited on for ever, and a crash leaves no half file.
    let write = |path: PathBuf, text: String| {
        statewright_workflow::write_workflow_text(&path, &text).map_err(|e| error(&folder, e.to_string()))
    };
    std::fs::create_dir_all(&folder).map_err(|e| error(&folder, e.to_string()))?;
    write(folder.join("SKILL.md"), md)?;
    write(folder.join("actions.json"), serde_json::to_string_pretty(&entries).unwrap_or_default() + "\n")?;
    Ok(folder)
}

/// One action as seed 003 writes it. Element references (`e149`) belong to the snapshot
/// they were recorded on, so none is written: the replayer finds elements by their label.
fn entry(action: &Action) -> Result<Value, String> {
    let element = |kind: &str, args: Vec<Value>| -> Result<Value, String> {
        let mut entry = locator(action.target().ok_or("it has no element")?)?;
        entry["action"] = json!(kind);
        entry["args"] = json!(args);
        Ok(entry)
    };
    match action {
        Action::Click { .. } => element("click", vec![json!("")]),
        Action::Type { text, .. } => element("type", vec![json!(""), json!(text)]),
        // Several options as a list in the argument's place; a variable is placed at an
        // argument (`arg_position`), never inside one.
        Action::SelectOption { value, label, .. } => match value.as_ref().or(label.as_ref()) {
            Some(chosen) if chosen.is_list() && chosen.as_slice().iter().any(|o| o.contains("{{")) => {
                Err("seed 003 places a variable at an argument, not inside a list of options".into())
            }
            chosen => element("select", vec![json!(""), json!(chosen)]),
        },
        Action::Hover { .. } => element("hover", vec![json!("")]),
        Action::Check { checked: true, .. } => element("check", vec![json!("")]),
        Action::Check { checked: false, .. } => element("uncheck", vec![json!("")]),
        Action::PressKey { key } if key == "Enter" => Ok(json!({"action": "enter", "args": []})),
        Action::PressKey { key } => Ok(json!({"action": "press_key", "args": [key]})),
        Action::NavigateTo { url } => Ok(json!({"action": "navigate", "args": [url]})),
        Action::GoBack {} => Ok(json!({"action": "go_back", "args": []})),
        Action::Scroll { .. } => Ok(json!({"action": "scroll", "args": []})),
        _ => Err("seed 003's format has no such action".into()),
    }
}

/// How seed 003 names an element: its label (aria-label or accessible name), with its
/// role when known, or an XPath.
fn locator(target: &Target) -> Result<Value, String> {
    if let (Some(role), Some(name)) = (&target.role, &target.name) {
        return Ok(json!({"element_label": name, "element_role": role}));
    }
    if let Some(text) = &target.text {
        return Ok(json!({"element_label": text}));
    }
    if let Some(xpath) = &target.xpath {
        return Ok(json!({"element_label": "", "xpath": xpath}));
    }
    let css = target.css.as_deref().unwrap_or_default();
    match css.strip_prefix("[aria-label=\"").and_then(|s| s.strip_suffix("\"]")) {
        Some(label) if !label.contains("\"]") => Ok(json!({"element_label": label.replace("\\\"", "\"")})),
        _ => Err("seed 003 finds elements by aria-label, role and name, or XPath; this target has none of them".into()),
    }
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The skills a folder of skills holds, each written as `NAME.json`, in name order.
pub fn skill_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}
