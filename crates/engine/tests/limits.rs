//! How runs end other than by walking to a success terminal: failure terminals, the
//! recursion limit, cancellation, and configuration values at the edge of what validation
//! accepts.

mod common;

use common::*;
use serde_json::json;
use statewright_engine::scripted::ScriptedDriver;
use statewright_engine::{Cancel, Event, Failure, RunStatus};
use statewright_workflow::{Outcome, Params};

#[tokio::test(start_paused = true)]
async fn a_loop_between_states_ends_at_the_recursion_limit() {
    let wf = workflow(
        json!({ "recursion_limit": 5 }),
        vec![
            state("A", json!([el("#a")]), json!([click("#a")])),
            state("B", json!([el("#b")]), json!([click("#b")])),
            unreachable_end(),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#a")]).on("click #a", ms(10), [hide("#a"), show("#b")]).on(
        "click #b",
        ms(10),
        [hide("#b"), show("#a")],
    );
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.failure(), &Failure::RecursionLimit { limit: 5 }, "the 6th state entry exceeds the limit of 5");
    let visits: Vec<(String, u32)> = ran.entries().into_iter().map(|e| (e.state, e.visit)).collect();
    assert_eq!(
        visits,
        [("A".into(), 1), ("B".into(), 1), ("A".into(), 2), ("B".into(), 2), ("A".into(), 3)],
        "exactly `recursion_limit` entries happen, with per-state visit counts"
    );
    assert_eq!(log(&driver).len(), 5, "the entry over the limit runs no actions");
}

#[tokio::test(start_paused = true)]
async fn a_failure_terminal_state_runs_its_actions_then_fails_the_run() {
    let wf = workflow(
        json!({}),
        vec![
            json!({
                "name": "Denied",
                "checks": [text("Access denied")],
                "actions": [{ "type": "screenshot", "filename": "denied.png" }],
                "terminal": { "outcome": "failure", "message": "credentials rejected" },
            }),
            state("Login", json!([el("#user")]), json!([click("#submit")])),
            success("Home", json!([el("#home")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#user"), show("#submit")]).on(
        "click #submit",
        ms(300),
        [show_text("Access denied")],
    );
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Failed, "a failure outcome fails the run");
    assert_eq!(
        ran.failure(),
        &Failure::FailureState { state: "Denied".into(), message: "credentials rejected".into() },
        "the failure names the terminal state and its message"
    );
    assert_eq!(ran.report.end_state.as_deref(), Some("Denied"), "the run still ended in a (failure) terminal state");
    assert_eq!(ran.report.outcome, Some(Outcome::Failure));
    assert_eq!(log(&driver), ["click #submit", "screenshot"], "a terminal state's actions run before the run ends");
}

#[tokio::test(start_paused = true)]
async fn cancelling_mid_run_ends_it_as_cancelled_with_a_run_finished_event() {
    let wf = workflow(json!({}), vec![state("Waiting", json!([el("#w")]), json!([wait(100.0)])), unreachable_end()]);
    let mut driver = ScriptedDriver::new(URL).with([show("#w")]);
    let cancel = Cancel::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(ms(2000)).await;
        trigger.cancel("terminated (SIGTERM)");
    });
    let params = Params::bind(&wf, &[]).unwrap();
    let ran = run_with(&wf, &params, &mut driver, cancel).await;
    assert_eq!(ran.report.status, RunStatus::Cancelled, "cancellation ends the run as cancelled");
    assert_eq!(ran.report.failure, None, "a cancelled run has no failure");
    assert_eq!(ran.report.message, "cancelled: terminated (SIGTERM)", "the run says why it was cancelled");
    assert_eq!(as_ms(ran.elapsed), 2000, "cancellation interrupts the 100 s wait at once");
    assert!(
        matches!(ran.events.last(), Some(Event::RunFinished { status: RunStatus::Cancelled, message, .. })
            if message == &ran.report.message),
        "RunFinished is still emitted, with the reason, last: {:?}",
        ran.events.last()
    );
    assert!(
        ran.events.iter().any(|e| matches!(e, Event::Observed { step: 1, .. })),
        "the in-flight observation of step 1 still reaches the record"
    );
    assert!(
        !ran.events.iter().any(|e| matches!(e, Event::ActionFinished { .. })),
        "the interrupted wait never finished"
    );
}

/// Cancelling drops the state's actions mid-way: the ones done before still count, as
/// their records do.
#[tokio::test(start_paused = true)]
async fn a_cancelled_run_counts_the_actions_it_performed() {
    let wf = workflow(
        json!({}),
        vec![state("Waiting", json!([el("#w")]), json!([click("#w"), wait(100.0)])), unreachable_end()],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#w")]);
    let cancel = Cancel::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(ms(2000)).await;
        trigger.cancel("interrupted (SIGINT, Ctrl+C)");
    });
    let params = Params::bind(&wf, &[]).unwrap();
    let ran = run_with(&wf, &params, &mut driver, cancel).await;
    assert_eq!(ran.report.status, RunStatus::Cancelled);
    assert_eq!(ran.finished_actions().len(), 1, "the click finished, the wait did not");
    assert_eq!((ran.report.steps, ran.report.actions), (1, 1), "the click is counted");
    assert!(
        matches!(ran.events.last(), Some(Event::RunFinished { actions: 1, .. })),
        "and said so at the end: {:?}",
        ran.events.last()
    );
}

