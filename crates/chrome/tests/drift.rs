//! The drifted demo site (tests/fixtures/drift/demo-drift.json) is still a working shop:
//! the demo workflow, with the fixes a person would make for the drift, succeeds on it.
//! (Healing and review on the drift are the engine's tests; this one guards the fixture.)

mod common;

use std::path::PathBuf;

use common::run_loaded;
use statewright_demo::Site;
use statewright_engine::RunStatus;
use statewright_workflow::load_str;

fn repo() -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("../..")
}

/// What the drift changes that the workflow refers to: (as written, as on the drifted site).
const FIXES: &[(&str, &str)] = &[
    (r##""selector": "#hero""##, r##""selector": "#welcome""##),
    (r##"{ "css": "#password" }"##, r##"{ "css": "#login-password" }"##),
    (r##"{ "css": "#sign-in" }"##, r##"{ "css": "#login-submit" }"##),
    (r##""name": "Skip for now""##, r##""name": "Continue to the shop""##),
    (r##"{ "css": "#search" }"##, r##"{ "css": "#search-submit" }"##),
    (r##"{ "css": "#quantity" }"##, r##"{ "css": "#order-qty" }"##),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_drifted_demo_site_works_with_a_fixed_workflow() {
    let site = Site::drifted(Site::Demo, &repo().join("tests/fixtures/drift/demo-drift.json")).expect("drift applies");
    let mut text = std::fs::read_to_string(repo().join("workflows/demo-shop.json")).expect("demo workflow");
    for (before, after) in FIXES {
        assert!(text.contains(before), "the demo workflow no longer says {before}: update FIXES and the drift");
        text = text.replace(before, after);
    }
    let workflow = load_str(&text, "demo-shop-fixed.json", "demo-shop").unwrap_or_else(|d| panic!("{d}")).workflow;
    // Seeds 1-4 cover both sides of the "What's new" interstitial and of the consent popup.
    let mut failures = Vec::new();
    for seed in ["1", "2", "3", "4"] {
        let finished = run_loaded(site.clone(), &workflow, &[("seed", seed)]).await;
        if finished.report.status != RunStatus::Succeeded {
            failures.push(format!(
                "seed {seed}: {} (states: {:?})",
                finished.report.message,
                finished.states_entered()
            ));
        }
    }
    assert!(failures.is_empty(), "the drifted site must still work:\n{}", failures.join("\n"));
}
