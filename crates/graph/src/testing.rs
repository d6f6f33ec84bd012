//! What the crate's unit tests build their graphs from.

use statewright_workflow::Workflow;

/// A workflow of `states` (JSON, as written in a file).
pub(crate) fn workflow(states: Vec<serde_json::Value>) -> Workflow {
    let text = serde_json::json!({ "version": 1, "name": "t", "states": states }).to_string();
    statewright_workflow::load_str(&text, "t.json", "t").expect("valid").workflow
}

/// Numbers below `k`, the same for the same `seed` on every machine: random graphs that a
/// failing test shows again.
pub(crate) fn numbers(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |k| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % k
    }
}
