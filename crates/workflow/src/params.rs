//! `{{name}}` parameter references: parsing templates, binding values, masking secrets.

use std::collections::HashSet;

use indexmap::IndexMap;

use crate::model::Workflow;
use crate::span::JsonPath;

/// A piece of a template string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'s> {
    Literal(&'s str),
    /// A reference; `offset` is the character index of its `{{`.
    Param {
        name: &'s str,
        offset: usize,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    pub offset: usize,
    pub message: String,
}

/// Splits `s` into literals and `{{ name }}` references. Names are identifiers
/// (`[A-Za-z_][A-Za-z0-9_]*`); whitespace inside the braces is allowed.
pub fn parse_template(s: &str) -> Result<Vec<Piece<'_>>, TemplateError> {
    let mut pieces = Vec::new();
    let mut rest = s;
    let mut consumed = 0; // bytes of `s` already split off
    while let Some(open) = rest.find("{{") {
        if open > 0 {
            pieces.push(Piece::Literal(&rest[..open]));
        }
        let offset = s[..consumed + open].chars().count();
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            return Err(TemplateError { offset, message: "`{{` is never closed with `}}`".into() });
        };
        let name = after[..close].trim();
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(TemplateError {
                offset,
                message: format!(
                    "`{{{{{}}}}}` is not a parameter reference: names are letters, digits and `_`",
                    &after[..close]
                ),
            });
        }
        pieces.push(Piece::Param { name, offset });
        let used = open + 2 + close + 2;
        consumed += used;
        rest = &rest[used..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Literal(rest));
    }
    Ok(pieces)
}

/// The values of a run's parameters and variables, and which of them are secret. Variables
/// (set by `extract` actions as the run goes) share the parameters' `{{name}}` namespace.
#[derive(Debug, Clone, Default)]
pub struct Params {
    values: IndexMap<String, String>,
    secret: HashSet<String>,
    /// The names set by extraction.
    variables: Vec<String>,
    /// A caller's secret values, for a skill's run: masked here too.
    inherited: Vec<String>,
}

/// Why a run's parameters could not be bound.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("unknown parameter `{name}`; this workflow declares: {declared}")]
    Unknown { name: String, declared: String },
    #[error("parameter `{0}` has no default; pass it with --param {0}=VALUE")]
    Missing(String),
    #[error(
        "state `{state}` would write the file `{name}`, which is not a plain file name inside the run folder \
         (check the parameters it is built from)"
    )]
    UnsafeFileName { state: String, name: String },
}

/// A name for a file inside the run folder: no separators, no `..`, not hidden, no NUL.
/// Checked on the workflow as written and again once parameters are filled in.
pub fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\', '\0']) && !name.starts_with('.') && name.len() <= 255
}

pub const MASK: &str = "••••••";

/// Whether a parameter's name says it holds a credential (`password`, `api_token`,
/// `cardPin`…): for formats with no secret flag (CliGent, seed 003 skills) and for the
/// values given to a recording, such parameters are secret. A short name counts only as a
/// word of its own, so `shipping` or `spinner` holds no PIN.
pub fn names_a_secret(name: &str) -> bool {
    const PARTS: &[&str] = &["password", "passwd", "passcode", "secret", "token", "api_key", "apikey"];
    const WORDS: &[&str] = &["pin", "otp", "cvv", "cvc"];
    let lower = name.to_ascii_lowercase();
    PARTS.iter().any(|part| lower.contains(part)) || words(name).iter().any(|word| WORDS.contains(&word.as_str()))
}

/// The words of a name, lower case: `card_pin`, `card-pin` and `cardPin` are "card", "pin".
fn words(name: &str) -> Vec<String> {
    let mut words = vec![String::new()];
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && previous_lower) {
            words.push(String::new());
        }
        if let (true, Some(word)) = (c.is_ascii_alphanumeric(), words.last_mut()) {
            word.push(c.to_ascii_lowercase());
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    words.retain(|word| !word.is_empty());
    words
}

