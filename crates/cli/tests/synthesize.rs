//! `statewright synthesize`: a prompt-only state written by the model (a scripted server on
//! loopback) from a page a real run on the demo site stored, shown or saved; the model's
//! checks are held to that stored page, and what it cannot decide is said.

mod common;
mod shop;

use std::path::Path;
use std::process::Output;

use common::statewright;
use common::text;
use serde_json::{Value, json};
use shop::{address_and_site, element_number, prompt_only_copy, summary, synthesis, workflow_copy};
use statewright_llm::testing::{Reply, Rule, ScriptedModel, request_text};

#[test]
fn a_prompt_only_state_is_synthesised_from_a_past_runs_page() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let model = runtime.block_on(ScriptedModel::start(vec![Rule::respond("synthesize", synthesis)]));
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // A run of the complete workflow keeps every page it saw.
    let full = workflow_copy(dir.path());
    let out = statewright(&["run", full.to_str().unwrap(), "--demo-site", "-p", "seed=3", "--json"], &runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let run_id = summary(&out)["run_id"].as_str().unwrap().to_owned();
    let shown: Value =
        serde_json::from_slice(&statewright(&["runs", "show", &run_id, "--json"], &runs).stdout).unwrap();
    let step =
        shown["steps"].as_array().unwrap().iter().find(|s| s["state"] == "Login page").unwrap()["step"].to_string();

    let workflow = prompt_only_copy(dir.path());
    let url = model.url();
    let ask = |extra: &[&str]| synthesize(&runs, &workflow, "Login page", (&run_id[..8], &step), &url, extra);
    let out = ask(&["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["checks"][0]["value"], "{{site}}/login.html", "{result}");
    assert_eq!(result["saved_to"], Value::Null, "nothing is written without --save");
    assert!(!std::fs::read_to_string(&workflow).unwrap().contains("#username"));

    let out = ask(&["--save"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("+"), "the diff is shown");
    let saved = std::fs::read_to_string(&workflow).unwrap();
    assert!(saved.contains("#username") && saved.contains("{{password}}"), "{saved}");

    // A state that has no prompt, a step that does not exist: clear errors, exit 2.
    let out = synthesize(&runs, &workflow, "Cart", (&run_id, &step), &url, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("has no prompt"), "{}", text(&out.stderr));
    let out = synthesize(&runs, &workflow, "Home page", (&run_id, "999"), &url, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("has no step 999"), "{}", text(&out.stderr));

    // A model that writes a secret's value into the state (here a check on it) is
    // refused: saved, the value would sit in the workflow file in plain text.
    let leaky = runtime.block_on(ScriptedModel::start(vec![Rule::respond("synthesize", |request: &Value| {
        let n = |role: &str, name: &str| element_number(request, role, name);
        Reply::json(json!({"kind": "synthesize", "state": "Home page",
            "checks": [{"type": "element", "selector": "#hero"}, {"type": "text", "value": "correct horse battery staple", "negate": true}],
            "actions": [{"kind": "click", "element": n("link", "Sign in")}]}))
    })]));
    let home =
        shown["steps"].as_array().unwrap().iter().find(|s| s["state"] == "Home page").unwrap()["step"].to_string();
    let before = std::fs::read_to_string(&workflow).unwrap();
    let leaky_url = leaky.url();
    let out = synthesize(&runs, &workflow, "Home page", (&run_id, &home), &leaky_url, &["--save"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("holds the value of the secret `password`"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&workflow).unwrap(), before, "nothing is saved");
}

/// `statewright synthesize WORKFLOW STATE --run RUN --step STEP` with the model at `model`,
/// and `extra`.
fn synthesize(
    runs: &Path,
    workflow: &Path,
    state: &str,
    (run, step): (&str, &str),
    model: &str,
    extra: &[&str],
) -> Output {
    let mut args = vec!["synthesize", workflow.to_str().unwrap(), state, "--run", run, "--step", step];
    args.extend(["--llm-url", model, "--llm-model", "m"]);
    args.extend(extra);
    statewright(&args, runs)
}

/// A run of the complete demo workflow, which keeps every page it saw: its id, and the step
/// at which it entered `state`.
fn past_run(dir: &Path, runs: &Path, state: &str) -> (String, String) {
    let full = workflow_copy(dir);
    let out = statewright(&["run", full.to_str().unwrap(), "--demo-site", "-p", "seed=3", "--json"], runs);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let run_id = summary(&out)["run_id"].as_str().unwrap().to_owned();
    let shown: Value = serde_json::from_slice(&statewright(&["runs", "show", &run_id, "--json"], runs).stdout).unwrap();
    let step = shown["steps"].as_array().unwrap().iter().find(|s| s["state"] == state).unwrap()["step"].to_string();
    (run_id, step)
}

/// The sign-in page written up with `checks` (and its actions).
fn login_page_with(request: &Value, checks: Value) -> Reply {
    let n = |role: &str, name: &str| element_number(request, role, name);
    Reply::json(json!({"kind": "synthesize", "state": "Login page", "checks": checks,
        "actions": [{"kind": "type", "element": n("textbox", "Username"), "text": "{{username}}"},
                    {"kind": "type", "element": n("textbox", "Password"), "text": "{{password}}"},
                    {"kind": "click", "element": n("button", "Sign in")}]}))
}

/// A model that takes the sign-in page for the cart: its address and a text it does not show.
fn cart_claim(request: &Value) -> Reply {
    let (_, site) = address_and_site(request);
    let checks = json!([{"type": "url", "match": "prefix", "value": format!("{site}/cart.html")},
                        {"type": "element", "selector": "#username"},
                        {"type": "text", "value": "Your cart"}]);
    login_page_with(request, checks)
}

const REFUSED: &str = "Your previous answer could not be used: its checks do not hold on the page it was written from";

#[test]
fn checks_that_do_not_hold_on_the_stored_page_are_refused_and_the_model_asked_again() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let (run_id, step) = past_run(dir.path(), &runs, "Login page");
    let workflow = prompt_only_copy(dir.path());
    let before = std::fs::read_to_string(&workflow).unwrap();
    let ask = |model: &ScriptedModel, extra: &[&str]| {
        synthesize(&runs, &workflow, "Login page", (&run_id, &step), &model.url(), extra)
    };

    // Twice the cart: refused with the checks that do not hold, nothing saved, exit 1.
    let careless = runtime.block_on(ScriptedModel::start(vec![Rule::respond("synthesize", cart_claim)]));
    let out = ask(&careless, &["--save"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("its checks do not hold on the page it was written from"), "{stderr}");
    assert!(stderr.contains("/cart.html\"") && stderr.contains("text \"Your cart\""), "{stderr}");
    assert!(stderr.contains("/login.html titled \"Sign in"), "the page is named: {stderr}");
    assert!(!stderr.contains("element \"#username\";"), "a check that holds is not blamed: {stderr}");
    let asked = careless.requests();
    assert_eq!(asked.len(), 2, "asked once more");
    assert!(!request_text(&asked[0]).contains(REFUSED));
    assert!(request_text(&asked[1]).contains(REFUSED), "the model is told why");
    assert_eq!(std::fs::read_to_string(&workflow).unwrap(), before, "nothing is saved");

    // Told why, the model writes the sign-in page: that is what is saved.
    let rules = vec![Rule::respond(REFUSED, synthesis), Rule::respond("synthesize", cart_claim)];
    let corrected = runtime.block_on(ScriptedModel::start(rules));
    let out = ask(&corrected, &["--save", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["model_calls"], 2, "{result}");
    assert_eq!(result["undecided"], json!([]), "the stored page decides every check: {result}");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&workflow).unwrap()).unwrap();
    let login = saved["states"].as_array().unwrap().iter().find(|s| s["name"] == "Login page").unwrap().clone();
    assert_eq!(login["checks"][0]["value"], "{{site}}/login.html", "{login}");
}

#[test]
fn checks_the_stored_page_cannot_decide_are_named_and_the_state_accepted() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let (run_id, step) = past_run(dir.path(), &runs, "Login page");
    let workflow = prompt_only_copy(dir.path());
    // The heading is on the page, but the step's snapshot keeps only interactive elements.
    let model = runtime.block_on(ScriptedModel::start(vec![Rule::respond("synthesize", |request: &Value| {
        let (_, site) = address_and_site(request);
        let checks = json!([{"type": "url", "match": "prefix", "value": format!("{site}/login.html")},
                            {"type": "element", "selector": "main h1"},
                            {"type": "text", "match": "contains", "value": "Welcome back"}]);
        login_page_with(request, checks)
    })]));
    let out = synthesize(&runs, &workflow, "Login page", (&run_id, &step), &model.url(), &["--json"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["model_calls"], 1, "{result}");
    let undecided = result["undecided"].as_array().unwrap();
    assert_eq!(undecided.len(), 1, "{result}");
    assert!(
        undecided[0].as_str().unwrap().starts_with("element \"main h1\": the step's snapshot keeps only"),
        "{result}"
    );
    assert!(
        stderr.contains("not decided from the stored page (a run holds it to the live page): element \"main h1\""),
        "{stderr}"
    );
}
