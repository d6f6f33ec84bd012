//! The escalation chain (re-observe, heal, LLM, human), every review resolution, and the
//! circuit breakers, on the scripted driver.

mod common;

use std::sync::Arc;

use common::*;
use serde_json::{Value, json};
use statewright_engine::scripted::{Change, ScriptedDriver};
use statewright_engine::{Advisor, Failure, LocatorMemory, Resolution, RunOptions, RunStatus};
use statewright_workflow::{Action, Check, State, Target, TargetField, Workflow};

fn css(selector: &str) -> Target {
    Target { css: Some(selector.into()), ..Target::default() }
}

fn click_action(selector: &str) -> Action {
    serde_json::from_value(click(selector)).unwrap()
}

/// Form (click #go) → Done, with quick timeouts.
fn form_then_done(actions: serde_json::Value) -> statewright_workflow::Workflow {
    workflow(
        json!({ "action_timeout": 1, "verify_timeout": 1, "no_states_timeout": 2 }),
        vec![success("Done", json!([el("#done")])), state("Form", json!([el("#form")]), actions)],
    )
}

#[tokio::test(start_paused = true)]
async fn reobserve_finds_the_page_moved_on_after_an_action_failed() {
    let wf = form_then_done(json!([click("#go"), click("#gone")]));
    // #go works at once; #gone can never be clicked, but the page is already Done.
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#form"), show("#go")])
        .on("click #go", ms(0), [show("#done")])
        .invalid("click #gone");
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(ran.escalations(), [("reobserve".into(), "the page is now state `Done`".into(), true)]);
}

#[tokio::test(start_paused = true)]
async fn a_missing_target_heals_with_a_recorded_alternative() {
    let wf = form_then_done(json!([click("#old")]));
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form"), show("#new")]).on("click #new", ms(0), [show("#done")]);
    let mut locators = LocatorMemory::default();
    locators.insert("Form", 0, TargetField::Target, css("#old"), vec![css("#also-gone"), css("#new")]);
    let ran = run_opts(&wf, &mut driver, RunOptions { locators, ..RunOptions::default() }).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["click #new"], "the first alternative finds nothing; the second works");
    let healed = ran.tagged("healed");
    assert_eq!(healed.len(), 1);
    assert_eq!((healed[0]["from"].clone(), healed[0]["to"].clone()), (json!({"css": "#old"}), json!({"css": "#new"})));
    let heal = ran.escalations().into_iter().find(|(stage, ..)| stage == "heal").expect("the heal stage ran");
    assert!(heal.2, "healing resolved the failure: {heal:?}");

    // Alternatives recorded for another target are not used.
    let mut driver = ScriptedDriver::new(URL).with([show("#form"), show("#new")]);
    let mut locators = LocatorMemory::default();
    locators.insert("Form", 0, TargetField::Target, css("#something-else"), vec![css("#new")]);
    let ran = run_opts(&wf, &mut driver, RunOptions { locators, ..RunOptions::default() }).await;
    assert!(matches!(ran.failure(), Failure::Action { .. }), "{:?}", ran.failure());
    assert!(log(&driver).is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_renamed_drop_zone_heals_with_its_own_recorded_alternatives() {
    let drag = json!({"type": "drag", "target": {"css": "#card"}, "to": {"css": "#done-column"}});
    let wf = form_then_done(json!([drag]));
    // The card is still there; the column it is dropped on was renamed.
    let page = || {
        ScriptedDriver::new(URL).with([show("#form"), show("#card"), show("#column-3")]).on(
            "drag #card to #column-3",
            ms(0),
            [show("#done")],
        )
    };
    let mut locators = LocatorMemory::default();
    // The card's alternatives must not be tried for the column (they would find the card).
    locators.insert("Form", 0, TargetField::Target, css("#card"), vec![css("#column-3")]);
    locators.insert("Form", 0, TargetField::To, css("#done-column"), vec![css("#gone"), css("#column-3")]);
    let mut driver = page();
    let ran = run_opts(&wf, &mut driver, RunOptions { locators, ..RunOptions::default() }).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["drag #card to #column-3"], "the card, dropped on the drop zone's alternative");
    let healed = ran.tagged("healed");
    assert_eq!(healed.len(), 1, "{healed:?}");
    assert_eq!(healed[0]["field"], "to", "the heal names the drag's `to`: {healed:?}");
    assert_eq!(
        (healed[0]["from"].clone(), healed[0]["to"].clone()),
        (json!({"css": "#done-column"}), json!({"css": "#column-3"}))
    );

    // With only the card's alternatives recorded, nothing heals the drop zone.
    let mut locators = LocatorMemory::default();
    locators.insert("Form", 0, TargetField::Target, css("#card"), vec![css("#column-3")]);
    let mut driver = page();
    let ran = run_opts(&wf, &mut driver, RunOptions { locators, ..RunOptions::default() }).await;
    assert!(matches!(ran.failure(), Failure::Action { .. }), "{:?}", ran.failure());
    assert!(log(&driver).is_empty(), "{:?}", log(&driver));
}

