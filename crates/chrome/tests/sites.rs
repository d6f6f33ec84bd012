//! Whole workflows on whole sites, over several seeds of their randomness: the bundled demo
//! (native format) and a site with a CliGent workflow written by someone else.

mod common;

use std::path::PathBuf;

use common::run_loaded;
use statewright_demo::Site;
use statewright_workflow::load_file;

fn repo() -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("../..")
}

/// Seeds per site; `STATEWRIGHT_SEEDS=30` soaks longer.
fn seeds() -> u32 {
    std::env::var("STATEWRIGHT_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(6)
}

async fn every_seed_succeeds(site: Site, workflow: PathBuf) {
    let workflow = load_file(&workflow).unwrap_or_else(|d| panic!("{d}")).workflow;
    let mut failures = Vec::new();
    for seed in 1..=seeds() {
        let seed = seed.to_string();
        let finished = run_loaded(site.clone(), &workflow, &[("seed", &seed)]).await;
        if finished.report.status != statewright_engine::RunStatus::Succeeded {
            failures.push(format!(
                "seed {seed}: {} (states: {:?})",
                finished.report.message,
                finished.states_entered()
            ));
        }
    }
    assert!(failures.is_empty(), "every seed must succeed:\n{}", failures.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_workflow_succeeds_on_every_seed() {
    every_seed_succeeds(Site::Demo, repo().join("workflows/demo-shop.json")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_cligent_workflow_succeeds_on_every_seed() {
    let foreign = repo().join("tests/fixtures/foreign");
    every_seed_succeeds(Site::Dir(foreign.join("site")), foreign.join("workflow.json")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_ends_in_the_failure_state() {
    let workflow = load_file(&repo().join("workflows/demo-shop.json")).unwrap_or_else(|d| panic!("{d}")).workflow;
    let finished = run_loaded(Site::Demo, &workflow, &[("seed", "3"), ("password", "wrong")]).await;
    assert_eq!(finished.report.status, statewright_engine::RunStatus::Failed);
    assert_eq!(finished.report.end_state.as_deref(), Some("Login error"), "{}", finished.report.message);
}

/// A continuous state entered round after round is recorded without a screenshot after its
/// first visit: capturing one holds up the browser's input, which is the reaction the
/// state exists for (`scripts/bench latency`), and it would show what the first one showed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_continuous_state_is_screenshotted_on_its_first_visit_only() {
    let text = std::fs::read_to_string(repo().join("workflows/demo-rounds.json")).expect("the rounds workflow");
    let text = text.replace("rounds.html?seed={{seed}}", "rounds.html?seed={{seed}}&rounds=4");
    let workflow =
        statewright_workflow::load_str(&text, "rounds.json", "rounds").unwrap_or_else(|d| panic!("{d}")).workflow;
    let finished = run_loaded(Site::Demo, &workflow, &[("seed", "2")]).await;
    finished.assert_succeeded();
    let mut visits = std::collections::HashMap::new();
    for event in &finished.events {
        if let statewright_engine::Event::StateEntered { step, state, visit, .. } = event {
            visits.insert(*step, (state.clone(), *visit));
        }
    }
    let mut shots: Vec<(u32, bool)> = finished
        .events
        .iter()
        .filter_map(|e| match e {
            statewright_engine::Event::Observed { step, observation } if visits[step].0 == "Rounds" => {
                Some((visits[step].1, observation.screenshot.is_some()))
            }
            _ => None,
        })
        .collect();
    shots.sort();
    assert_eq!(shots, [(1, true), (2, false), (3, false), (4, false)], "a screenshot on the first round only");
}
