//! `{{name}}` parameter references: parsing templates, binding values, masking secrets.

use std::collections::HashSet;

use indexmap::IndexMap;

use crate::model::Workflow;

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
    #[error(
        "state `{state}` would write the file `{name}`, a name the run folder keeps for {what} \
         (check the parameters it is built from)"
    )]
    RunFolderFileName { state: String, name: String, what: &'static str },
}

pub use crate::file_names::{is_plain_file_name, run_folder_file};

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
    /// not lead a `save_html`, `screenshot` or `download` out of the run folder, nor onto
    /// one of its own files.
    fn check_file_names(&self, workflow: &Workflow) -> Result<(), ParamError> {
        for state in &workflow.states {
            for action in &state.actions {
                if let Some(filename) = action.filename() {
                    let name = self.render(filename);
                    if let Some(what) = run_folder_file(&name) {
                        let (state, name) = (state.name.clone(), self.redact(&name));
                        return Err(ParamError::RunFolderFileName { state, name, what });
                    }
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

    /// Parameters that only mask `secrets`: for records written with no workflow's
    /// parameters (a recording's values named like credentials, an agent's).
    pub fn masking(secrets: Vec<String>) -> Params {
        Params { inherited: secrets, ..Params::default() }
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
    /// quotes what was typed, a URL the browser reports percent-encoded, once or twice, HTML
    /// with character references, JSON text with escapes) by the mask.
    pub fn redact(&self, text: &str) -> String {
        self.redact_as(text, MASK)
    }

    /// [`Params::redact`] on an error from the browser or the desktop, with each value it
    /// quotes cut as validation's messages cut theirs: such an error may quote a page's
    /// megabyte-long address, or text typed from a parameter, and the run's failure, its
    /// record, its results row and its progress line would each show it whole. Masked
    /// first, so no part of a secret outlives the cut.
    pub fn redact_message(&self, text: &str) -> String {
        crate::diagnostic::shorten(self.redact(text))
    }

    /// [`Params::redact`] with another stand-in than the mask: a file name says `secret`.
    pub fn redact_as(&self, text: &str, stand_in: &str) -> String {
        crate::redact::mask_all(text, self.secret_values(), stand_in)
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