#[tokio::test(start_paused = true)]
async fn a_drag_whose_card_and_drop_zone_were_both_renamed_heals_both() {
    let drag = json!({"type": "drag", "target": {"css": "#card"}, "to": {"css": "#done-column"}});
    let wf = form_then_done(json!([drag]));
    let page = || {
        ScriptedDriver::new(URL).with([show("#form"), show("#card-2"), show("#column-3")]).on(
            "drag #card-2 to #column-3",
            ms(0),
            [show("#done")],
        )
    };
    let recorded = |to: Vec<Target>| {
        let mut locators = LocatorMemory::default();
        locators.insert("Form", 0, TargetField::Target, css("#card"), vec![css("#card-2")]);
        locators.insert("Form", 0, TargetField::To, css("#done-column"), to);
        locators
    };
    let mut driver = page();
    let ran =
        run_opts(&wf, &mut driver, RunOptions { locators: recorded(vec![css("#column-3")]), ..RunOptions::default() })
            .await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["drag #card-2 to #column-3"]);
    let healed: Vec<(Value, Value, Value)> =
        ran.tagged("healed").iter().map(|h| (h["field"].clone(), h["from"].clone(), h["to"].clone())).collect();
    assert_eq!(
        healed,
        [
            (json!("target"), json!({"css": "#card"}), json!({"css": "#card-2"})),
            (json!("to"), json!({"css": "#done-column"}), json!({"css": "#column-3"})),
        ],
        "one proposed change for each element"
    );

    // With nothing recorded that finds the drop zone, the run says the card was found.
    let mut driver = page();
    let ran =
        run_opts(&wf, &mut driver, RunOptions { locators: recorded(vec![css("#gone")]), ..RunOptions::default() })
            .await;
    assert!(matches!(ran.failure(), Failure::Action { .. }), "{:?}", ran.failure());
    assert!(ran.tagged("healed").is_empty());
    let said: Vec<String> =
        ran.tagged("escalated").iter().map(|e| e["outcome"].as_str().unwrap_or_default().to_owned()).collect();
    assert!(
        said.contains(
            &r##"target healed with {"css":"#card-2"}, but none of 1 alternatives found the element"##.to_owned()
        ),
        "{said:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_popup_over_a_healing_alternative_is_handled_and_the_alternative_tried_again() {
    // #old is gone; #new, its recorded alternative, shows up as a consent popup covers the
    // page, after the action gave up on #old and while healing tries #new. Healing must not
    // fail it as obscured: the popup is handled as a detour, then #new is tried again.
    let mut popup = state("Popup", json!([el("#popup")]), json!([click("#close")]));
    popup["interrupt"] = json!(true);
    let wf = workflow(
        json!({ "action_timeout": 1, "verify_timeout": 1, "no_states_timeout": 2 }),
        vec![success("Done", json!([el("#done")])), state("Form", json!([el("#form")]), json!([click("#old")])), popup],
    );
    let covered = "click #new".to_owned();
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#form")])
        .at(ms(1100), [show("#new"), show("#popup"), show("#close"), Change::Block(covered.clone())])
        .on("click #close", ms(0), [hide("#popup"), hide("#close"), Change::Unblock(covered)])
        .on("click #new", ms(0), [show("#done")]);
    let mut locators = LocatorMemory::default();
    locators.insert("Form", 0, TargetField::Target, css("#old"), vec![css("#new")]);
    let ran = run_opts(&wf, &mut driver, RunOptions { locators, ..RunOptions::default() }).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["click #close", "click #new"]);
    assert!(ran.states().contains(&"Popup".to_owned()), "the detour is recorded: {:?}", ran.states());
    let healed = ran.tagged("healed");
    assert_eq!(healed.len(), 1, "{healed:?}");
    assert_eq!(healed[0]["to"], json!({"css": "#new"}));
}