impl Params {
    /// Binds `supplied` values over the workflow's defaults.
    pub fn bind(workflow: &Workflow, supplied: &[(String, String)]) -> Result<Self, ParamError> {
        let mut values = IndexMap::new();
        for (name, value) in supplied {
            if !workflow.parameters.contains_key(name) {
                let declared = workflow.parameters.keys().map(String::as_str).collect::<Vec<_>>();
                let declared = if declared.is_empty() { "(none)".to_owned() } else { declared.join(", ") };
                return Err(ParamError::Unknown { name: name.clone(), declared });
            }
            values.insert(name.clone(), value.clone());
        }
        for (name, param) in &workflow.parameters {
            if !values.contains_key(name) {
                let default = param.default.clone().ok_or_else(|| ParamError::Missing(name.clone()))?;
                values.insert(name.clone(), default);
            }
        }
        let secret = workflow.parameters.iter().filter(|(_, p)| p.secret).map(|(n, _)| n.clone()).collect();
        let params = Self { values, secret, variables: Vec::new(), inherited: Vec::new() };
        params.check_file_names(workflow)?;
        Ok(params)
    }

    /// Every file name an action writes, filled in, must stay a plain name: a parameter may
    /// not lead a `save_html`, `screenshot` or `download` out of the run folder.
    fn check_file_names(&self, workflow: &Workflow) -> Result<(), ParamError> {
        for state in &workflow.states {
            for action in &state.actions {
                if let Some(filename) = action.filename() {
                    let name = self.render(filename);
                    if !is_plain_file_name(&name) {
                        return Err(ParamError::UnsafeFileName { state: state.name.clone(), name: self.redact(&name) });
                    }
                }
            }
        }
        Ok(())
    }

    /// The first `{{name}}` in any string of `value` (a check or an action as JSON) that
    /// has no value: a variable that no `extract` has set yet in this run.
    pub fn unset_reference(&self, value: &serde_json::Value) -> Option<String> {
        use serde_json::Value;
        match value {
            Value::String(s) if s.contains("{{") => parse_template(s).ok()?.into_iter().find_map(|piece| match piece {
                Piece::Param { name, .. } if !self.values.contains_key(name) => Some(name.to_owned()),
                _ => None,
            }),
            Value::Array(items) => items.iter().find_map(|v| self.unset_reference(v)),
            Value::Object(map) => map.values().find_map(|v| self.unset_reference(v)),
            _ => None,
        }
    }

    /// Sets a run variable. A value that shows a secret (a password field read back, say)
    /// becomes secret itself, so that it is masked wherever it is referenced.
    pub fn set_variable(&mut self, name: &str, value: String) {
        if self.reveals_secret(&value) {
            self.secret.insert(name.to_owned());
        }
        if !self.variables.iter().any(|v| v == name) {
            self.variables.push(name.to_owned());
        }
        self.values.insert(name.to_owned(), value);
    }

    /// Takes on `caller`'s secrets (for a skill's run): its secret values are masked here
    /// too, and an argument that shows one is secret.
    pub fn inherit_secrets(&mut self, caller: &Params) {
        let shown: Vec<String> =
            self.values.iter().filter(|(_, v)| caller.reveals_secret(v)).map(|(k, _)| k.clone()).collect();
        self.secret.extend(shown);
        self.inherited.extend(caller.secret_values().map(str::to_owned));
    }

    /// The current value of a parameter or variable.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Whether the parameter or variable `name` is secret (declared so, or showing a secret).
    pub fn is_secret(&self, name: &str) -> bool {
        self.secret.contains(name)
    }

    /// Fills in every reference. Unknown references are left as written; validation rejects
    /// them before a run starts.
    pub fn render(&self, template: &str) -> String {
        self.render_with(template, false)
    }

    /// Like `render`, but secret values are replaced by a mask: for logs and run records.
    pub fn render_masked(&self, template: &str) -> String {
        self.render_with(template, true)
    }

    /// Replaces any secret value that appears in `text` (e.g. in an error message that
    /// quotes what was typed, or a URL the browser reports percent-encoded) by the mask.
    pub fn redact(&self, text: &str) -> String {
        crate::redact::mask_all(text, self.secret_values(), MASK)
    }

