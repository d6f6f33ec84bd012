//! Reading CliGent (seed 000) files as they are: a bare array of states, or an object with
//! `states`, `config` and `parameters`. Actions are Python call strings; they are parsed by
//! `call::parse_call` and bound to the typed action whitelist, never evaluated.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::call::{Arg, Call, Literal, parse_call};
use crate::diagnostic::Reporter;
use crate::load::deserialize;
use crate::model::{
    Action, Check, Choices, Config, Direction, ExtractRead, FORMAT_VERSION, MouseButton, Outcome, Parameter, Position,
    SelectorKind, State, Target, Terminal, TextMatch, TitleMatch, UrlMatch, Workflow,
};
use crate::span::JsonPath;
use crate::validate::closest;

pub(crate) fn convert(value: &Value, fallback_name: &str, report: &mut Reporter) -> Option<Workflow> {
    let root = JsonPath::root();
    let (states, config, parameters, name, description) = match value {
        Value::Array(states) => {
            (states.as_slice(), Config::default(), IndexMap::new(), fallback_name.to_owned(), String::new())
        }
        Value::Object(map) => {
            allow_keys(map, &root, &["states", "config", "parameters", "name", "description"], report);
            let Some(states) = map.get("states").and_then(Value::as_array) else {
                report.error(
                    &root,
                    "expected a `states` array (or a bare array of states)",
                    Some("a native Statewright file needs \"version\": 1".into()),
                );
                return None;
            };
            let config = match map.get("config") {
                Some(c) => deserialize::<Config>(c, &root.key("config"), report).unwrap_or_default(),
                None => Config::default(),
            };
            let parameters =
                map.get("parameters").map(|p| params(p, &root.key("parameters"), report)).unwrap_or_default();
            let name = map.get("name").and_then(Value::as_str).unwrap_or(fallback_name).to_owned();
            let description = map.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
            (states.as_slice(), config, parameters, name, description)
        }
        _ => {
            report.error(&root, "a workflow is a JSON object (or, in CliGent's form, an array of states)", None);
            return None;
        }
    };
    let states_path = if value.is_array() { root.clone() } else { root.key("states") };
    let states = states.iter().enumerate().filter_map(|(i, s)| state(s, i, &states_path.index(i), report)).collect();
    Some(Workflow { version: FORMAT_VERSION, name, description, parameters, config, skill: None, states })
}

fn allow_keys(map: &Map<String, Value>, path: &JsonPath, allowed: &[&str], report: &mut Reporter) {
    for key in map.keys() {
        if !allowed.contains(&key.as_str()) {
            let help = match closest(key, allowed.iter().copied()) {
                Some(s) => format!("did you mean `{s}`? allowed here: {}", allowed.join(", ")),
                None => format!("allowed here: {}", allowed.join(", ")),
            };
            report.error_at_key(&path.key(key), format!("unknown field `{key}`"), Some(help));
        }
    }
}

fn params(value: &Value, path: &JsonPath, report: &mut Reporter) -> IndexMap<String, Parameter> {
    let Some(map) = value.as_object() else {
        report.error(
            path,
            "`parameters` maps names to values",
            Some("e.g. {\"site\": \"https://example.com\"}".into()),
        );
        return IndexMap::new();
    };
    let mut out = IndexMap::new();
    for (name, v) in map {
        let default = match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Null => None,
            _ => {
                report.error(
                    &path.key(name),
                    format!("parameter `{name}` must be a string, number, boolean or null"),
                    None,
                );
                continue;
            }
        };
        let secret = crate::params::names_a_secret(name);
        out.insert(name.clone(), Parameter { description: String::new(), default, secret });
    }
    out
}

