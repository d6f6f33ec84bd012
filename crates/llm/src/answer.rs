//! The model's answer, checked the way a person's is before anything runs: one of a closed
//! set of kinds; targets that are elements of the snapshot the model saw; typed text whose
//! parameter references exist, with secrets only into password fields; navigation only to
//! origins the workflow already uses. Anything else is refused with the reason, and the
//! chain goes on to the person.

use serde_json::{Map, Value};
use statewright_engine::{EscalationRequest, Resolution};
use statewright_workflow::{Action, Check, Choices, Direction, Params, TabSelector, Target, UrlMatch, Workflow};

/// The steps on the page a model may answer with, whether it helps a stuck run or drives.
pub const STEPS: &[&str] = &[
    "click",
    "check",
    "drag",
    "hover",
    "type",
    "select",
    "press_key",
    "scroll",
    "navigate",
    "go_back",
    "wait",
    "switch_tab",
];

/// What the model helping a stuck run may answer: a step, or what the run does next.
pub fn answer_kinds() -> Vec<&'static str> {
    [STEPS, &["retry", "skip", "declare_state", "abort", "synthesize"]].concat()
}

/// The JSON Schema sent as `response_format` where the server takes one.
pub fn schema() -> Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "kind": { "type": "string", "enum": answer_kinds() },
            "element": { "type": "integer" },
            "text": { "type": "string" },
            "option": { "type": ["string", "array"], "items": { "type": "string" } },
            "checked": { "type": "boolean" },
            "to": { "type": ["integer", "string"] },
            "direction": { "type": "string", "enum": ["up", "down", "left", "right"] },
            "key": { "type": "string" },
            "url": { "type": "string" },
            "tab": { "type": "integer" },
            "close": { "type": "boolean" },
            "state": { "type": "string" },
            "reason": { "type": "string" },
            "checks": { "type": "array", "items": { "type": "object" } },
            "actions": { "type": "array", "items": { "type": "object" } }
        },
        "required": ["kind", "reason"]
    })
}

/// The longest wait a model may ask for.
const MAX_WAIT_SECONDS: f64 = 10.0;

/// Turns the model's object into a resolution, or says why it cannot be one.
pub fn resolution(
    answer: &Map<String, Value>,
    request: &EscalationRequest,
    workflow: &Workflow,
    params: &Params,
) -> Result<Resolution, String> {
    let kind = kind_of(answer).ok_or("the answer has no `kind`")?;
    match kind.as_str() {
        "retry" => return Ok(Resolution::Retry),
        "skip" => return Ok(Resolution::Skip),
        "abort" => {
            let reason = field(answer, "reason").unwrap_or_default();
            return Ok(Resolution::Abort { reason: format!("the model: {reason}") });
        }
        "declare_state" => {
            let state = field(answer, "state").ok_or("`declare_state` needs `state`")?;
            if !request.states.contains(&state) {
                return Err(format!("there is no state `{state}`"));
            }
            return Ok(Resolution::DeclareState { state });
        }
        "synthesize" => return synthesized(answer, request, workflow, params),
        _ => {}
    }
    Ok(Resolution::Actions { actions: vec![action(answer, request, workflow, params)?] })
}