fn element_check(selector: &str) -> Check {
    serde_json::from_value(el(selector)).unwrap()
}

/// Home (url + element #signin, click #go) → Done; #signin has been renamed on the page.
fn renamed_sign_in(alternatives: Vec<Target>) -> (statewright_workflow::Workflow, ScriptedDriver, RunOptions) {
    let wf = workflow(
        json!({ "no_states_timeout": 5 }),
        vec![
            success("Done", json!([el("#done")])),
            state("Home", json!([url_is(URL), el("#signin")]), json!([click("#go")])),
        ],
    );
    let driver = ScriptedDriver::new(URL)
        .with([show("#login-link"), show("a[href=\"/login\"]"), show("body > nav > a:nth-of-type(2)"), show("#go")])
        .on("click #go", ms(0), [show("#done")]);
    let mut locators = LocatorMemory::default();
    locators.insert_check("Home", 1, element_check("#signin"), alternatives);
    (wf, driver, RunOptions { locators, ..RunOptions::default() })
}

#[tokio::test(start_paused = true)]
async fn a_renamed_element_check_heals_with_a_recorded_alternative() {
    let link = Target { role: Some("link".into()), name: Some("Sign in".into()), ..Target::default() };
    let recorded = vec![link, css("body > nav > a:nth-of-type(2)"), css("#gone-too"), css("a[href=\"/login\"]")];
    let (wf, mut driver, options) = renamed_sign_in(recorded);
    let ran = run_opts(&wf, &mut driver, options).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    let healed = ran.tagged("check_healed");
    assert_eq!(healed.len(), 1, "{:?}", ran.events);
    assert_eq!(healed[0]["state"], "Home");
    assert_eq!(healed[0]["index"], 1);
    assert_eq!(healed[0]["from"], el("#signin"));
    // A role and a name are no selector, and a position is no evidence of the page: the
    // first locator by content that finds the element wins.
    assert_eq!(healed[0]["to"], el("a[href=\"/login\"]"));
    assert_eq!(log(&driver), ["click #go"], "Home was recognised and its action ran");
    assert!(
        ran.report.duration < std::time::Duration::from_secs(5),
        "healed before no_states_timeout: {:?}",
        ran.report.duration
    );
}

#[tokio::test(start_paused = true)]
async fn a_renamed_element_check_heals_in_the_escalation_when_no_state_matched_too_soon_to_heal() {
    // `no_states_timeout` ends before healing while waiting would start: the escalation's
    // heal stage tries the recorded alternatives on the page as it is.
    let (mut wf, mut driver, options) = renamed_sign_in(vec![css("a[href=\"/login\"]")]);
    wf.config.no_states_timeout = 0.5;
    let ran = run_opts(&wf, &mut driver, options).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    let heal = ran.escalations().into_iter().find(|(stage, ..)| stage == "heal").expect("the heal stage ran");
    assert_eq!(heal, ("heal".into(), "healed element checks".into(), true));
    assert_eq!(ran.tagged("check_healed").len(), 1);
    assert_eq!(log(&driver), ["click #go"]);
}

