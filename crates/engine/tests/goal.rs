//! Runs with a goal (`goto`): the route is planned from the state the page is in, planned
//! again when the page lands off it, and the run ends when the goal is recognised, without
//! running the goal's actions. A goal no known transition leads to fails the run.

mod common;

use std::sync::Arc;

use common::*;
use serde_json::json;
use statewright_engine::scripted::ScriptedDriver;
use statewright_engine::{Event, Failure, Goal, RunOptions, RunStatus};
use statewright_graph::{Graph, Planner};
use statewright_workflow::Workflow;

const LOGIN: &str = "https://app.test/login";
const WELCOME: &str = "https://app.test/welcome";
const DASHBOARD: &str = "https://app.test/dashboard";

fn flow() -> Workflow {
    let with_next = |mut s: serde_json::Value, next: &[&str]| {
        s["next"] = json!(next);
        s
    };
    workflow(
        json!({}),
        vec![
            success("Settings", json!([text("Settings saved")])),
            with_next(state("Dashboard", json!([url_starts(DASHBOARD)]), json!([click("#settings")])), &["Settings"]),
            with_next(state("Welcome", json!([url_starts(WELCOME)]), json!([click("#skip")])), &["Dashboard"]),
            with_next(state("Login", json!([url_starts(LOGIN)]), json!([click("#submit")])), &["Dashboard", "Welcome"]),
            with_next(state("Home", json!([url_is(URL)]), json!([click("#sign-in")])), &["Login"]),
        ],
    )
}

fn goal(workflow: &Workflow, target: &str) -> RunOptions {
    let planner = Arc::new(Planner::new(&Graph::new(workflow, &[])));
    RunOptions { goal: Some(Goal { target: target.into(), planner }), ..RunOptions::default() }
}

fn routes(ran: &Ran) -> Vec<(Vec<String>, bool)> {
    ran.events
        .iter()
        .filter_map(|e| match e {
            Event::RoutePlanned { route, replanned, .. } => Some((route.clone(), *replanned)),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_goal_run_replans_when_the_page_lands_off_the_route_and_stops_at_the_goal() {
    let wf = flow();
    let mut driver = ScriptedDriver::new(URL)
        .with([show("#sign-in")])
        .on("click #sign-in", ms(100), [go(LOGIN), hide("#sign-in"), show("#submit")])
        // The site shows a welcome page first: off the planned Login → Dashboard.
        .on("click #submit", ms(100), [go(WELCOME), hide("#submit"), show("#skip")])
        .on("click #skip", ms(100), [go(DASHBOARD), hide("#skip"), show("#settings")]);

    let ran = run_opts(&wf, &mut driver, goal(&wf, "Dashboard")).await;

    assert_eq!(ran.report.status, RunStatus::Succeeded, "{}", ran.report.message);
    assert_eq!(ran.report.end_state.as_deref(), Some("Dashboard"));
    assert_eq!(ran.report.message, "reached `Dashboard`");
    assert_eq!(ran.states(), ["Home", "Login", "Welcome", "Dashboard"], "the goal is recorded as a step");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        routes(&ran),
        [(s(&["Home", "Login", "Dashboard"]), false), (s(&["Welcome", "Dashboard"]), true)],
        "planned once, then again from the page the run landed on; staying on the route plans nothing"
    );
    assert_eq!(log(&driver), ["click #sign-in", "click #submit", "click #skip"], "the goal's own actions do not run");
}

#[tokio::test(start_paused = true)]
async fn a_goal_that_is_already_shown_ends_the_run_at_once() {
    let wf = flow();
    let mut driver = ScriptedDriver::new(DASHBOARD);
    let ran = run_opts(&wf, &mut driver, goal(&wf, "Dashboard")).await;
    assert_eq!(ran.report.status, RunStatus::Succeeded);
    assert_eq!((ran.report.steps, ran.report.actions), (1, 0));
    assert!(routes(&ran).is_empty(), "no route to plan");
}

#[tokio::test(start_paused = true)]
async fn no_known_way_back_fails_the_run_before_anything_is_done() {
    let wf = flow();
    let mut driver = ScriptedDriver::new(DASHBOARD);
    let ran = run_opts(&wf, &mut driver, goal(&wf, "Home")).await;
    assert_eq!(ran.report.status, RunStatus::Failed);
    assert_eq!(ran.report.failure, Some(Failure::NoRoute { from: "Dashboard".into(), to: "Home".into() }));
    assert!(ran.report.message.contains("no known way from `Dashboard` to `Home`"), "{}", ran.report.message);
    assert!(log(&driver).is_empty(), "nothing was clicked");
}