fn state(value: &Value, index: usize, path: &JsonPath, report: &mut Reporter) -> Option<State> {
    let Some(map) = value.as_object() else {
        report.error(path, "a state is an object with `name`, `checks` and `actions`", None);
        return None;
    };
    allow_keys(map, path, &["name", "description", "checks", "actions", "end_state", "continuous", "next"], report);
    let name = match map.get("name") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => {
            report.error(&path.key("name"), "a state's `name` must be a string", None);
            String::new()
        }
        None => {
            report.error(path, "missing field `name`", Some("every state needs a unique name".into()));
            format!("state {index}")
        }
    };
    let description = map.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
    let checks = list(map, "checks", path, report)
        .iter()
        .enumerate()
        .filter_map(|(i, c)| check(c, &path.key("checks").index(i), report))
        .collect();
    let actions = list(map, "actions", path, report)
        .iter()
        .enumerate()
        .filter_map(|(i, a)| action(a, index, i, &path.key("actions").index(i), report))
        .collect();
    let terminal = match map.get("end_state") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => None,
        Some(Value::String(reason)) => Some(Terminal { outcome: Outcome::Success, message: reason.clone() }),
        Some(Value::Bool(true)) => Some(Terminal { outcome: Outcome::Success, message: String::new() }),
        Some(_) => {
            report.error(&path.key("end_state"), "`end_state` is the reason text of a terminal state", None);
            None
        }
    };
    let continuous = map.get("continuous").and_then(Value::as_bool).unwrap_or(false);
    // Regenerative mode: a state described in words only is synthesised on a run.
    let prompt = (!checks_given(map) && !description.trim().is_empty()).then(|| description.clone());
    let next = map
        .get("next")
        .map(|n| deserialize::<Vec<String>>(n, &path.key("next"), report).unwrap_or_default())
        .unwrap_or_default();
    Some(State {
        name,
        description,
        prompt,
        checks,
        actions,
        continuous,
        interrupt: false,
        next,
        expect: Vec::new(),
        terminal,
    })
}

fn list<'v>(map: &'v Map<String, Value>, key: &str, path: &JsonPath, report: &mut Reporter) -> &'v [Value] {
    match map.get(key) {
        None => &[],
        Some(Value::Array(items)) => items,
        Some(_) => {
            report.error(&path.key(key), format!("`{key}` must be a list"), None);
            &[]
        }
    }
}

fn check(value: &Value, path: &JsonPath, report: &mut Reporter) -> Option<Check> {
    let Some(map) = value.as_object() else {
        report.error(path, "a check is an object like {\"type\": \"url\", \"value\": \"…\"}", None);
        return None;
    };
    allow_keys(map, path, &["type", "value"], report);
    let kind = map.get("type").and_then(Value::as_str);
    let Some(text) = map.get("value").and_then(Value::as_str).map(str::to_owned) else {
        report.error(path, "a check needs a string `value`", None);
        return None;
    };
    Some(match kind {
        Some("url") => Check::Url { mode: UrlMatch::Exact, value: text, negate: false },
        Some("text") => Check::Text { mode: TextMatch::Equals, value: text, negate: false },
        Some("title") => Check::Title { mode: TitleMatch::Exact, value: text, negate: false },
        Some("element") => {
            let by = if looks_like_xpath(&text) { SelectorKind::Xpath } else { SelectorKind::Css };
            Check::Element { by, selector: text, negate: false }
        }
        other => {
            let found = other.map_or("nothing".to_owned(), |k| format!("`{k}`"));
            report.error(
                &path.key("type"),
                format!("unknown check type {found}"),
                Some("CliGent checks are url, text or element".into()),
            );
            return None;
        }
    })
}

fn looks_like_xpath(s: &str) -> bool {
    let s = s.trim_start();
    s.starts_with('/') || s.starts_with("(/") || s.starts_with("./")
}

fn action(value: &Value, state_index: usize, index: usize, path: &JsonPath, report: &mut Reporter) -> Option<Action> {
    let Some(src) = value.as_str() else {
        // Typed objects are welcome too: they are already the native form.
        return deserialize::<Action>(value, path, report);
    };
    let call = match parse_call(src) {
        Ok(call) => call,
        Err(e) => {
            report.error_in_string(
                path,
                e.offset,
                format!("cannot parse action: {}", e.message),
                Some("actions are calls like click(by='css selector', selector='#go')".into()),
            );
            return None;
        }
    };
    let mut b = Binder { call: &call, path, report, failed: false };
    let action = bind(&mut b, state_index, index);
    if b.failed { None } else { action }
}

const ACTIONS: &[&str] = &[
    "navigate_to",
    "click",
    "type",
    "press_key",
    "scroll",
    "scroll_to",
    "wait",
    "save_html",
    "hover",
    "select_option",
    "wait_for",
    "screenshot",
    "extract",
];