#[tokio::test(start_paused = true)]
async fn a_check_heals_only_when_it_alone_keeps_its_state_from_matching() {
    // Only a position was recorded: not evidence enough for a check.
    let (wf, mut driver, options) = renamed_sign_in(vec![css("body > nav > a:nth-of-type(2)")]);
    let ran = run_opts(&wf, &mut driver, options).await;
    assert!(matches!(ran.failure(), Failure::NoState { .. }), "{:?}", ran.failure());
    assert!(ran.tagged("check_healed").is_empty());

    // The URL check fails too: this is another page, whatever its links are called.
    let (mut wf, mut driver, options) = renamed_sign_in(vec![css("a[href=\"/login\"]")]);
    wf.states[1].checks[0] = serde_json::from_value(url_is("https://app.test/elsewhere")).unwrap();
    let ran = run_opts(&wf, &mut driver, options).await;
    assert!(matches!(ran.failure(), Failure::NoState { .. }), "{:?}", ran.failure());
    assert!(ran.tagged("check_healed").is_empty());

    // Alternatives recorded for another check are not used.
    let (mut wf, mut driver, options) = renamed_sign_in(vec![css("a[href=\"/login\"]")]);
    wf.states[1].checks[1] = element_check("#sign-in-link");
    let ran = run_opts(&wf, &mut driver, options).await;
    assert!(matches!(ran.failure(), Failure::NoState { .. }), "{:?}", ran.failure());
}

#[tokio::test(start_paused = true)]
async fn the_llm_stage_applies_advice_and_is_skipped_without_an_advisor() {
    let wf = form_then_done(json!([click("#go")]));
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form"), show("#fix")]).on("click #fix", ms(0), [show("#done")]);
    let advisor: Arc<dyn Advisor> =
        Arc::new(FixedAdvisor(Some(Resolution::Actions { actions: vec![click_action("#fix")] })));
    let ran = run_opts(&wf, &mut driver, RunOptions { advisor: Some(advisor), ..RunOptions::default() }).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["click #fix"]);
    assert!(ran.escalations().contains(&("llm".into(), "advised `actions`".into(), true)));
}

/// A Form whose #go is missing, reviewed by a person answering `answer` after 3 s.
async fn reviewed(answer: Resolution, driver: &mut ScriptedDriver) -> (Ran, Arc<ScriptedReviewer>) {
    let wf = form_then_done(json!([click("#go"), click("#next")]));
    let reviewer = ScriptedReviewer::new([answer], ms(3000));
    let ran = run_opts(&wf, driver, reviewed_by(&reviewer)).await;
    (ran, reviewer)
}

#[tokio::test(start_paused = true)]
async fn a_person_sees_what_failed_and_what_was_tried() {
    let mut driver = ScriptedDriver::new(URL).with([show("#form")]);
    let (ran, reviewer) = reviewed(Resolution::Abort { reason: "not today".into() }, &mut driver).await;
    assert_eq!(ran.failure(), &Failure::Aborted { reason: "not today".into() });
    let requests = reviewer.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.state.as_deref(), Some("Form"));
    assert!(matches!(request.failure, Failure::Action { index: 0, .. }), "{:?}", request.failure);
    let pending = request.action.as_ref().expect("the failed action");
    assert_eq!((pending.state.as_str(), pending.index), ("Form", 0));
    let stages: Vec<_> = request.tried.iter().map(|t| t.stage.as_str()).collect();
    assert_eq!(stages, ["reobserve", "heal", "llm"], "everything before the person, in order");
    assert_eq!(request.states, ["Done", "Form"]);
    assert_eq!(
        request.suggested_checks,
        [serde_json::from_value(json!({"type": "url", "match": "prefix", "value": URL})).unwrap()]
    );
    assert_eq!(ran.tagged("review_requested").len(), 1);
    assert_eq!(ran.tagged("review_resolved")[0]["resolution"]["kind"], "abort");
}

#[tokio::test(start_paused = true)]
async fn retry_runs_the_failed_action_again() {
    // #go shows up while the person looks.
    let mut driver = ScriptedDriver::new(URL).with([show("#form"), show("#next")]).at(ms(2500), [show("#go")]).on(
        "click #next",
        ms(0),
        [show("#done")],
    );
    let (ran, _) = reviewed(Resolution::Retry, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["click #go", "click #next"]);
}

#[tokio::test(start_paused = true)]
async fn skip_goes_past_the_failed_action() {
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form"), show("#next")]).on("click #next", ms(0), [show("#done")]);
    let (ran, _) = reviewed(Resolution::Skip, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["click #next"]);
}