/// One step of the whitelist, from the model's object (`kind` plus its fields).
fn action(
    answer: &Map<String, Value>,
    request: &EscalationRequest,
    workflow: &Workflow,
    params: &Params,
) -> Result<Action, String> {
    let kind = kind_of(answer).ok_or("a step has no `kind`")?;
    let action = match kind.as_str() {
        "click" => {
            Action::Click { target: target(answer, request)?.0, button: Default::default(), count: 1, position: None }
        }
        "check" => {
            // A checkbox, radio button or switch set to a state, not toggled: asked twice, it
            // does not undo itself.
            let checked = match answer.get("checked") {
                None | Some(Value::Null) => true,
                Some(Value::Bool(b)) => *b,
                Some(other) => return Err(format!("`checked` is true or false, not {other}")),
            };
            Action::Check { target: target(answer, request)?.0, checked }
        }
        "drag" => Action::Drag { target: target(answer, request)?.0, to: place(answer, request)?, position: None },
        "type" => {
            let (target, element) = target(answer, request)?;
            let text = field(answer, "text").ok_or("`type` needs `text`")?;
            check_typed(&text, element, workflow)?;
            Action::Type { target, text, clear: true }
        }
        "select" => {
            let (target, _) = target(answer, request)?;
            Action::SelectOption { target, value: None, label: Some(options(answer)?) }
        }
        "press_key" => {
            let key = field(answer, "key").ok_or("`press_key` needs `key`")?;
            let combo = statewright_workflow::keys::parse_key_combo(&key).map_err(|e| format!("key `{key}`: {e}"))?;
            if browser_shortcut(&combo) {
                return Err(format!(
                    "key `{key}` is a browser or window shortcut (it would close, open or leave the run's tab): \
                     press keys on the page only"
                ));
            }
            Action::PressKey { key }
        }
        "hover" => Action::Hover { target: target(answer, request)?.0 },
        "scroll" => {
            let said = ["direction", "text", "key"].iter().find_map(|k| field(answer, k));
            let direction = match said.map(|d| d.to_ascii_lowercase()).as_deref() {
                Some("up") => Direction::Up,
                Some("left") => Direction::Left,
                Some("right") => Direction::Right,
                _ => Direction::Down,
            };
            // Inside an element (a list that scrolls on its own) when the answer names one.
            let inside = match answer.get("element") {
                None | Some(Value::Null) => None,
                Some(_) => Some(target(answer, request)?.0),
            };
            Action::Scroll { direction, amount: 500, target: inside }
        }
        "navigate" => {
            let url = field(answer, "url").ok_or("`navigate` needs `url`")?;
            check_origin(&url, workflow, params)?;
            Action::NavigateTo { url }
        }
        "go_back" => Action::GoBack {},
        "wait" => Action::Wait { seconds: 2.0_f64.min(MAX_WAIT_SECONDS) },
        "switch_tab" => switch_tab(answer, request)?,
        other => {
            return Err(format!("`{other}` is not something the run can do (one of {})", answer_kinds().join(", ")));
        }
    };
    Ok(action)
}

/// A key combination that acts on the browser rather than the page: closing the run's tab
/// or window (Control+W, Alt+F4, Control+Q), opening others (Control+N, Control+T), going to
/// another tab (Control+Tab, Control+1…9), the address bar, a dialog (print, save, open),
/// full screen or the developer tools. A page never needs them; a model talked into them
/// by the page it reads would end or hijack the run.
fn browser_shortcut(combo: &statewright_workflow::keys::KeyCombo) -> bool {
    let m = &combo.modifiers;
    let code = combo.key.code.as_str();
    let command = m.ctrl || m.meta;
    match code {
        "F1" | "F6" | "F7" | "F10" | "F11" | "F12" => true,
        "F4" => command || m.alt,
        _ if command => {
            matches!(
                code,
                "KeyW"
                    | "KeyQ"
                    | "KeyN"
                    | "KeyT"
                    | "KeyL"
                    | "KeyO"
                    | "KeyP"
                    | "KeyS"
                    | "KeyH"
                    | "KeyJ"
                    | "KeyD"
                    | "KeyU"
                    | "Tab"
                    | "PageUp"
                    | "PageDown"
            ) || (code.starts_with("Digit") && code != "Digit0")
                || (m.shift && matches!(code, "KeyI" | "KeyC" | "KeyB" | "KeyM" | "Delete"))
        }
        _ if m.alt => matches!(code, "KeyD" | "KeyE" | "KeyF" | "Home"),
        _ => false,
    }
}

