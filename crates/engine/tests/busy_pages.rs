//! The engine's own looks at the page (to recognise a state, to verify, to re-observe) on a
//! page too busy to answer in time: looked at again within the run's time budget, and shown
//! as no state when it stays busy, which escalates as usual; only a browser that is gone
//! ends the run at once.

mod common;

use common::*;
use serde_json::json;
use statewright_engine::scripted::{BUSY_READ, ScriptedDriver};
use statewright_engine::{Failure, RunStatus};

fn home_then_done() -> statewright_workflow::Workflow {
    workflow(
        json!({"no_states_timeout": 30}),
        vec![state("Home", json!([el("#go")]), json!([click("#go")])), success("Done", json!([text("Done")]))],
    )
}

fn clicked_to_done(driver: ScriptedDriver) -> ScriptedDriver {
    driver.with([show("#go")]).on("click #go", ms(200), [hide("#go"), show_text("Done")])
}

#[tokio::test(start_paused = true)]
async fn a_page_busy_when_the_run_recognises_it_is_read_again_and_the_run_goes_on() {
    let mut driver = clicked_to_done(ScriptedDriver::new(URL).busy(ms(0), 1));

    let ran = run_to_end(&home_then_done(), &mut driver).await;

    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    let entered: Vec<(String, u64)> = ran.entries().into_iter().map(|e| (e.state, e.elapsed_ms)).collect();
    let busy = as_ms(BUSY_READ);
    assert_eq!(
        entered,
        [("Home".to_owned(), busy), ("Done".to_owned(), busy + 200)],
        "Home is recognised once the page answers, after the read it did not answer"
    );
    assert_eq!(log(&driver), ["click #go"]);
}

#[tokio::test(start_paused = true)]
async fn a_page_busy_while_the_run_verifies_is_read_again_and_the_run_goes_on() {
    let mut driver = clicked_to_done(ScriptedDriver::new(URL).busy(ms(1), 1));
    driver.action_latency = ms(10);

    let ran = run_to_end(&home_then_done(), &mut driver).await;

    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(ran.states(), ["Home", "Done"], "verification went on once the page answered");
    assert_eq!(ran.entries()[1].elapsed_ms, 10 + as_ms(BUSY_READ), "Done was seen at the first answer");
}

#[tokio::test(start_paused = true)]
async fn a_page_that_stays_busy_shows_no_state_and_is_escalated_as_such() {
    let mut driver = clicked_to_done(ScriptedDriver::new(URL).busy(ms(0), u32::MAX));

    let ran = run_to_end(&home_then_done(), &mut driver).await;

    assert!(
        matches!(ran.failure(), Failure::NoState { seconds, silent: true, closest, .. } if *seconds == 30.0 && closest.is_empty()),
        "a page never seen is not diagnosed against the states: {:?}",
        ran.failure()
    );
    assert!(
        ran.report.message.contains("the page did not answer once") && !ran.report.message.contains(" at  "),
        "the message says why, not an empty URL: {}",
        ran.report.message
    );
    let reobserved = ran.escalations().into_iter().find(|(stage, ..)| stage == "reobserve");
    assert_eq!(
        reobserved,
        Some(("reobserve".to_owned(), "the page did not answer in time".to_owned(), false)),
        "the escalation chain looked again, and said why it saw nothing"
    );
    assert!(ran.states().is_empty() && log(&driver).is_empty(), "nothing was done on a page never seen");
}

#[tokio::test(start_paused = true)]
async fn a_browser_that_is_gone_ends_the_run_at_once() {
    let mut driver = clicked_to_done(ScriptedDriver::new(URL).gone());

    let ran = run_to_end(&home_then_done(), &mut driver).await;

    // Said once: the run's message reads "the browser failed: …", not "… browser failure: …".
    assert_eq!(ran.failure(), &Failure::Driver { error: "the browser is gone".into() });
    assert_eq!(ran.report.message, "the browser failed: the browser is gone");
    assert_eq!(ran.elapsed, ms(0), "no retry, no escalation");
    assert!(ran.escalations().is_empty());
}

#[tokio::test(start_paused = true)]
async fn each_look_at_a_busy_page_lasts_no_longer_than_the_run_lets_a_page_show_no_state() {
    // A run that may see no state for 2 s: a look at a page that does not answer must not
    // hold it for the driver's whole call budget (10 s a look, 40 s a run, before).
    let wf = workflow(
        json!({"no_states_timeout": 2}),
        vec![state("Home", json!([el("#go")]), json!([click("#go")])), success("Done", json!([text("Done")]))],
    );
    let mut driver = clicked_to_done(ScriptedDriver::new(URL).busy(ms(0), u32::MAX));

    let ran = run_to_end(&wf, &mut driver).await;

    assert!(matches!(ran.failure(), Failure::NoState { seconds, .. } if *seconds == 2.0), "{:?}", ran.failure());
    let looks = ran.escalations().len() as u64 + 2;
    assert!(
        ran.elapsed <= ms(2_000 * looks),
        "{} looks (recognising twice, then one per escalation stage) took {:?}",
        looks,
        ran.elapsed
    );
}

#[tokio::test(start_paused = true)]
async fn a_look_for_a_change_gives_a_busy_page_no_more_than_no_states_timeout_either() {
    // Verifying Home's click has 20 s, but the run lets a page show no state for 2 s only:
    // the look that waits for the page to change gave a busy page 10 s of those 20.
    let wf = workflow(
        json!({"no_states_timeout": 2, "verify_timeout": 20}),
        vec![state("Home", json!([el("#go")]), json!([click("#go")])), success("Done", json!([text("Done")]))],
    );
    // The page is still Home when it stops answering a look, half a second after the click;
    // Done comes at 3 s.
    let mut driver =
        ScriptedDriver::new(URL).with([show("#go")]).on("click #go", ms(3_000), [hide("#go"), show_text("Done")]);
    driver = driver.busy(ms(500), 1);

    let ran = run_to_end(&wf, &mut driver).await;

    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    let done = ran.entries()[1].elapsed_ms;
    assert!(done < 6_000, "Done was seen {done} ms in: the look at the busy page took more than 2 s");
}
