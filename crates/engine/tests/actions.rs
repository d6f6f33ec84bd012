//! Running a state's actions: spacing, waits, waiting for targets, errors, and preemption
//! by a higher-priority state (a popup) while an action waits for its blocked target.

mod common;

use common::*;
use serde_json::json;
use statewright_engine::scripted::{Change, ScriptedDriver};
use statewright_engine::{Event, Failure, RunStatus};

#[tokio::test(start_paused = true)]
async fn action_period_pauses_between_the_actions_of_a_state() {
    let wf = workflow(
        json!({ "action_period": 1.5 }),
        vec![
            state("Form", json!([el("#go")]), json!([press("Tab"), press("Tab"), click("#go")])),
            success("Done", json!([el("#done")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#go")]).on("click #go", ms(0), [hide("#go"), show("#done")]);
    driver.action_latency = ms(200);
    let ran = run_to_end(&wf, &mut driver).await;
    let form: Vec<(u64, u64)> =
        ran.finished_actions().iter().filter(|a| a.state == "Form").map(|a| (a.elapsed_ms, a.duration_ms)).collect();
    assert_eq!(
        form,
        [(200, 200), (1900, 200), (3600, 200)],
        "the first action starts at entry; each next one starts action_period (1.5 s) after the previous ended"
    );
    assert_eq!(ran.report.status, RunStatus::Succeeded);
}

#[tokio::test(start_paused = true)]
async fn wait_sleeps_for_its_seconds() {
    let wf = workflow(
        json!({}),
        vec![state("Pause", json!([el("#p")]), json!([wait(2.5), click("#p")])), success("Done", json!([el("#done")]))],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#p")]).on("click #p", ms(0), [hide("#p"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let actions: Vec<(&str, u64, u64)> =
        ran.finished_actions().iter().map(|a| (a.kind, a.elapsed_ms, a.duration_ms)).collect();
    assert_eq!(actions[..2], [("wait", 2500, 2500), ("click", 2500, 0)], "wait takes exactly its 2.5 s");
    assert_eq!(log(&driver), ["click #p"], "the engine waits itself; the driver never sees `wait`");
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
}

fn wait_for_workflow(timeout: f64) -> statewright_workflow::Workflow {
    let wait_for = json!({ "type": "wait_for", "target": { "css": "#results" }, "timeout": timeout });
    workflow(
        json!({ "action_timeout": 10 }),
        vec![
            state("Search", json!([el("#search")]), json!([wait_for, click("#results")])),
            success("Done", json!([el("#done")])),
        ],
    )
}

#[tokio::test(start_paused = true)]
async fn wait_for_waits_until_its_target_shows_up() {
    let wf = wait_for_workflow(5.0);
    let mut driver = ScriptedDriver::new(URL).with([show("#search")]).at(ms(1700), [show("#results")]).on(
        "click #results",
        ms(0),
        [hide("#search"), show("#done")],
    );
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    let first = &ran.finished_actions()[0];
    assert_eq!((first.kind, first.duration_ms), ("wait_for", 1700), "wait_for returns the moment #results shows");
    assert!(first.attempts > 1, "the target was looked for more than once, got {}", first.attempts);
    assert_eq!(log(&driver), ["wait_for #results", "click #results"]);
}

#[tokio::test(start_paused = true)]
async fn wait_for_fails_after_its_own_timeout_when_the_target_never_shows() {
    let wf = wait_for_workflow(2.0);
    let mut driver = ScriptedDriver::new(URL).with([show("#search")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let Failure::Action { state, index, action, error } = ran.failure() else {
        panic!("expected an action failure, got {:?}", ran.failure());
    };
    assert_eq!((state.as_str(), *index, action.as_str()), ("Search", 0, "wait_for"), "the failure names the action");
    assert!(error.contains("not_found"), "the error says the target was not found: {error}");
    // Numbered from 1, as everywhere a person reads it (the editor, the review panel).
    assert!(ran.report.message.starts_with("in state `Search`, action 1 (wait_for) failed"), "{}", ran.report.message);
    assert_eq!(as_ms(ran.elapsed), 2000, "wait_for's own timeout (2 s) applies, not action_timeout (10 s)");
}

fn late_target_workflow() -> statewright_workflow::Workflow {
    workflow(
        json!({ "action_timeout": 5 }),
        vec![state("Form", json!([el("#form")]), json!([click("#late")])), success("Done", json!([el("#done")]))],
    )
}

#[tokio::test(start_paused = true)]
async fn an_action_waits_for_a_target_that_appears_within_action_timeout() {
    let wf = late_target_workflow();
    let mut driver = ScriptedDriver::new(URL).with([show("#form")]).at(ms(3000), [show("#late")]).on(
        "click #late",
        ms(0),
        [hide("#form"), show("#done")],
    );
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    let click = &ran.finished_actions()[0];
    assert_eq!((click.duration_ms, &click.error), (3000, &None), "the click happens as soon as #late appears");
    assert!(click.attempts > 1, "attempts counts the looks for the target, got {}", click.attempts);
}

#[tokio::test(start_paused = true)]
async fn an_action_whose_target_never_appears_fails_after_action_timeout() {
    let wf = late_target_workflow();
    let mut driver = ScriptedDriver::new(URL).with([show("#form")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert!(
        matches!(ran.failure(), Failure::Action { state, index: 0, action, .. } if state == "Form" && action == "click"),
        "a missing target fails the run with an action failure, got {:?}",
        ran.failure()
    );
    assert_eq!(as_ms(ran.elapsed), 5000, "the action gave up exactly at action_timeout");
    let click = &ran.finished_actions()[0];
    assert!(click.error.is_some(), "the ActionFinished event carries the error");
    assert!(log(&driver).is_empty(), "nothing was clicked");
}

#[tokio::test(start_paused = true)]
async fn a_blocked_target_with_no_other_state_to_follow_fails_as_obscured() {
    let wf = late_target_workflow();
    let mut driver = ScriptedDriver::new(URL).with([show("#form"), show("#late"), Change::Block("click #late".into())]);
    let ran = run_to_end(&wf, &mut driver).await;
    let Failure::Action { error, .. } = ran.failure() else {
        panic!("expected an action failure, got {:?}", ran.failure());
    };
    assert!(error.contains("obscured"), "the error says why the target could not be used: {error}");
    assert!(!ran.events.iter().any(|e| matches!(e, Event::ActionPreempted { .. })), "no other state took over");
    assert_eq!(as_ms(ran.elapsed), 5000, "the blocked action waited out action_timeout");
}

#[tokio::test(start_paused = true)]
async fn an_invalid_action_fails_at_once_without_waiting_for_action_timeout() {
    let wf = late_target_workflow();
    let mut driver = ScriptedDriver::new(URL).with([show("#form")]).invalid("click #late");
    let ran = run_to_end(&wf, &mut driver).await;
    assert!(
        matches!(ran.failure(), Failure::Action { error, index: 0, .. } if error.contains("cannot be performed")),
        "an invalid action fails the run with the driver's error, got {:?}",
        ran.failure()
    );
    assert_eq!(as_ms(ran.elapsed), 0, "an invalid action can never succeed, so it is not retried");
    assert_eq!(ran.finished_actions()[0].attempts, 1, "one attempt only");
}

#[tokio::test(start_paused = true)]
async fn a_popup_that_blocks_the_target_preempts_the_action_and_the_state_resumes_after_it() {
    let wf = workflow(
        json!({ "action_period": 1.0, "action_timeout": 10 }),
        vec![
            state("Consent", json!([el("#consent")]), json!([click("#accept")])),
            state("Login", json!([el("#login")]), json!([type_into("#user", "ann"), click("#login")])),
            success("Home", json!([el("#home")])),
        ],
    );
    // The consent popup shows at 0.5 s, between the two actions, and covers the button.
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#user"), show("#login")])
        .at(ms(500), [show("#consent"), show("#accept"), Change::Block("click #login".into())])
        .on("click #accept", ms(0), [hide("#consent"), hide("#accept"), Change::Unblock("click #login".into())])
        .on("click #login", ms(0), [hide("#login"), show("#home")]);
    let ran = run_to_end(&wf, &mut driver).await;

    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    let preempted: Vec<_> = ran
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ActionPreempted { step, state, index, by_state, .. } => {
                Some((*step, state.as_str(), *index, by_state.as_str()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(preempted, [(1, "Login", 1, "Consent")], "the blocked click of Login (step 1) is preempted by Consent");
    assert!(
        !ran.events.iter().any(|e| matches!(e, Event::ActionFinished { step: 1, index: 1, .. })),
        "the preempted click never finished"
    );
    let visits: Vec<(String, u32, u64)> = ran.entries().into_iter().map(|e| (e.state, e.visit, e.elapsed_ms)).collect();
    assert_eq!(
        visits,
        [("Login".into(), 1, 0), ("Consent".into(), 1, 1250), ("Login".into(), 2, 1250), ("Home".into(), 1, 2250)],
        "Consent takes over within one 250 ms slice of the blocked click (at 1 s); then Login is entered \
         again (visit 2) and runs all its actions"
    );
    assert_eq!(
        log(&driver),
        ["type #user", "click #accept", "type #user", "click #login"],
        "the popup is dismissed, then Login starts over"
    );
}

#[tokio::test(start_paused = true)]
async fn an_action_that_opens_a_tab_the_run_goes_on_in_is_followed_by_tab_opened_with_its_address_masked() {
    let token = "tok-51d0";
    let wf = workflow_from(json!({
        "parameters": { "token": { "default": token, "secret": true } },
        "states": [
            state("Shop", json!([el("#account")]), json!([click("#account")])),
            success("Account", json!([url_starts("https://app.test/account")])),
        ],
    }));
    let opened = format!("https://app.test/account?session={token}");
    let mut driver = ScriptedDriver::new(URL).with([show("#account")]).opens_tab("click #account", &opened).on(
        "click #account",
        ms(0),
        [hide("#account")],
    );

    let ran = run_to_end(&wf, &mut driver).await;

    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    let told: Vec<&Event> = ran.events.iter().filter(|e| !matches!(e, Event::Observed { .. })).collect();
    let at = told.iter().position(|e| matches!(e, Event::TabOpened { .. })).expect("a tab_opened event");
    assert!(
        matches!(told[at - 1], Event::ActionFinished { state, index: 0, .. } if state == "Shop"),
        "right after the action that opened the tab: {:?}",
        told[at - 1]
    );
    let Event::TabOpened { step, state, index, url } = told[at] else { unreachable!() };
    assert_eq!((*step, state.as_str(), *index), (1, "Shop", 0));
    assert_eq!(url, "https://app.test/account?session=••••••", "the secret in its address is masked");
    assert_eq!(ran.events.iter().filter(|e| matches!(e, Event::TabOpened { .. })).count(), 1);
}
