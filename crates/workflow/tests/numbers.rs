//! Numbers survive a save: writing a workflow and loading it again gives back the very same
//! floating-point values, so `statewright convert` and every saved fix are a fixed point.

use statewright_workflow::{load_str, to_native_json};

#[test]
fn seconds_round_trip_bit_for_bit_through_save_and_load() {
    // A deterministic spread of awkward values: long mantissas at every magnitude in range.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut failures = Vec::new();
    for _ in 0..2000 {
        let exponent = (next() % 10) as i32 - 5;
        let value = (next() as f64 / u64::MAX as f64) * 10f64.powi(exponent) * 8.0;
        let text = format!(
            r#"{{"version": 1, "name": "n", "config": {{"transition_period": {value:e}}},
               "states": [{{"name": "End", "checks": [{{"type": "url", "value": "about:blank"}}],
                            "terminal": {{"outcome": "success"}}}}]}}"#
        );
        let first = load_str(&text, "n.json", "n").expect("valid").workflow;
        let saved = to_native_json(&first);
        let second = load_str(&saved, "n.json", "n").expect("valid").workflow;
        let (a, b) = (first.config.transition_period, second.config.transition_period);
        if a.to_bits() != b.to_bits() || to_native_json(&second) != saved {
            failures.push(format!("{value:e}: {a:e} became {b:e}"));
        }
    }
    assert!(failures.is_empty(), "{} values changed, e.g. {:?}", failures.len(), &failures[..failures.len().min(3)]);
}