/// Checks and actions for a prompt-only state, checked as a workflow file would be: typed
/// checks, steps from the whitelist on the snapshot's elements, the whole state validated
/// in its workflow (selectors, patterns, parameters). The page's address goes back to the
/// parameter it came from (`{{site}}/login.html`), so the state works for other values.
fn synthesized(
    answer: &Map<String, Value>,
    request: &EscalationRequest,
    workflow: &Workflow,
    params: &Params,
) -> Result<Resolution, String> {
    let state = field(answer, "state").ok_or("`synthesize` needs `state`")?;
    if !request.unresolved.iter().any(|u| u.state == state) {
        let open: Vec<&str> = request.unresolved.iter().map(|u| u.state.as_str()).collect();
        return Err(format!("`{state}` is not a state waiting to be synthesised ({})", open.join(", ")));
    }
    let list = |key: &str| answer.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    let mut checks = Vec::new();
    for (i, raw) in list("checks").into_iter().enumerate() {
        let mut check: Check = serde_json::from_value(raw).map_err(|e| format!("check {}: {e}", i + 1))?;
        if let Check::Url { value, .. } = &mut check {
            *value = params.templatize_prefix(value);
        }
        checks.push(check);
    }
    if checks.is_empty() {
        return Err("a synthesised state needs at least one check".into());
    }
    let mut actions = Vec::new();
    for (i, raw) in list("actions").iter().enumerate() {
        let step = raw.as_object().ok_or_else(|| format!("action {} is not an object", i + 1))?;
        actions.push(action(step, request, workflow, params).map_err(|e| format!("action {}: {e}", i + 1))?);
    }
    // A secret's value in a state is written into the workflow file, in plain text, on
    // approval: it is refused, whatever else the state says (the model may type a secret only
    // as `{{name}}`, into a password field).
    if let Some(name) = secret_written(&checks, &actions, workflow, params) {
        return Err(format!(
            "the synthesised state holds the value of the secret `{name}`: write it as {{{{{name}}}}}, and only into a password field"
        ));
    }
    let mut candidate = workflow.clone();
    let target = candidate.states.iter_mut().find(|s| s.name == state).ok_or_else(|| format!("no state `{state}`"))?;
    target.checks = checks.clone();
    target.actions = actions.clone();
    let text = statewright_workflow::to_native_json(&candidate);
    if let Err(diagnostics) = statewright_workflow::load_str(&text, "synthesised", &workflow.name) {
        let first = diagnostics.errors().next().map(|d| d.message.clone()).unwrap_or_default();
        return Err(format!("the synthesised state does not validate: {first}"));
    }
    Ok(Resolution::Synthesized { state, checks, actions })
}

/// The secret parameter whose value (the run's, or the default the file gives) a text of
/// the checks or actions holds, if one does.
fn secret_written(checks: &[Check], actions: &[Action], workflow: &Workflow, params: &Params) -> Option<String> {
    let mut texts = Vec::new();
    strings(&serde_json::to_value((checks, actions)).unwrap_or_default(), &mut texts);
    workflow.parameters.iter().filter(|(name, p)| p.secret || params.is_secret(name)).find_map(|(name, p)| {
        let values = [params.value(name), p.default.as_deref()];
        let secret = Params::masking(values.into_iter().flatten().map(str::to_owned).collect());
        texts.iter().any(|text| secret.reveals_secret(text)).then(|| name.clone())
    })
}

fn strings(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::String(s) => into.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, into)),
        Value::Object(map) => map.values().for_each(|v| strings(v, into)),
        _ => {}
    }
}

/// The answer's `kind`, as the closed set spells it: models write `Click` or `CLICK` too.
pub fn kind_of(answer: &Map<String, Value>) -> Option<String> {
    field(answer, "kind").map(|k| k.to_ascii_lowercase())
}