fn bind(b: &mut Binder, state_index: usize, index: usize) -> Option<Action> {
    let default_file = |ext: &str| format!("state{state_index}-action{index}.{ext}");
    Some(match b.call.name.as_str() {
        "navigate_to" => {
            let [url] = b.args(&["url"], &[])?;
            Action::NavigateTo { url: b.string(url?, "url")? }
        }
        "click" => {
            let [by, sel, button, pct, _scroll_to, count, x, y, coords] = b.args(
                &["by", "selector", "button", "percentage", "scroll_to", "count", "x", "y", "coordinates"],
                &["selector"],
            )?;
            let button = match b.opt(button, |b, a| b.string(a, "button"))?.as_deref() {
                None | Some("left") => MouseButton::Left,
                Some("right") => MouseButton::Right,
                Some("middle") => MouseButton::Middle,
                Some(other) => {
                    return b.fail(button?, format!("unknown button '{other}'; use 'left', 'right' or 'middle'"));
                }
            };
            let position = match pct {
                None => None,
                Some(arg) => match &arg.value {
                    Literal::None => None,
                    Literal::Int(_) | Literal::Float(_) => Some(Position { x: b.number(arg, "percentage")?, y: 0.5 }),
                    Literal::Tuple(v) | Literal::List(v) if v.len() == 2 => {
                        Some(Position { x: number_of(&v[0]).unwrap_or(0.5), y: number_of(&v[1]).unwrap_or(0.5) })
                    }
                    _ => {
                        return b.fail(arg, "percentage is a fraction like 0.5, or a pair (x, y)".into());
                    }
                },
            };
            b.ignore_coordinates(x.or(y).or(coords), "click");
            let count = b.opt(count, |b, a| b.number(a, "count"))?.map_or(1, |n| n as u32);
            Action::Click { target: b.target(by, sel?)?, button, count, position }
        }
        "type" => {
            let [by, sel, text, clear, x, y, coords] =
                b.args(&["by", "selector", "text", "clear", "x", "y", "coordinates"], &["selector", "text"])?;
            b.ignore_coordinates(x.or(y).or(coords), "typing");
            // SeleniumBase's type() replaces the field's content; so does ours by default.
            let clear = b.opt(clear, |b, a| b.boolean(a, "clear"))?.unwrap_or(true);
            Action::Type { target: b.target(by, sel?)?, text: b.string(text?, "text")?, clear }
        }
        "press_key" => {
            let [key] = b.args(&["key"], &["key"])?;
            Action::PressKey { key: b.string(key?, "key")? }
        }
        "scroll" => {
            let [direction, amount, by, sel] = b.args(&["direction", "scroll_amount", "by", "selector"], &[])?;
            let direction = match b.opt(direction, |b, a| b.string(a, "direction"))?.as_deref() {
                None | Some("down") => Direction::Down,
                Some("up") => Direction::Up,
                Some("left") => Direction::Left,
                Some("right") => Direction::Right,
                Some(other) => {
                    return b.fail(direction?, format!("unknown direction '{other}'; use up, down, left or right"));
                }
            };
            let amount = b.opt(amount, |b, a| b.number(a, "scroll_amount"))?.map_or(500, |n| n.max(0.0) as u32);
            let target = match sel {
                Some(sel) => Some(b.target(by, sel)?),
                None => None,
            };
            Action::Scroll { direction, amount, target }
        }
        "scroll_to" => {
            let [by, sel] = b.args(&["by", "selector"], &["selector"])?;
            Action::ScrollTo { target: b.target(by, sel?)? }
        }
        "hover" => {
            let [by, sel] = b.args(&["by", "selector"], &["selector"])?;
            Action::Hover { target: b.target(by, sel?)? }
        }
        "select_option" => {
            let [by, sel, value, label] = b.args(&["by", "selector", "value", "label"], &["selector"])?;
            let value = b.opt(value, |b, a| b.choices(a, "value"))?;
            let label = b.opt(label, |b, a| b.choices(a, "label"))?;
            Action::SelectOption { target: b.target(by, sel?)?, value, label }
        }
        "wait" => {
            let [seconds] = b.args(&["seconds"], &["seconds"])?;
            Action::Wait { seconds: b.number(seconds?, "seconds")? }
        }
        "wait_for" => {
            let [by, sel, timeout] = b.args(&["by", "selector", "timeout"], &["selector"])?;
            let timeout = b.opt(timeout, |b, a| b.number(a, "timeout"))?;
            Action::WaitFor { target: b.target(by, sel?)?, timeout }
        }
        "extract" => {
            let [by, sel, into, read, attribute, pattern] =
                b.args(&["by", "selector", "into", "read", "attribute", "pattern"], &["selector", "into"])?;
            let read = match b.opt(read, |b, a| b.string(a, "read"))?.as_deref() {
                None | Some("text") => ExtractRead::Text,
                Some("lines") => ExtractRead::Lines,
                Some("attribute") => ExtractRead::Attribute,
                Some("value") => ExtractRead::Value,
                Some("count") => ExtractRead::Count,
                Some("list") => ExtractRead::List,
                Some("table") => ExtractRead::Table,
                Some(other) => {
                    return b.fail(
                        read?,
                        format!("unknown read '{other}'; use text, lines, attribute, value, count, list or table"),
                    );
                }
            };
            Action::Extract {
                target: b.target(by, sel?)?,
                into: b.string(into?, "into")?,
                read,
                attribute: b.opt(attribute, |b, a| b.string(a, "attribute"))?,
                pattern: b.opt(pattern, |b, a| b.string(a, "pattern"))?,
            }
        }
        "save_html" => {
            let [file] = b.args(&["filename"], &[])?;
            let filename = b.opt(file, |b, a| b.optional_string(a, "filename"))?.flatten();
            Action::SaveHtml { filename: filename.unwrap_or_else(|| default_file("html")) }
        }
        "screenshot" => {
            let [file] = b.args(&["filename"], &[])?;
            let filename = b.opt(file, |b, a| b.optional_string(a, "filename"))?.flatten();
            Action::Screenshot { filename: filename.unwrap_or_else(|| default_file("png")) }
        }
        other => {
            let help = match closest(other, ACTIONS.iter().copied()) {
                Some(s) => format!("did you mean `{s}`? actions: {}", ACTIONS.join(", ")),
                None => format!("actions: {}", ACTIONS.join(", ")),
            };
            b.report.error_in_string(b.path, b.call.name_span.start, format!("unknown action `{other}`"), Some(help));
            b.failed = true;
            return None;
        }
    })
}