#[tokio::test(start_paused = true)]
async fn enormous_timeouts_mean_practically_never_rather_than_a_crash() {
    // Validation caps durations at a day, the nearest thing to "forever" a workflow can write.
    let wf = workflow(
        json!({ "no_states_timeout": 86400, "state_timeout": 86400, "action_timeout": 86400, "transition_period": 86400 }),
        vec![
            state("Go", json!([el("#go")]), json!([click("#late")])),
            state("Wait", json!([el("#wait")]), json!([])),
            success("Done", json!([el("#done")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL)
        .at(ms(1000), [show("#go")])
        .at(ms(1500), [show("#late")])
        .on("click #late", ms(0), [hide("#go"), show("#wait")])
        .on("click #late", ms(700), [hide("#wait"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(as_ms(ran.elapsed), 2200, "each wait ended when the page changed");
}

#[tokio::test(start_paused = true)]
async fn an_enormous_action_period_waits_until_cancelled_rather_than_crashing() {
    let wf = workflow(
        json!({ "action_period": 86400 }),
        vec![state("Form", json!([el("#f")]), json!([press("Tab"), press("Enter")])), unreachable_end()],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#f")]);
    let cancel = Cancel::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(ms(3000)).await;
        trigger.cancel("the test is over");
    });
    let ran = run_with(&wf, &Params::default(), &mut driver, cancel).await;
    assert_eq!(ran.report.status, RunStatus::Cancelled, "the pause between actions lasted until cancellation");
    assert_eq!(log(&driver), ["press_key Tab"], "the second action is still waiting for its turn");
}

#[tokio::test(start_paused = true)]
async fn a_page_s_megabyte_address_and_title_are_recorded_in_part() {
    // A page's own address (state kept in the query, up to Chromium's 2 MiB) and title (any
    // length a script sets) were kept whole at every step: 80 steps of a 1.5 MB address made
    // a 233 MB run folder and as much in the store, and the process held 650 MB.
    let address = format!("{URL}?state={}", "q".repeat(1_000_000));
    let name = "t".repeat(1_000_000);
    let wf = workflow(
        json!({ "no_states_timeout": 1 }),
        vec![state("Home", json!([el("#go")]), json!([click("#go")])), success("Done", json!([text("Done")]))],
    );
    // Clicked, the page shows neither state: the failure tells the page too.
    let mut driver =
        ScriptedDriver::new(&address).with([show("#go"), title(&name)]).on("click #go", ms(10), [hide("#go")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let kept = |text: &str| text.chars().count() <= 4097 && text.ends_with('…');
    let mut told = 0;
    for event in &ran.events {
        match event {
            Event::StateEntered { url, .. } => assert!(kept(url), "a step's address of {} characters", url.len()),
            Event::Observed { observation, .. } => {
                assert!(kept(&observation.url), "an observed address of {} characters", observation.url.len());
                assert!(kept(&observation.title), "an observed title of {} characters", observation.title.len());
            }
            _ => continue,
        }
        told += 1;
    }
    assert_eq!(told, 2, "the step was entered and observed");
    match ran.failure() {
        Failure::NoState { url, title, .. } => {
            assert!(kept(url) && kept(title), "the failure's page: {} and {} characters", url.len(), title.len());
            assert!(url.starts_with(&format!("{URL}?state=qqq")), "the address's beginning is kept");
        }
        other => panic!("{other:?}"),
    }
}