/// An element's or tab's number as the model wrote it: `4`, `"4"`, `4.0`, `"e4"`, `"[4]"`.
fn number(said: &str) -> Option<u64> {
    let digits = said.trim_start_matches(['e', '#', '[']).trim_end_matches(']');
    digits.parse::<u64>().ok().or_else(|| {
        let n = digits.parse::<f64>().ok()?;
        (n.fract() == 0.0 && (0.0..1e15).contains(&n)).then_some(n as u64)
    })
}

fn field(answer: &Map<String, Value>, key: &str) -> Option<String> {
    match answer.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The option a `select` names (`option`, else `text`), or the options of a list that takes
/// several: a list stays a list, each entry as the model wrote it.
fn options(answer: &Map<String, Value>) -> Result<Choices, String> {
    let Some(Value::Array(list)) = answer.get("option") else {
        let one = field(answer, "option").or_else(|| field(answer, "text")).ok_or("`select` needs `option`")?;
        return Ok(Choices::One(one));
    };
    let entries: Option<Vec<String>> =
        list.iter().map(|v| v.as_str().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)).collect();
    match entries {
        Some(entries) if !entries.is_empty() => Ok(Choices::Many(entries)),
        _ => Err("`option` is an option's label, or a list of them (none empty)".into()),
    }
}

/// The snapshot element numbered `element`, as a target: role and name where they single
/// it out among the snapshot's elements (they survive redesigns best), else its selector.
fn target<'r>(answer: &Map<String, Value>, request: &'r EscalationRequest) -> Result<(Target, &'r Value), String> {
    target_at(answer, "element", request)
}

/// The snapshot element the answer's field `key` numbers, as [`target`] makes it.
fn target_at<'r>(
    answer: &Map<String, Value>,
    key: &str,
    request: &'r EscalationRequest,
) -> Result<(Target, &'r Value), String> {
    let said = field(answer, key).ok_or_else(|| format!("the answer names no `{key}`"))?;
    let number = number(&said).ok_or_else(|| format!("there is no element {said} on the page"))?;
    let id = format!("e{number}");
    let elements =
        request.observation.as_ref().and_then(|o| o.elements.as_array()).map(Vec::as_slice).unwrap_or_default();
    let element = elements
        .iter()
        .find(|e| e.get("id").and_then(Value::as_str) == Some(id.as_str()))
        .ok_or_else(|| format!("there is no element {number} on the page"))?;
    let s = |e: &Value, k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
    let (role, name) = (s(element, "role"), s(element, "name"));
    let unique = !role.is_empty()
        && !name.is_empty()
        && elements.iter().filter(|e| s(e, "role") == role && s(e, "name") == name).count() == 1;
    if unique {
        return Ok((Target { role: Some(role), name: Some(name), ..Target::default() }, element));
    }
    let selector = s(element, "selector");
    if selector.is_empty() {
        return Err(format!("element {number} has no selector to find it by"));
    }
    Ok((Target { css: Some(selector), ..Target::default() }, element))
}

/// Where a drag lets go: an element by number, or a place by the text it shows (a board's
/// column by its heading: places one drops on are seldom elements one acts on).
fn place(answer: &Map<String, Value>, request: &EscalationRequest) -> Result<Target, String> {
    let to = field(answer, "to").ok_or("`drag` needs `to`, an element's number or the text of a place")?;
    if number(&to).is_some() {
        return Ok(target_at(answer, "to", request)?.0);
    }
    Ok(Target { text: Some(to), ..Target::default() })
}

