//! Skills on the scripted page: `use_skill` runs the skill's states as steps of the run
//! (named `skill › state`), with its arguments as parameters, and copies the outputs asked
//! for; unmet preconditions or postconditions, an unknown skill and a skill that uses itself
//! fail the action with the reason.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use common::*;
use serde_json::{Value, json};
use statewright_engine::scripted::{Change, ScriptedDriver};
use statewright_engine::{Failure, RunOptions, RunStatus};
use statewright_workflow::{Action, Workflow};

/// Signs in as `user`: a skill whose page is the login form and which ends on `#welcome`,
/// reading the greeting into `greeting`.
fn sign_in(pre: Value, post: Value) -> Workflow {
    workflow_from(json!({
        "name": "sign-in",
        "parameters": {"user": {}},
        "skill": {"pre": pre, "post": post},
        "states": [
            state("Form", json!([el("#user")]), json!([type_into("#user", "{{user}}"), click("#go")])),
            {"name": "Welcome", "checks": [el("#welcome")],
             "actions": [{"type": "extract", "target": {"css": "#welcome"}, "into": "greeting"}],
             "terminal": {"outcome": "success"}}
        ]
    }))
}

fn with_skills(skills: &[Workflow]) -> RunOptions {
    let skills = skills.iter().map(|s| (s.name.clone(), s.clone())).collect::<HashMap<_, _>>();
    RunOptions { skills: Arc::new(skills), ..RunOptions::default() }
}

/// Uses the skill on the login page. Its home page shows `#home`, which the scripted page
/// never does: a failed skill is not mistaken for a run that went on by itself.
fn caller(use_skill: Value) -> Workflow {
    caller_ending_at(use_skill, "#home")
}

fn caller_ending_at(use_skill: Value, home: &str) -> Workflow {
    workflow(
        json!({"max_retries": 0}),
        vec![state("Login page", json!([el("#user")]), json!([use_skill])), success("Home", json!([el(home)]))],
    )
}

fn login_page() -> ScriptedDriver {
    ScriptedDriver::new(URL).with([show("#user"), show("#go")]).on(
        "click #go",
        ms(0),
        [hide("#user"), Change::Content("#welcome".into(), "Hello, ann!".into())],
    )
}

#[tokio::test(start_paused = true)]
async fn a_skill_runs_as_steps_of_the_run_and_hands_back_its_outputs() {
    let skill = sign_in(json!([el("#user")]), json!([el("#welcome")]));
    let wf = caller_ending_at(
        json!({"type": "use_skill", "skill": "sign-in", "args": {"user": "ann"}, "outputs": {"hello": "greeting"}}),
        "#welcome",
    );
    let mut driver = login_page();
    let ran = run_opts(&wf, &mut driver, with_skills(&[skill])).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(ran.states(), ["Login page", "sign-in › Form", "sign-in › Welcome", "Home"]);
    assert_eq!(ran.report.outputs["hello"], json!("Hello, ann!"));
    let typed: Vec<String> = driver
        .performed
        .lock()
        .unwrap()
        .iter()
        .filter_map(|a| if let Action::Type { text, .. } = a { Some(text.clone()) } else { None })
        .collect();
    assert_eq!(typed, ["ann"], "the argument is the skill's parameter");
    let skill_action = ran.finished_actions().into_iter().find(|a| a.kind == "use_skill").unwrap();
    assert_eq!((skill_action.state.as_str(), skill_action.error.as_deref()), ("Login page", None));
}

fn failed_message(ran: &Ran) -> String {
    match ran.failure() {
        Failure::Action { action, error, .. } => {
            assert_eq!(action, "use_skill");
            error.clone()
        }
        other => panic!("expected the use_skill action to fail, got {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn unmet_preconditions_stop_the_skill_before_it_acts() {
    let skill = sign_in(json!([el("#user"), {"type": "url", "value": "https://elsewhere.test/"}]), json!([]));
    let wf = caller(json!({"type": "use_skill", "skill": "sign-in", "args": {"user": "ann"}}));
    let mut driver = login_page();
    let ran = run_opts(&wf, &mut driver, with_skills(&[skill])).await;
    let error = failed_message(&ran);
    assert!(
        error.contains("the preconditions of skill `sign-in` do not hold: url = \"https://elsewhere.test/\""),
        "{error}"
    );
    assert!(log(&driver).is_empty(), "nothing was done: {:?}", log(&driver));
}

#[tokio::test(start_paused = true)]
async fn unmet_postconditions_fail_the_skill_after_it_ran() {
    let skill = sign_in(json!([]), json!([el("#welcome"), text("Signed in as {{user}}")]));
    let wf = caller(json!({"type": "use_skill", "skill": "sign-in", "args": {"user": "ann"}}));
    let ran = run_opts(&wf, &mut login_page(), with_skills(&[skill])).await;
    let error = failed_message(&ran);
    assert!(error.contains("the postconditions of skill `sign-in` do not hold: text \"Signed in as ann\""), "{error}");
}

#[tokio::test(start_paused = true)]
async fn a_missing_argument_an_unknown_skill_and_an_unset_output_are_clear_failures() {
    let skill = sign_in(json!([]), json!([]));
    let cases = [
        (json!({"type": "use_skill", "skill": "sign-in"}), "parameter `user` has no default"),
        (json!({"type": "use_skill", "skill": "sign-out"}), "there is no skill `sign-out` (skills: sign-in)"),
        (
            json!({"type": "use_skill", "skill": "sign-in", "args": {"user": "ann"}, "outputs": {"hello": "token"}}),
            "skill `sign-in` did not set `token` (it set: greeting)",
        ),
    ];
    for (action, expected) in cases {
        let ran = run_opts(&caller(action), &mut login_page(), with_skills(std::slice::from_ref(&skill))).await;
        let error = failed_message(&ran);
        assert!(error.contains(expected), "{error}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_skill_that_uses_itself_stops_at_the_nesting_limit() {
    let looping = workflow_from(json!({
        "name": "again",
        "skill": {},
        "states": [
            state("Any", json!([el("#user")]), json!([{"type": "use_skill", "skill": "again"}])),
            success("Never", json!([el("#never")]))
        ]
    }));
    let wf = caller(json!({"type": "use_skill", "skill": "again"}));
    let ran = run_opts(&wf, &mut login_page(), with_skills(&[looping])).await;
    let error = failed_message(&ran);
    assert!(error.contains("nested more than 8 deep"), "{error}");
}