fn number_of(l: &Literal) -> Option<f64> {
    match l {
        Literal::Int(n) => Some(*n as f64),
        Literal::Float(f) => Some(*f),
        _ => None,
    }
}

/// Binds a call's positional and keyword arguments to parameter names, reporting each
/// problem at its argument.
struct Binder<'c, 'r, 'a> {
    call: &'c Call,
    path: &'c JsonPath,
    report: &'r mut Reporter<'a>,
    failed: bool,
}

impl<'c> Binder<'c, '_, '_> {
    /// The argument bound to each of `names` (in signature order); `required` ones missing
    /// are reported. Returns `None` when any argument is unknown or duplicated.
    fn args<const N: usize>(&mut self, names: &[&str; N], required: &[&str]) -> Option<[Option<&'c Arg>; N]> {
        let mut bound: [Option<&'c Arg>; N] = [None; N];
        let call = self.call;
        for (position, arg) in call.args.iter().enumerate() {
            let slot = match &arg.keyword {
                Some(kw) => match names.iter().position(|n| n == kw) {
                    Some(slot) => slot,
                    None => {
                        let help = match closest(kw, names.iter().copied()) {
                            Some(s) => format!("did you mean `{s}`? {}() takes {}", call.name, names.join(", ")),
                            None => format!("{}() takes {}", call.name, names.join(", ")),
                        };
                        self.report.error_in_string(
                            self.path,
                            arg.span.start,
                            format!("unknown argument `{kw}` for {}()", call.name),
                            Some(help),
                        );
                        self.failed = true;
                        continue;
                    }
                },
                None if position < N => position,
                None => {
                    self.report.error_in_string(
                        self.path,
                        arg.span.start,
                        format!("{}() takes at most {N} positional arguments", call.name),
                        Some(format!("its arguments are {}", names.join(", "))),
                    );
                    self.failed = true;
                    continue;
                }
            };
            if bound[slot].is_some() {
                self.report.error_in_string(
                    self.path,
                    arg.span.start,
                    format!("argument `{}` given twice", names[slot]),
                    None,
                );
                self.failed = true;
            }
            bound[slot] = Some(arg);
        }
        for name in required {
            let slot = names.iter().position(|n| n == name)?;
            if bound[slot].is_none() {
                self.report.error_in_string(
                    self.path,
                    call.name_span.start,
                    format!("{}() needs `{name}`", call.name),
                    Some(format!("its arguments are {}", names.join(", "))),
                );
                self.failed = true;
            }
        }
        (!self.failed).then_some(bound)
    }

    /// CliGent's compiler appends pixel fallbacks to clicks and typing; positions shift
    /// between runs, so Statewright relies on the locator alone and says so.
    fn ignore_coordinates(&mut self, given: Option<&Arg>, what: &str) {
        if given.is_some() {
            let message = format!("coordinate fallbacks are ignored; the {what} uses the selector only");
            self.report.warning(self.path, message, None);
        }
    }

    /// Parses an optional argument: `Some(None)` when absent, `None` when it is malformed.
    fn opt<T>(&mut self, arg: Option<&Arg>, parse: impl FnOnce(&mut Self, &Arg) -> Option<T>) -> Option<Option<T>> {
        match arg {
            None => Some(None),
            Some(arg) => parse(self, arg).map(Some),
        }
    }

    fn fail<T>(&mut self, arg: &Arg, message: String) -> Option<T> {
        self.report.error_in_string(self.path, arg.value_span.start, message, None);
        self.failed = true;
        None
    }

    fn string(&mut self, arg: &Arg, what: &str) -> Option<String> {
        match &arg.value {
            Literal::Str(s) => Some(s.clone()),
            other => self.fail(arg, format!("`{what}` must be a string, not {}", other.type_name())),
        }
    }

    /// One string, or a list (or tuple) of them: the options a `select_option` chooses.
    fn choices(&mut self, arg: &Arg, what: &str) -> Option<Choices> {
        match &arg.value {
            Literal::Str(s) => Some(Choices::One(s.clone())),
            Literal::List(items) | Literal::Tuple(items) => {
                let strings = items.iter().map(|item| match item {
                    Literal::Str(s) => Some(s.clone()),
                    _ => None,
                });
                match strings.collect() {
                    Some(many) => Some(Choices::Many(many)),
                    None => self.fail(arg, format!("`{what}` must be a string or a list of strings")),
                }
            }
            other => {
                self.fail(arg, format!("`{what}` must be a string or a list of strings, not {}", other.type_name()))
            }
        }
    }

    fn optional_string(&mut self, arg: &Arg, what: &str) -> Option<Option<String>> {
        match &arg.value {
            Literal::None => Some(None),
            _ => self.string(arg, what).map(Some),
        }
    }

    fn number(&mut self, arg: &Arg, what: &str) -> Option<f64> {
        match number_of(&arg.value) {
            Some(n) => Some(n),
            None => self.fail(arg, format!("`{what}` must be a number, not {}", arg.value.type_name())),
        }
    }

    fn boolean(&mut self, arg: &Arg, what: &str) -> Option<bool> {
        match &arg.value {
            Literal::Bool(b) => Some(*b),
            other => self.fail(arg, format!("`{what}` must be True or False, not {}", other.type_name())),
        }
    }

    /// Maps Selenium's `by` strategies onto typed targets.
    fn target(&mut self, by: Option<&Arg>, selector: &Arg) -> Option<Target> {
        let by = match by {
            Some(arg) => self.string(arg, "by")?,
            None => "css selector".to_owned(),
        };
        let sel = self.string(selector, "selector")?;
        let mut target = Target::default();
        match by.to_ascii_lowercase().as_str() {
            "css selector" | "css" => target.css = Some(sel),
            "xpath" => target.xpath = Some(sel),
            "id" => target.css = Some(format!("[id={}]", css_string(&sel))),
            "name" => target.css = Some(format!("[name={}]", css_string(&sel))),
            "class name" => target.css = Some(format!("[class~={}]", css_string(&sel))),
            "tag name" => target.css = Some(sel),
            "link text" => target.xpath = Some(format!("//a[normalize-space(.)={}]", xpath_string(&sel))),
            "partial link text" => {
                target.xpath = Some(format!("//a[contains(normalize-space(.), {})]", xpath_string(&sel)))
            }
            "text" => target.text = Some(sel),
            other => {
                let arg = by_arg(self.call)?;
                return self.fail(arg, format!("unknown locator strategy '{other}'; use 'css selector', 'xpath', 'id', 'name', 'class name', 'tag name', 'link text', 'partial link text' or 'text'"));
            }
        }
        Some(target)
    }
}

fn by_arg(call: &Call) -> Option<&Arg> {
    call.args.iter().find(|a| a.keyword.as_deref() == Some("by")).or_else(|| call.args.first())
}

fn css_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// An XPath 1.0 string literal for any text (XPath has no escapes: mixed quotes need concat()).
fn xpath_string(s: &str) -> String {
    if !s.contains('"') {
        format!("\"{s}\"")
    } else if !s.contains('\'') {
        format!("'{s}'")
    } else {
        let parts: Vec<String> = s.split('"').map(|p| format!("\"{p}\"")).collect();
        format!("concat({})", parts.join(", '\"', "))
    }
}

/// Whether the state object lists any check.
fn checks_given(map: &serde_json::Map<String, Value>) -> bool {
    map.get("checks").and_then(Value::as_array).is_some_and(|c| !c.is_empty())
}