#[tokio::test(start_paused = true)]
async fn corrective_actions_run_and_the_page_is_recognised_again() {
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form"), show("#fix")]).on("click #fix", ms(0), [show("#done")]);
    let (ran, _) = reviewed(Resolution::Actions { actions: vec![click_action("#fix")] }, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["click #fix"]);
    let corrections: Vec<_> = ran.finished_actions().into_iter().filter(|a| a.state == "(correction)").collect();
    assert_eq!(corrections.len(), 1, "the correction is in the record");
}

#[tokio::test(start_paused = true)]
async fn a_popup_over_a_corrective_action_is_handled_and_the_correction_goes_on() {
    // While the run waits for its reviewer, a consent popup covers the page. The person's
    // corrective click must not fail as obscured: the popup is handled as a detour first.
    let mut popup = state("Popup", json!([el("#popup")]), json!([click("#close")]));
    popup["interrupt"] = json!(true);
    let wf = workflow(
        json!({ "action_timeout": 1, "verify_timeout": 1, "no_states_timeout": 2 }),
        vec![success("Done", json!([el("#done")])), state("Form", json!([el("#form")]), json!([click("#go")])), popup],
    );
    let covered = "click #fix".to_owned();
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#form"), show("#fix")])
        .at(ms(2000), [show("#popup"), show("#close"), Change::Block(covered.clone())])
        .on("click #close", ms(0), [hide("#popup"), hide("#close"), Change::Unblock(covered)])
        .on("click #fix", ms(0), [show("#done")]);
    let reviewer = ScriptedReviewer::new([Resolution::Actions { actions: vec![click_action("#fix")] }], ms(3000));
    let ran = run_opts(&wf, &mut driver, reviewed_by(&reviewer)).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["click #close", "click #fix"]);
    assert_eq!(reviewer.requests.lock().unwrap().len(), 1, "no second review");
    assert!(ran.states().contains(&"Popup".to_owned()), "the detour is recorded: {:?}", ran.states());
}