/// The run's tab numbered `tab` in the request's list, as `switch_tab` names it: the tab
/// before by no name at all (whatever it is called when the step replays), another by its
/// title or address as the model saw it.
fn switch_tab(answer: &Map<String, Value>, request: &EscalationRequest) -> Result<Action, String> {
    let tabs = request.observation.as_ref().map(|o| o.tabs.as_slice()).unwrap_or_default();
    // Only the tabs the prompt listed have a number.
    let tabs = &tabs[..tabs.len().min(crate::prompt::MAX_TABS)];
    if tabs.is_empty() {
        return Err("the run has no other tab to switch to".into());
    }
    let number = field(answer, "tab").ok_or("`switch_tab` needs `tab`, the number of one of the other tabs")?;
    // "2", 2, 2.0, "tab 2", "[2]": the number is what counts.
    let tab = number
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .trim_end_matches(']')
        .parse::<f64>()
        .ok()
        .filter(|n| n.fract() == 0.0 && *n >= 1.0)
        .and_then(|n| tabs.get(n as usize - 1))
        .ok_or_else(|| format!("there is no tab {number} (the other tabs are numbered 1 to {})", tabs.len()))?;
    let close = match answer.get("close") {
        Some(Value::Bool(close)) => *close,
        Some(Value::String(close)) => close.trim() == "true",
        _ => false,
    };
    let tab = if tab.previous { TabSelector::default() } else { TabSelector::naming(&tab.title, &tab.url) };
    Ok(Action::SwitchTab { tab, close })
}

/// Typed text may name parameters (`{{name}}`), secret ones only into a password field.
fn check_typed(text: &str, element: &Value, workflow: &Workflow) -> Result<(), String> {
    let pieces = statewright_workflow::params::parse_template(text).map_err(|e| format!("the text: {}", e.message))?;
    let password = element.get("type").and_then(Value::as_str) == Some("password");
    for piece in pieces {
        if let statewright_workflow::params::Piece::Param { name, .. } = piece {
            let p = workflow.parameters.get(name).ok_or_else(|| format!("there is no parameter `{name}`"))?;
            if p.secret && !password {
                return Err(format!("the secret `{name}` may be typed only into a password field"));
            }
        }
    }
    Ok(())
}

/// `scheme://host[:port]` of an absolute http(s) URL, read as a browser reads it (WHATWG:
/// `\` is `/` in http(s), tabs and newlines dropped, default ports left out), so the site
/// checked is the site the browser loads. Hand-splitting the authority let
/// `http://evil\@allowed/` pass as `allowed` while Chromium loaded `evil`.
fn origin(url: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url.trim()).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host().is_none() {
        return None;
    }
    Some(parsed.origin().ascii_serialization())
}

/// The origins the workflow uses: its navigations and the URLs its checks name.
pub fn workflow_origins(workflow: &Workflow, params: &Params) -> Vec<String> {
    let bound = workflow.bound(params, false);
    let mut origins = Vec::new();
    for state in &bound.states {
        let urls = state.actions.iter().filter_map(|a| match a {
            Action::NavigateTo { url } => Some(url.as_str()),
            _ => None,
        });
        let checks = state.checks.iter().chain(&state.expect).filter_map(|c| match c {
            Check::Url { mode: UrlMatch::Exact | UrlMatch::Prefix, value, negate: false } => Some(value.as_str()),
            _ => None,
        });
        for o in urls.chain(checks).filter_map(origin) {
            if !origins.contains(&o) {
                origins.push(o);
            }
        }
    }
    origins
}

fn check_origin(url: &str, workflow: &Workflow, params: &Params) -> Result<(), String> {
    let bound = params.render(url);
    // Browsers disagree at the edges of URL parsing; what no workflow's address needs is
    // refused rather than parsed one way here and another in Chromium.
    if bound.contains('\\') || bound.chars().any(char::is_control) {
        return Err(format!("`{url}` has a backslash or a control character: write the address plainly"));
    }
    if reqwest::Url::parse(bound.trim()).is_ok_and(|u| !u.username().is_empty() || u.password().is_some()) {
        return Err(format!("`{url}` has credentials (user@) in it: an address to open has none"));
    }
    let target = origin(&bound).ok_or_else(|| format!("`{url}` is not an absolute http(s) address"))?;
    let allowed = workflow_origins(workflow, params);
    if allowed.contains(&target) {
        Ok(())
    } else {
        Err(format!("`{target}` is not one of the workflow's sites ({})", allowed.join(", ")))
    }
}
