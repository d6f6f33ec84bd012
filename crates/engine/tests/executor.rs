//! The run loop's semantics: recognising states, priority, waiting for the page to move on,
//! continuous states and the state/no-state timeouts. Everything runs on the scripted
//! driver under paused tokio time, so every timestamp asserted here is exact.

mod common;

use std::collections::BTreeMap;

use common::*;
use serde_json::json;
use statewright_engine::scripted::ScriptedDriver;
use statewright_engine::{Diagnosis, Event, Failure, RunStatus};
use statewright_workflow::Outcome;

#[tokio::test(start_paused = true)]
async fn happy_path_walks_the_states_in_order_to_a_success_terminal() {
    let login = "https://app.test/login";
    let dashboard = "https://app.test/dashboard";
    let wf = workflow(
        json!({}),
        vec![
            state("Home", json!([url_is(URL), el("#sign-in")]), json!([click("#sign-in")])),
            state(
                "Login",
                json!([url_starts(login), el("#user")]),
                json!([type_into("#user", "ann"), type_into("#pass", "pw"), click("#submit")]),
            ),
            state("Loading", json!([text("Loading…")]), json!([])),
            json!({
                "name": "Dashboard",
                "checks": [url_starts(dashboard), text("Welcome ann")],
                "actions": [{ "type": "screenshot", "filename": "done.png" }],
                "terminal": { "outcome": "success", "message": "signed in" },
            }),
        ],
    );
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#sign-in")])
        .on("click #sign-in", ms(200), [go(login), hide("#sign-in"), show("#user"), show("#pass"), show("#submit")])
        .on("click #submit", ms(100), [go("https://app.test/session"), hide("#user"), show_text("Loading…")])
        .on("click #submit", ms(1500), [go(dashboard), hide_text("Loading…"), show_text("Welcome ann")]);

    let ran = run_to_end(&wf, &mut driver).await;

    let report = &ran.report;
    assert_eq!(report.status, RunStatus::Succeeded, "the run reaches a success terminal: {}", report.message);
    assert_eq!(report.end_state.as_deref(), Some("Dashboard"), "the run ends in the terminal state");
    assert_eq!(report.outcome, Some(Outcome::Success), "the terminal's outcome is the run's outcome");
    assert_eq!(report.message, "signed in", "the terminal's message is the run's message");
    assert_eq!(report.failure, None, "a successful run has no failure");
    let entries = ran.entries();
    let timeline: Vec<(&str, u32, u64)> = entries.iter().map(|e| (e.state.as_str(), e.step, e.elapsed_ms)).collect();
    assert_eq!(
        timeline,
        [("Home", 1, 0), ("Login", 2, 200), ("Loading", 3, 300), ("Dashboard", 4, 1700)],
        "each state is entered once, in page order, with consecutive steps, as soon as its page shows"
    );
    assert_eq!(
        log(&driver),
        ["click #sign-in", "type #user", "type #pass", "click #submit", "screenshot"],
        "every action of every state ran once, in order, terminal actions included"
    );
    assert_eq!((report.steps, report.actions), (4, 5), "the report counts 4 state entries and 5 actions");

    assert!(
        matches!(ran.events.first(), Some(Event::RunStarted { workflow, states: 4 }) if workflow == "test"),
        "RunStarted opens the record"
    );
    let finished = ran.events.iter().filter(|e| matches!(e, Event::RunFinished { .. })).count();
    assert_eq!(finished, 1, "exactly one RunFinished");
    let Some(Event::RunFinished { status, steps, actions, end_state, .. }) = ran.events.last() else {
        panic!("RunFinished must be the last event, got {:?}", ran.events.last());
    };
    assert_eq!(
        (*status, *steps, *actions, end_state.as_deref()),
        (RunStatus::Succeeded, 4, 5, Some("Dashboard")),
        "RunFinished carries the same content as the report"
    );
    let observed: Vec<u32> = ran
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Observed { step, .. } => Some(*step),
            _ => None,
        })
        .collect();
    let mut sorted = observed.clone();
    sorted.sort();
    assert_eq!(sorted, [1, 2, 3, 4], "every step is observed exactly once, before RunFinished (which is last)");

    // Every action is announced before it finishes, within the step of its state.
    let mut started: BTreeMap<(u32, usize), usize> = BTreeMap::new();
    for (position, event) in ran.events.iter().enumerate() {
        match event {
            Event::ActionStarted { step, index, .. } => {
                started.insert((*step, *index), position);
            }
            Event::ActionFinished { step, index, error, attempts, .. } => {
                assert!(started.contains_key(&(*step, *index)), "action {step}/{index} finished before it started");
                assert_eq!((error, *attempts), (&None, 1), "every target was there at once, so no retries");
            }
            _ => {}
        }
    }
    assert_eq!(started.len(), 5, "one ActionStarted per action");
}

