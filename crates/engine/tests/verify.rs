//! Verification after each state: verified by a `next` state, by expectations or by any
//! change; retried when not; interrupts as detours; waiting states.

mod common;

use common::*;
use serde_json::json;
use statewright_engine::scripted::ScriptedDriver;
use statewright_engine::{Failure, RunStatus};

fn with_next(mut state: serde_json::Value, next: &[&str]) -> serde_json::Value {
    state["next"] = json!(next);
    state
}

#[tokio::test(start_paused = true)]
async fn reaching_a_next_state_verifies_the_actions() {
    let wf = workflow(
        json!({}),
        vec![
            success("Done", json!([el("#done")])),
            with_next(state("Form", json!([el("#form")]), json!([click("#go")])), &["Done"]),
        ],
    );
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form"), show("#go")]).on("click #go", ms(300), [show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded);
    let verified = ran.tagged("verified");
    assert_eq!(verified.len(), 1, "{verified:?}");
    assert_eq!(verified[0]["via"], "next");
    assert_eq!(verified[0]["next_state"], "Done");
    assert!(ran.tagged("retrying").is_empty(), "verified at once: no retry");
}

#[tokio::test(start_paused = true)]
async fn unverified_actions_are_retried_then_verified() {
    let wf = workflow(
        json!({ "verify_timeout": 2 }),
        vec![
            success("Done", json!([el("#done")])),
            with_next(state("Form", json!([el("#form")]), json!([click("#go")])), &["Done"]),
        ],
    );
    // The first click takes effect only after 3 s: longer than verify_timeout.
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form"), show("#go")]).on("click #go", ms(3000), [show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded);
    assert_eq!(log(&driver), ["click #go", "click #go"], "one retry");
    let retrying = ran.tagged("retrying");
    assert_eq!(retrying.len(), 1);
    assert_eq!((retrying[0]["attempt"].as_u64(), retrying[0]["max"].as_u64()), (Some(1), Some(2)));
    assert_eq!(ran.states(), ["Form", "Form", "Done"], "a retry is a new step of the same state");
    assert_eq!(ran.entries()[1].visit, 2);
}

#[tokio::test(start_paused = true)]
async fn actions_never_verified_fail_after_the_retries_with_the_chain_recorded() {
    let wf = workflow(
        json!({ "verify_timeout": 2, "max_retries": 2 }),
        vec![
            with_next(state("Form", json!([el("#form")]), json!([click("#go")])), &["Unreachable"]),
            unreachable_end(),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#form"), show("#go")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.failure(), &Failure::NotVerified { state: "Form".into(), attempts: 3, seconds: 2.0 });
    assert_eq!(log(&driver).len(), 3, "the first try and two retries");
    let elapsed = as_ms(ran.elapsed);
    assert!((6000..6600).contains(&elapsed), "three windows of 2 s; took {elapsed} ms");
    let stages: Vec<_> = ran.escalations();
    assert_eq!(
        stages,
        [
            ("reobserve".to_owned(), "still the same state".to_owned(), false),
            ("llm".to_owned(), "skipped: no LLM is configured".to_owned(), false),
            ("human".to_owned(), "skipped: nobody reviews this run".to_owned(), false),
        ],
        "healing does not apply to an unverified state; every other stage is recorded"
    );
}

#[tokio::test(start_paused = true)]
async fn a_state_not_listed_in_next_is_followed_and_reported_as_unlisted() {
    let wf = workflow(
        json!({}),
        vec![
            success("Elsewhere", json!([el("#elsewhere")])),
            with_next(state("Form", json!([el("#form")]), json!([click("#go")])), &["Unreachable"]),
            unreachable_end(),
        ],
    );
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form"), show("#go")]).on("click #go", ms(100), [show("#elsewhere")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.end_state.as_deref(), Some("Elsewhere"));
    assert_eq!(ran.tagged("verified")[0]["via"], "unlisted");
}

#[tokio::test(start_paused = true)]
async fn an_interrupt_is_a_detour_and_verification_resumes_afterwards() {
    let mut popup = state("Popup", json!([el("#popup")]), json!([click("#close")]));
    popup["interrupt"] = json!(true);
    let wf = workflow(
        json!({ "verify_timeout": 2 }),
        vec![
            success("Done", json!([el("#done")])),
            with_next(state("Form", json!([el("#form")]), json!([click("#go")])), &["Done"]),
            // Listed last: interrupts are recognised first wherever they are.
            popup,
        ],
    );
    // The click brings up a popup; the page underneath moves on 1.5 s after it closes.
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#form"), show("#go")])
        .on("click #go", ms(200), [show("#popup"), show("#close")])
        .on("click #close", ms(0), [hide("#popup"), hide("#close")])
        .on("click #close", ms(1500), [show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(ran.states(), ["Form", "Popup", "Done"]);
    let detour = ran.tagged("interrupt_entered");
    assert_eq!(detour.len(), 1);
    assert_eq!((detour[0]["state"].as_str(), detour[0]["interrupted"].as_str()), (Some("Popup"), Some("Form")));
    assert!(ran.tagged("retrying").is_empty(), "the detour is not a verification failure");
    let verified: Vec<_> = ran.tagged("verified").iter().map(|v| (v["state"].clone(), v["via"].clone())).collect();
    assert_eq!(verified, [(json!("Popup"), json!("change")), (json!("Form"), json!("next"))]);
}

#[tokio::test(start_paused = true)]
async fn a_state_without_actions_waits_up_to_state_timeout() {
    let wf = workflow(
        json!({ "verify_timeout": 1, "state_timeout": 10 }),
        vec![
            success("Done", json!([el("#done")])),
            with_next(state("Loading", json!([el("#spinner")]), json!([])), &["Done"]),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#spinner")]).at(ms(6000), [hide("#spinner"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert!(ran.tagged("retrying").is_empty(), "nothing to retry in a waiting state");
}
