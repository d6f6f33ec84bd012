//! The demo shop's workflow for the tests with a model: a copy with short timeouts, one
//! whose home and sign-in pages are known only by prompts, and what a model writes for them.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use statewright_llm::testing::{Reply, request_text};

use crate::common::{repo, text};

/// A copy of the demo workflow with short timeouts, so failures surface in seconds.
pub fn workflow_copy(dir: &Path) -> PathBuf {
    let mut workflow: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("workflows/demo-shop.json")).unwrap()).unwrap();
    workflow["config"] = json!({ "no_states_timeout": 4, "action_timeout": 3 });
    let path = dir.join("shop.json");
    std::fs::write(&path, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    path
}

/// The number of the element listed as `role "name"` in the prompt.
pub fn element_number(request: &Value, role: &str, name: &str) -> Option<u64> {
    let wanted = format!("] {role} {name:?}");
    request_text(request)
        .lines()
        .find(|l| l.starts_with('[') && l.contains(&wanted))
        .and_then(|l| l[1..l.find(']')?].parse().ok())
}

pub fn summary(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("no JSON summary: {}", text(&out.stderr)))
}

/// The demo workflow with its home and sign-in pages known only by prompts.
pub fn prompt_only_copy(dir: &Path) -> PathBuf {
    let path = workflow_copy(dir);
    let mut workflow: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for state in workflow["states"].as_array_mut().unwrap() {
        let prompt = match state["name"].as_str().unwrap() {
            "Home page" => "The shop's landing page: follow the link to sign in",
            "Login page" => "The sign-in form: sign in as {{username}} with {{password}}",
            _ => continue,
        };
        let object = state.as_object_mut().unwrap();
        object.remove("checks");
        object.remove("actions");
        object.insert("prompt".into(), prompt.into());
    }
    std::fs::write(&path, serde_json::to_string_pretty(&workflow).unwrap()).unwrap();
    path
}

/// The address of the page the prompt shows, and its site (`http://host:port`).
pub fn address_and_site(request: &Value) -> (String, String) {
    let prompt = request_text(request);
    let address = prompt.lines().find_map(|l| l.strip_prefix("Address: ")).unwrap_or_default().to_owned();
    let site = address.split('/').take(3).collect::<Vec<_>>().join("/");
    (address, site)
}

/// What a capable model would write for the demo's home and sign-in pages.
pub fn synthesis(request: &Value) -> Reply {
    let (address, site) = address_and_site(request);
    let n = |role: &str, name: &str| element_number(request, role, name);
    let answer = if address.contains("/login.html") {
        json!({"kind": "synthesize", "state": "Login page",
               "checks": [{"type": "url", "match": "prefix", "value": format!("{site}/login.html")},
                          {"type": "element", "selector": "#username"},
                          {"type": "text", "value": "Signing in…", "negate": true}],
               "actions": [{"kind": "type", "element": n("textbox", "Username"), "text": "{{username}}"},
                           {"kind": "type", "element": n("textbox", "Password"), "text": "{{password}}"},
                           {"kind": "click", "element": n("button", "Sign in")}]})
    } else {
        json!({"kind": "synthesize", "state": "Home page",
               "checks": [{"type": "url", "match": "prefix", "value": format!("{site}/")}, {"type": "element", "selector": "#hero"}],
               "actions": [{"kind": "click", "element": n("link", "Sign in")}]})
    };
    Reply::json(answer)
}