fn priority_workflow(first: &str, config: serde_json::Value) -> statewright_workflow::Workflow {
    let specific = json!({ "name": "Specific", "checks": [el("#a"), el("#b")], "terminal": { "outcome": "success" } });
    let general = json!({ "name": "General", "checks": [el("#a")], "terminal": { "outcome": "success" } });
    let states = if first == "Specific" { vec![specific, general] } else { vec![general, specific] };
    workflow(config, states)
}

#[tokio::test(start_paused = true)]
async fn when_several_states_match_the_first_in_order_wins() {
    for first in ["Specific", "General"] {
        let wf = priority_workflow(first, json!({}));
        let mut driver = ScriptedDriver::new(URL).with([show("#a"), show("#b")]);
        let ran = run_to_end(&wf, &mut driver).await;
        assert_eq!(ran.states(), [first], "both states match; state order alone decides, so `{first}` wins");
        assert_eq!(ran.report.end_state.as_deref(), Some(first));
    }
}

#[tokio::test(start_paused = true)]
async fn several_matching_states_fail_as_ambiguous_when_multiple_states_are_not_allowed() {
    let wf = priority_workflow("Specific", json!({ "allow_multiple_states": false }));
    let mut driver = ScriptedDriver::new(URL).with([show("#a"), show("#b")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Failed);
    assert_eq!(
        ran.failure(),
        &Failure::Ambiguous { states: vec!["Specific".into(), "General".into()] },
        "the failure names every matching state, in priority order"
    );
    assert!(ran.entries().is_empty(), "no state is entered when the match is ambiguous");

    // Only one matching: the same workflow runs normally.
    let mut driver = ScriptedDriver::new(URL).with([show("#a")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.end_state.as_deref(), Some("General"), "a single match is not ambiguous");
}

#[tokio::test(start_paused = true)]
async fn states_that_match_together_after_an_action_are_ambiguous_too() {
    // The page two states match is reached by a state's own action, so the run sees it while
    // verifying that action, not while looking for the first state: the rule is the same.
    let specific = json!({ "name": "Specific", "checks": [el("#a"), el("#b")], "terminal": { "outcome": "success" } });
    let general = json!({ "name": "General", "checks": [el("#a")], "terminal": { "outcome": "success" } });
    let start = state("Start", json!([el("#start")]), json!([click("#start")]));
    let wf = workflow(json!({ "allow_multiple_states": false }), vec![specific, general, start]);
    let mut driver = ScriptedDriver::new(URL).with([show("#start")]).on(
        "click #start",
        ms(100),
        [hide("#start"), show("#a"), show("#b")],
    );
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Failed, "{}", ran.report.message);
    assert_eq!(ran.failure(), &Failure::Ambiguous { states: vec!["Specific".into(), "General".into()] });
    assert_eq!(ran.states(), ["Start"], "neither of the two is entered");
}

#[tokio::test(start_paused = true)]
async fn a_state_verified_by_its_expectations_is_stuck_if_it_never_moves_on() {
    let mut form = state("Form", json!([el("#form")]), json!([click("#form")]));
    form["expect"] = json!([el("#form")]);
    let wf = workflow(json!({ "state_timeout": 5, "transition_period": 0.5 }), vec![form, unreachable_end()]);
    // The page keeps changing (the title ticks) but stays in `Form`.
    let mut driver =
        ScriptedDriver::new(URL).with([show("#form")]).at(ms(1000), [title("1")]).at(ms(2300), [title("2")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(
        ran.failure(),
        &Failure::Stuck { state: "Form".into(), seconds: 5.0 },
        "Form still matches after its actions; changes within the state do not count as progress"
    );
    let elapsed = as_ms(ran.elapsed);
    assert!(
        (5000..=5500).contains(&elapsed),
        "Stuck fires state_timeout (5 s) after the actions, within one transition_period; took {elapsed} ms"
    );
    assert_eq!(log(&driver), ["click #form"], "a non-continuous state runs its actions once per entry");
    assert_eq!(ran.states(), ["Form"], "staying in a state is not a new entry");
}

#[tokio::test(start_paused = true)]
async fn no_state_fails_after_no_states_timeout_naming_the_closest_states() {
    let wf = workflow(
        json!({ "no_states_timeout": 3 }),
        vec![
            state("Elsewhere", json!([url_is("https://other.test/"), el("#y")]), json!([])),
            state("Cart", json!([url_is(URL), el("#x"), el("#cart")]), json!([])),
            success("Checkout", json!([url_is(URL), el("#pay")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL).with([show("#x"), title("Shop")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let Failure::NoState { seconds, url, title, closest, silent } = ran.failure() else {
        panic!("expected NoState, got {:?}", ran.failure());
    };
    assert_eq!((*seconds, url.as_str(), title.as_str()), (3.0, URL, "Shop"), "the failure says where the page was");
    assert!(!silent, "the page answered");
    assert_eq!(
        closest,
        &[
            Diagnosis { state: "Cart".into(), passed: 2, total: 3, failing: vec![r##"element "#cart""##.into()] },
            Diagnosis { state: "Checkout".into(), passed: 1, total: 2, failing: vec![r##"element "#pay""##.into()] },
            Diagnosis {
                state: "Elsewhere".into(),
                passed: 0,
                total: 2,
                failing: vec![r#"url = "https://other.test/""#.into(), r##"element "#y""##.into()],
            },
        ],
        "closest states come best-matching first, each with the checks that fail"
    );
    assert_eq!(as_ms(ran.elapsed), 3000, "the failure comes exactly at no_states_timeout");
    assert!(
        ran.report.message.contains(r##"closest: `Cart` (2/3 checks pass; failing: element "#cart")"##),
        "the explanation names the closest state and its failing check: {}",
        ran.report.message
    );
}

#[tokio::test(start_paused = true)]
async fn gaps_shorter_than_no_states_timeout_are_waited_out_and_the_timer_restarts() {
    let wf = workflow(
        json!({ "no_states_timeout": 3 }),
        vec![state("Start", json!([el("#start")]), json!([click("#start")])), success("Done", json!([el("#done")]))],
    );
    // Blank for 2 s, then Start; blank for 2.5 s more, then Done: 4.5 s blank in all.
    let mut driver = ScriptedDriver::new(URL)
        .at(ms(2000), [show("#start")])
        .on("click #start", ms(0), [hide("#start")])
        .on("click #start", ms(2500), [show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "no gap reached the timeout: {}", ran.report.message);
    let timeline: Vec<(String, u64)> = ran.entries().into_iter().map(|e| (e.state, e.elapsed_ms)).collect();
    assert_eq!(
        timeline,
        [("Start".into(), 2000), ("Done".into(), 4500)],
        "each state is entered when it appears; the no-state timer restarts after a state matched"
    );
}

#[tokio::test(start_paused = true)]
async fn states_are_entered_the_instant_the_page_changes_not_at_the_next_tick() {
    let wf = workflow(
        json!({ "transition_period": 1.0 }),
        vec![state("Go", json!([el("#go")]), json!([click("#go")])), success("Done", json!([el("#done")]))],
    );
    let mut driver =
        ScriptedDriver::new(URL).at(ms(1234), [show("#go")]).on("click #go", ms(777), [hide("#go"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let timeline: Vec<(String, u64)> = ran.entries().into_iter().map(|e| (e.state, e.elapsed_ms)).collect();
    assert_eq!(
        timeline,
        [("Go".into(), 1234), ("Done".into(), 2011)],
        "drivers wake on change, so states are entered when they appear (from no state and from a \
         handled state alike), not at transition_period ticks (1 s, 2 s, 3 s)"
    );
}

fn spinner_workflow(continuous_spinner: bool, transition_period: f64) -> statewright_workflow::Workflow {
    let checks = json!([el("#spinner")]);
    let actions = json!([press("End")]);
    let spinner =
        if continuous_spinner { continuous("Spinner", checks, actions) } else { state("Spinner", checks, actions) };
    workflow(json!({ "transition_period": transition_period }), vec![spinner, success("Done", json!([el("#done")]))])
}

#[tokio::test(start_paused = true)]
async fn a_continuous_state_reruns_its_actions_once_per_transition_period_until_the_page_moves_on() {
    let wf = spinner_workflow(true, 0.5);
    let mut driver = ScriptedDriver::new(URL).with([show("#spinner")]).at(ms(2200), [hide("#spinner"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(log(&driver), ["press_key End"; 5], "a continuous state re-runs at 0, 0.5, 1, 1.5 and 2 s");
    let spinner: Vec<(u32, u64)> =
        ran.entries().iter().filter(|e| e.state == "Spinner").map(|e| (e.visit, e.elapsed_ms)).collect();
    assert_eq!(spinner, [(1, 0), (2, 500), (3, 1000), (4, 1500), (5, 2000)], "one pass per transition_period");
    assert_eq!(ran.entries().last().map(|e| e.elapsed_ms), Some(2200), "Done is entered as soon as it shows");
    assert_eq!(ran.report.status, RunStatus::Succeeded);
}

#[tokio::test(start_paused = true)]
async fn a_non_continuous_state_runs_its_actions_once_while_it_lasts() {
    let wf = spinner_workflow(false, 0.5);
    let mut driver = ScriptedDriver::new(URL).with([show("#spinner")]).at(ms(2200), [hide("#spinner"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(log(&driver), ["press_key End"], "a non-continuous state runs its actions once per entry");
    assert_eq!(ran.states(), ["Spinner", "Done"]);
    assert_eq!(ran.report.status, RunStatus::Succeeded);
}

#[tokio::test(start_paused = true)]
async fn a_continuous_state_reruns_as_soon_as_the_page_changes() {
    // "Load more" pages: each change of the page within the state is a new pass, without
    // waiting out the (long) transition_period.
    let wf = spinner_workflow(true, 2.0);
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#spinner")])
        .at(ms(100), [title("page 2")])
        .at(ms(200), [title("page 3")])
        .at(ms(300), [hide("#spinner"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let spinner: Vec<u64> = ran.entries().iter().filter(|e| e.state == "Spinner").map(|e| e.elapsed_ms).collect();
    assert_eq!(
        spinner,
        [0, 100, 200],
        "a continuous state runs at most once per transition_period unless the page changes"
    );
}

#[tokio::test(start_paused = true)]
async fn a_continuous_state_whose_target_goes_and_comes_back_reruns_at_once() {
    // A new round: the page reads as it did before (the same checks hold), but it went
    // through another look in between, and that is progress, not the same page.
    let wf = spinner_workflow(true, 2.0);
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#spinner")])
        .at(ms(100), [hide("#spinner")])
        .at(ms(150), [show("#spinner")])
        .at(ms(300), [hide("#spinner"), show("#done")]);
    let ran = run_to_end(&wf, &mut driver).await;
    let spinner: Vec<u64> = ran.entries().iter().filter(|e| e.state == "Spinner").map(|e| e.elapsed_ms).collect();
    assert_eq!(spinner, [0, 150], "the second round is entered when it shows, not at the next transition_period");
    assert_eq!(ran.report.status, RunStatus::Succeeded);
}

#[tokio::test(start_paused = true)]
async fn a_brief_blank_page_between_two_states_does_not_fail_the_run() {
    let next = "https://app.test/next";
    let wf = workflow(
        json!({ "no_states_timeout": 0.5 }),
        vec![
            state("A", json!([url_is(URL), el("#next")]), json!([click("#next")])),
            success("B", json!([url_is(next), el("#b")])),
        ],
    );
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#next")])
        .on("click #next", ms(0), [go("about:blank"), hide("#next")])
        .on("click #next", ms(100), [go(next), show("#b")]);
    let ran = run_to_end(&wf, &mut driver).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded, "100 ms of nothing is within no_states_timeout");
    let timeline: Vec<(String, u64)> = ran.entries().into_iter().map(|e| (e.state, e.elapsed_ms)).collect();
    assert_eq!(timeline, [("A".into(), 0), ("B".into(), 100)], "B is entered when navigation completes");
}