    /// [`Params::redact`] on every string inside a JSON value (keys included): for element
    /// snapshots, where a secret can hide in an input's value, an accessible name, a link's
    /// href or a generated selector.
    pub fn redact_json(&self, value: &mut serde_json::Value) {
        use serde_json::Value;
        if !self.has_secret_values() {
            return;
        }
        match value {
            Value::String(s) => *s = self.redact(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.redact_json(v)),
            Value::Object(map) => {
                let redacted: serde_json::Map<String, Value> = std::mem::take(map)
                    .into_iter()
                    .map(|(k, mut v)| {
                        self.redact_json(&mut v);
                        (self.redact(&k), v)
                    })
                    .collect();
                *map = redacted;
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// Whether `text` shows any secret value, as written or encoded (as `redact` finds them).
    pub fn reveals_secret(&self, text: &str) -> bool {
        self.secret_values().any(|value| !crate::redact::occurrences(text, value).is_empty())
    }

    fn has_secret_values(&self) -> bool {
        self.secret_values().next().is_some()
    }

    fn secret_values(&self) -> impl Iterator<Item = &str> {
        // Variables made secret only repeat a secret parameter's value.
        let own = self.secret.iter().filter(|name| !self.variables.contains(name));
        let own = own.filter_map(|name| self.values.get(name)).map(String::as_str);
        own.chain(self.inherited.iter().map(String::as_str)).filter(|v| !v.is_empty())
    }

    /// Puts a reference back where `text` starts with a parameter's value (the longest
    /// such non-secret value), e.g. `http://127.0.0.1:8931/cart.html` → `{{site}}/cart.html`.
    /// Checks suggested from a live page keep working with other parameter values.
    pub fn templatize_prefix(&self, text: &str) -> String {
        let best = self
            .values
            .iter()
            .filter(|(name, value)| {
                !self.secret.contains(*name) && !value.is_empty() && text.starts_with(value.as_str())
            })
            .max_by_key(|(_, value)| value.len());
        match best {
            Some((name, value)) => format!("{{{{{name}}}}}{}", &text[value.len()..]),
            None => text.to_owned(),
        }
    }

    /// The values with secrets masked, for run records.
    pub fn masked_values(&self) -> IndexMap<String, String> {
        self.values
            .iter()
            .map(|(k, v)| (k.clone(), if self.secret.contains(k) { MASK.to_owned() } else { v.clone() }))
            .collect()
    }

    fn render_with(&self, template: &str, mask: bool) -> String {
        let Ok(pieces) = parse_template(template) else {
            return template.to_owned();
        };
        let mut out = String::with_capacity(template.len());
        for piece in pieces {
            match piece {
                Piece::Literal(text) => out.push_str(text),
                Piece::Param { name, .. } if mask && self.secret.contains(name) => out.push_str(MASK),
                Piece::Param { name, .. } => match self.values.get(name) {
                    Some(value) => out.push_str(value),
                    None => {
                        out.push_str("{{");
                        out.push_str(name);
                        out.push_str("}}");
                    }
                },
            }
        }
        out
    }
}

/// The strings of one check that may hold `{{name}}` references, with their paths.
fn check_strings<'a>(check: &'a mut crate::model::Check, path: JsonPath, out: &mut Vec<(JsonPath, &'a mut String)>) {
    use crate::model::Check;
    match check {
        Check::Url { value, .. } | Check::Title { value, .. } | Check::Text { value, .. } => {
            out.push((path.key("value"), value))
        }
        Check::Element { selector, .. } => out.push((path.key("selector"), selector)),
        Check::Variable { value, .. } => out.push((path.key("value"), value)),
        Check::WindowTitle { value, .. } | Check::AppClass { value, .. } => out.push((path.key("value"), value)),
        Check::WindowExists { title, app_class, .. } | Check::WindowFocused { title, app_class, .. } => {
            if let Some(title) = title {
                out.push((path.key("title"), title));
            }
            if let Some(class) = app_class {
                out.push((path.key("app_class"), class));
            }
        }
    }
}

/// A target's strings, which may hold references (`{{product}}` in an XPath, say).
fn target_strings<'a>(
    target: &'a mut crate::model::Target,
    tpath: JsonPath,
    out: &mut Vec<(JsonPath, &'a mut String)>,
) {
    for (key, field) in [
        ("css", &mut target.css),
        ("xpath", &mut target.xpath),
        ("text", &mut target.text),
        ("role", &mut target.role),
        ("name", &mut target.name),
    ] {
        if let Some(s) = field {
            out.push((tpath.key(key), s));
        }
    }
}

impl Workflow {
    /// Every string of the workflow's states that may hold `{{name}}` references, with its
    /// path: check values, selectors and targets, URLs, typed text, keys, option values and
    /// file names.
    pub fn template_strings_mut(&mut self) -> Vec<(JsonPath, &mut String)> {
        use crate::model::Action;
        let mut out = Vec::new();
        if let Some(skill) = &mut self.skill {
            let path = JsonPath::root().key("skill");
            for (key, checks) in [("pre", &mut skill.pre), ("post", &mut skill.post)] {
                for (ci, check) in checks.iter_mut().enumerate() {
                    check_strings(check, path.key(key).index(ci), &mut out);
                }
            }
        }
        let states = JsonPath::root().key("states");
        for (si, state) in self.states.iter_mut().enumerate() {
            let state_path = states.index(si);
            for (key, checks) in [("checks", &mut state.checks), ("expect", &mut state.expect)] {
                for (ci, check) in checks.iter_mut().enumerate() {
                    check_strings(check, state_path.key(key).index(ci), &mut out);
                }
            }
            if let Some(terminal) = &mut state.terminal {
                out.push((state_path.key("terminal").key("message"), &mut terminal.message));
            }
            for (ai, action) in state.actions.iter_mut().enumerate() {
                let path = state_path.key("actions").index(ai);
                let (target, strings): (Option<&mut crate::model::Target>, Vec<(&str, &mut String)>) = match action {
                    Action::NavigateTo { url } => (None, vec![("url", url)]),
                    Action::Type { target, text, .. } => (Some(target), vec![("text", text)]),
                    Action::PressKey { key } => (None, vec![("key", key)]),
                    Action::SaveHtml { filename } | Action::Screenshot { filename } => {
                        (None, vec![("filename", filename)])
                    }
                    Action::Download { target, filename, .. } => (Some(target), vec![("filename", filename)]),
                    Action::SelectOption { target, value, label } => {
                        let mut v = Vec::new();
                        if let Some(value) = value {
                            v.push(("value", value));
                        }
                        if let Some(label) = label {
                            v.push(("label", label));
                        }
                        (Some(target), v)
                    }
                    Action::UseSkill { args, .. } => {
                        for (name, value) in args.iter_mut() {
                            out.push((path.key("args").key(name), value));
                        }
                        (None, vec![])
                    }
                    Action::Upload { target, files } => {
                        for (i, file) in files.iter_mut().enumerate() {
                            out.push((path.key("files").index(i), file));
                        }
                        (Some(target), vec![])
                    }
                    Action::Extract { target, attribute, pattern, .. } => {
                        let mut v = Vec::new();
                        if let Some(attribute) = attribute {
                            v.push(("attribute", attribute));
                        }
                        if let Some(pattern) = pattern {
                            v.push(("pattern", pattern));
                        }
                        (Some(target), v)
                    }
                    Action::Drag { target, to, .. } => {
                        target_strings(to, path.key("to"), &mut out);
                        (Some(target), vec![])
                    }
                    Action::Click { target, .. }
                    | Action::Check { target, .. }
                    | Action::ScrollTo { target }
                    | Action::Hover { target }
                    | Action::WaitFor { target, .. } => (Some(target), vec![]),
                    Action::Scroll { target, .. } => (target.as_mut(), vec![]),
                    Action::Wait { .. } | Action::GoBack {} => (None, vec![]),
                    Action::Launch { program, args } => {
                        out.push((path.key("program"), program));
                        for (i, arg) in args.iter_mut().enumerate() {
                            out.push((path.key("args").index(i), arg));
                        }
                        (None, vec![])
                    }
                    Action::KeyCombo { keys } => (None, vec![("keys", keys)]),
                    Action::TypeText { text } => (None, vec![("text", text)]),
                    Action::FocusWindow { window }
                    | Action::WaitForWindow { window, .. }
                    | Action::MouseClick { window: Some(window), .. }
                    | Action::MouseDrag { window: Some(window), .. }
                    | Action::ScrollAt { window: Some(window), .. } => {
                        let wpath = path.key("window");
                        if let Some(title) = &mut window.title {
                            out.push((wpath.key("title"), title));
                        }
                        if let Some(class) = &mut window.app_class {
                            out.push((wpath.key("app_class"), class));
                        }
                        (None, vec![])
                    }
                    Action::SwitchTab { tab, .. } => {
                        let tpath = path.key("tab");
                        for (key, field) in [("url", &mut tab.url), ("title", &mut tab.title)] {
                            if let Some(s) = field {
                                out.push((tpath.key(key), s));
                            }
                        }
                        (None, vec![])
                    }
                    Action::MouseClick { window: None, .. }
                    | Action::MouseDrag { window: None, .. }
                    | Action::ScrollAt { window: None, .. } => (None, vec![]),
                };
                for (key, s) in strings {
                    out.push((path.key(key), s));
                }
                if let Some(target) = target {
                    target_strings(target, path.key("target"), &mut out);
                }
            }
        }
        out
    }

    /// A copy with every reference filled in (`mask` hides secrets, for display).
    pub fn bound(&self, params: &Params, mask: bool) -> Workflow {
        let mut copy = self.clone();
        for (_, s) in copy.template_strings_mut() {
            *s = if mask { params.render_masked(s) } else { params.render(s) };
        }
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_says_a_secret_by_a_part_or_by_a_short_word_of_its_own() {
        let secret = [
            "password",
            "userPassword",
            "API_KEY",
            "access-token",
            "pin",
            "card_pin",
            "cardPin",
            "PIN",
            "sms otp",
            "cvv",
        ];
        for name in secret {
            assert!(names_a_secret(name), "{name}");
        }
        for name in ["shipping", "spinner", "mapping", "pinned", "username", "quantity", "topics", "OTPless"] {
            assert!(!names_a_secret(name), "{name}");
        }
    }

    #[test]
    fn templates_split_into_literals_and_references() {
        let pieces = parse_template("{{site}}/q?x={{ term }}&é={{a_1}}").unwrap();
        assert_eq!(
            pieces,
            vec![
                Piece::Param { name: "site", offset: 0 },
                Piece::Literal("/q?x="),
                Piece::Param { name: "term", offset: 13 },
                Piece::Literal("&é="),
                Piece::Param { name: "a_1", offset: 26 },
            ]
        );
    }

    #[test]
    fn malformed_references_are_errors_with_offsets() {
        assert_eq!(parse_template("ab{{x").unwrap_err().offset, 2);
        assert!(parse_template("{{ bad name }}").unwrap_err().message.contains("not a parameter reference"));
        assert!(parse_template("{{}}").is_err());
        assert_eq!(parse_template("no refs { } }}").unwrap(), vec![Piece::Literal("no refs { } }}")]);
    }

    fn workflow(json: &str) -> Workflow {
        serde_json::from_str(json).unwrap()
    }

    const WF: &str = r#"{"version": 1, "name": "w", "parameters": {
        "user": {"default": "ann"}, "pw": {"secret": true, "default": "hunter2"}, "q": {}},
        "states": []}"#;

    #[test]
    fn binding_uses_defaults_and_rejects_unknown_or_missing() {
        let wf = workflow(WF);
        let p = Params::bind(&wf, &[("q".into(), "kettle".into())]).unwrap();
        assert_eq!(p.render("{{user}}:{{pw}}:{{q}}"), "ann:hunter2:kettle");
        assert_eq!(p.render_masked("{{user}}:{{pw}}"), format!("ann:{MASK}"));
        assert_eq!(p.redact("typed hunter2 into #pw"), format!("typed {MASK} into #pw"));
        assert_eq!(p.masked_values()["pw"], MASK);
        assert_eq!(Params::bind(&wf, &[]).unwrap_err(), ParamError::Missing("q".into()));
        assert!(matches!(Params::bind(&wf, &[("nope".into(), "1".into())]), Err(ParamError::Unknown { .. })));
    }

    #[test]
    fn secrets_are_masked_and_revealed_in_their_url_encodings_too() {
        let wf = workflow(r#"{"version": 1, "name": "w", "parameters": {"pw": {"secret": true}}, "states": []}"#);
        let p = Params::bind(&wf, &[("pw".into(), "p@ss wörd/+&".into())]).unwrap();
        for url in ["http://x/?pw=p@ss%20w%C3%B6rd/+&", "http://x/?pw=p%40ss+w%c3%b6rd%2F%2B%26"] {
            assert_eq!(p.redact(url), format!("http://x/?pw={MASK}"), "{url}");
            assert!(p.reveals_secret(url), "{url}");
        }
        assert!(!p.reveals_secret("http://x/?pw=p@ss%20w"));
    }

    #[test]
    fn a_secret_inside_a_longer_one_leaves_no_tail_whatever_the_declaration_order() {
        // Secret names are kept in a hash set: many binds see both orders of masking.
        for order in [["short", "long"], ["long", "short"]].repeat(16) {
            let parameters = order.map(|name| format!(r#""{name}": {{"secret": true}}"#)).join(", ");
            let wf =
                workflow(&format!(r#"{{"version": 1, "name": "w", "parameters": {{{parameters}}}, "states": []}}"#));
            let supplied = [("short".into(), "hunter".into()), ("long".into(), "hunter2TAILSECRET".into())];
            let p = Params::bind(&wf, &supplied).unwrap();
            assert_eq!(p.redact("Key is hunter2TAILSECRET"), format!("Key is {MASK}"), "{order:?}");
        }
    }
}