#[tokio::test(start_paused = true)]
async fn declaring_the_state_runs_its_actions() {
    // An unknown page: nothing matches, so the person says it is Form.
    let mut driver =
        ScriptedDriver::new(URL).with([show("#go"), show("#next")]).on("click #next", ms(0), [show("#done")]);
    let (ran, reviewer) = reviewed(Resolution::DeclareState { state: "Form".into() }, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert!(matches!(reviewer.requests()[0].failure, Failure::NoState { .. }));
    assert_eq!(ran.states(), ["Form", "Done"]);
}

#[tokio::test(start_paused = true)]
async fn a_new_state_is_added_and_entered() {
    let mut driver = ScriptedDriver::new(URL).with([show("#interstitial"), show("#continue")]).on(
        "click #continue",
        ms(0),
        [show("#done")],
    );
    let new_state: State =
        serde_json::from_value(state("Interstitial", json!([el("#interstitial")]), json!([click("#continue")])))
            .unwrap();
    let answer = Resolution::NewState { state: Box::new(new_state), before: None };
    let (ran, _) = reviewed(answer, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(ran.states(), ["Interstitial", "Done"]);
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_review_fails_the_run_with_a_review_timeout() {
    let wf = form_then_done(json!([click("#go")]));
    let reviewer = ScriptedReviewer::new([], ms(5000));
    let mut driver = ScriptedDriver::new(URL).with([show("#form")]);
    let ran = run_opts(&wf, &mut driver, reviewed_by(&reviewer)).await;
    assert_eq!(ran.failure(), &Failure::ReviewTimeout { review_id: 1, seconds: 5.0 });
}

#[tokio::test(start_paused = true)]
async fn a_cycle_of_states_trips_the_cycles_breaker() {
    let wf = workflow(
        json!({ "breakers": { "cycles": 2 } }),
        vec![
            state("A", json!([el("#a")]), json!([click("#to-b")])),
            state("B", json!([el("#b")]), json!([click("#to-a")])),
            unreachable_end(),
        ],
    );
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#a"), show("#to-b"), show("#to-a")])
        .on("click #to-b", ms(0), [hide("#a"), show("#b")])
        .on("click #to-a", ms(0), [hide("#b"), show("#a")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let Failure::Breaker { breaker, count, limit, .. } = ran.failure() else { panic!("{:?}", ran.failure()) };
    assert_eq!((breaker.as_str(), *count, *limit), ("cycles", 3, 2));
    assert_eq!(ran.tagged("breaker_tripped").len(), 1);
    assert!(log(&driver).len() <= 8, "the loop was stopped early: {:?}", log(&driver));
}

#[tokio::test(start_paused = true)]
async fn consecutive_failures_skip_the_retries() {
    let wf = workflow(
        json!({ "verify_timeout": 1, "max_retries": 5, "breakers": { "consecutive_failures": 2 } }),
        vec![state("Form", json!([el("#form")]), json!([click("#go")])), unreachable_end()],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#form"), show("#go")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.failure(), &Failure::NotVerified { state: "Form".into(), attempts: 2, seconds: 1.0 });
    assert_eq!(log(&driver).len(), 2, "the second failure forced escalation despite max_retries 5");
    assert_eq!(ran.tagged("breaker_tripped")[0]["breaker"], "consecutive_failures");
}

#[tokio::test(start_paused = true)]
async fn the_same_target_acted_on_again_and_again_trips() {
    let wf = workflow(
        json!({ "breakers": { "same_target": 3 }, "transition_period": 0.1 }),
        vec![continuous("Spin", json!([el("#spin")]), json!([click("#spin")])), unreachable_end()],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#spin")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let Failure::Breaker { breaker, count, .. } = ran.failure() else { panic!("{:?}", ran.failure()) };
    assert_eq!((breaker.as_str(), *count), ("same_target", 4));
}

#[tokio::test(start_paused = true)]
async fn a_continuous_state_whose_page_keeps_changing_is_progress_not_a_loop() {
    // Each click makes the button go away; it comes back 300 ms later for another round.
    // Twelve rounds, then the task is done: far past `same_target` 3, and no breaker trips.
    let wf = workflow(
        json!({ "breakers": { "same_target": 3 }, "transition_period": 0.1 }),
        vec![success("Done", json!([el("#done")])), continuous("Round", json!([el("#spin")]), json!([click("#spin")]))],
    );
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#spin")])
        .on("click #spin", ms(0), [hide("#spin")])
        .on("click #spin", ms(300), [show("#spin")])
        .at(ms(12 * 400 + 150), [show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{:?}", ran.report.failure);
    let clicks = log(&driver).iter().filter(|a| a.as_str() == "click #spin").count();
    assert!(clicks >= 10, "the rounds were played: {clicks} clicks");
    assert!(ran.tagged("breaker_tripped").is_empty());
}

/// A continuous state pressing a key and reading a value back, as a slider is moved to a
/// number: what moves is the value read, which no check looks at.
fn slide(same_target: u32) -> Workflow {
    let read = json!({ "type": "extract", "target": { "css": "#val" }, "into": "at" });
    let reached = json!({ "type": "variable", "name": "at", "match": "at_least", "value": "12" });
    workflow(
        json!({ "breakers": { "same_target": same_target }, "transition_period": 0.1 }),
        vec![
            success("Done", json!([el("#val"), reached])),
            continuous("Slide", json!([el("#val")]), json!([press("ArrowRight"), read])),
        ],
    )
}

#[tokio::test(start_paused = true)]
async fn a_value_read_anew_each_pass_is_progress_not_a_loop() {
    // The value goes up every 150 ms; the state passes every ~100 ms, so a value is read at
    // most twice. Twelve values: far past `same_target` 3.
    let mut driver = ScriptedDriver::new(URL).with([Change::Content("#val".into(), "0".into())]);
    for n in 1..=12 {
        driver = driver.at(ms(150 * n), [Change::Content("#val".into(), n.to_string())]);
    }
    let ran = run_to_end(&slide(3), &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{:?}", ran.report.failure);
    assert!(ran.tagged("breaker_tripped").is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_value_read_the_same_each_pass_is_a_loop() {
    let mut driver = ScriptedDriver::new(URL).with([Change::Content("#val".into(), "3".into())]);
    let ran = run_to_end(&slide(3), &mut driver).await;
    let Failure::Breaker { breaker, count, .. } = ran.failure() else { panic!("{:?}", ran.failure()) };
    assert_eq!((breaker.as_str(), *count), ("same_target", 4));
}

#[tokio::test(start_paused = true)]
async fn entries_of_one_state_and_performances_of_one_action_have_breakers_too() {
    let ping_pong = |breakers: serde_json::Value| {
        workflow(
            json!({ "breakers": breakers }),
            vec![
                state("A", json!([el("#a")]), json!([click("#to-b")])),
                state("B", json!([el("#b")]), json!([click("#to-a")])),
                unreachable_end(),
            ],
        )
    };
    let driver = || {
        ScriptedDriver::new(URL)
            .with([show("#a"), show("#to-b"), show("#to-a")])
            .on("click #to-b", ms(0), [hide("#a"), show("#b")])
            .on("click #to-a", ms(0), [hide("#b"), show("#a")])
    };
    for (breakers, name, count) in [
        (json!({ "cycles": 100, "state_entries": 3 }), "state_entries", 4),
        (json!({ "cycles": 100, "action_attempts": 2 }), "action_attempts", 3),
    ] {
        let ran = run_to_end(&ping_pong(breakers), &mut driver()).await;
        let Failure::Breaker { breaker, count: tripped_at, .. } = ran.failure() else { panic!("{:?}", ran.failure()) };
        assert_eq!((breaker.as_str(), *tripped_at), (name, count));
    }
}

/// A model declaring a terminal state is believed only as far as the page bears it out: a
/// success whose checks fail is refused, the refusal names the failing checks, and the
/// person decides; a declared state whose checks hold is entered, and so is a state the run
/// goes on from (a redesigned page the model says is a known state: what follows is still
/// recognised by its checks).
#[tokio::test(start_paused = true)]
async fn a_models_declared_state_is_entered_only_when_its_checks_hold() {
    let wf = workflow(
        json!({ "action_timeout": 1, "verify_timeout": 1, "no_states_timeout": 2 }),
        vec![
            success("Done", json!([el("#done")])),
            state("Form", json!([el("#form")]), json!([click("#go")])),
            state("Other", json!([el("#other")]), json!([click("#next")])),
        ],
    );
    let advisor: Arc<dyn Advisor> = Arc::new(FixedAdvisor(Some(Resolution::DeclareState { state: "Done".into() })));
    let reviewer = ScriptedReviewer::new([Resolution::Abort { reason: "not done".into() }], ms(1000));
    let options = RunOptions { advisor: Some(advisor), ..reviewed_by(&reviewer) };
    let mut driver = ScriptedDriver::new(URL).with([show("#form")]);
    let ran = run_opts(&wf, &mut driver, options).await;
    assert_eq!(ran.failure(), &Failure::Aborted { reason: "not done".into() }, "{}", ran.report.message);
    let llm = ran.escalations().into_iter().find(|(stage, ..)| stage == "llm").unwrap();
    assert!(!llm.2 && llm.1.contains("refused the model's `declare_state` of `Done`"), "{llm:?}");
    assert!(llm.1.contains("#done"), "the failing check is named: {}", llm.1);
    assert_eq!(reviewer.requests().len(), 1, "the person is asked");

    // The page bears the declaration out: the state is entered and its actions run.
    let advisor: Arc<dyn Advisor> = Arc::new(FixedAdvisor(Some(Resolution::DeclareState { state: "Other".into() })));
    let mut driver = ScriptedDriver::new(URL).with([show("#form"), show("#other"), show("#next")]).on(
        "click #next",
        ms(0),
        [show("#done")],
    );
    let ran = run_opts(&wf, &mut driver, RunOptions { advisor: Some(advisor), ..RunOptions::default() }).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(log(&driver), ["click #next"]);
    let advisor: Arc<dyn Advisor> = Arc::new(FixedAdvisor(Some(Resolution::DeclareState { state: "Other".into() })));
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form"), show("#next")]).on("click #next", ms(0), [show("#done")]);
    let ran = run_opts(&wf, &mut driver, RunOptions { advisor: Some(advisor), ..RunOptions::default() }).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
}
