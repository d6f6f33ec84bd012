//! Run-store throughput: `cargo run --release -p statewright-store --example store_bench`.
//!
//! A "step" is what the engine emits per state entered: `StateEntered`, `Observed` (page
//! text and elements, with or without a screenshot) and one `ActionFinished`: measured with
//! one transaction per event (the recorder when events arrive one by one) and one per step
//! (the recorder batches events that arrive together).

use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use statewright_engine::{CheckResult, Event, Observation, RunStatus};
use statewright_store::{NewRun, Store};
use statewright_workflow::Action;

fn write_run(store: &Store, id: &str, steps: u32, screenshots: bool, per_step: bool) -> f64 {
    let action: Action = serde_json::from_value(json!({"type": "click", "target": {"css": "#go"}})).unwrap();
    let elements = json!(
        (0..20)
            .map(|i| json!({"id": format!("e{i}"), "role": "button", "name": format!("Button {i}")}))
            .collect::<Vec<_>>()
    );
    let text = "Some visible page text. ".repeat(40);
    let started = Instant::now();
    let mut run = store
        .start_run(&NewRun {
            id,
            workflow_name: "bench",
            workflow_json: r#"{"version":1,"name":"bench","states":[]}"#,
            parameters: &json!({"site": "http://127.0.0.1"}),
            browser: "none",
            workflow_path: None,
        })
        .unwrap();
    for step in 1..=steps {
        let events = [
            Event::StateEntered {
                step,
                state: format!("State {}", step % 12),
                state_index: (step % 12) as usize,
                visit: step / 12 + 1,
                elapsed_ms: u64::from(step) * 40,
                url: format!("http://127.0.0.1/page/{}", step % 12),
                checks: vec![
                    CheckResult { check: "url starts with \"http://127.0.0.1/page\"".into(), passed: true },
                    CheckResult { check: "element \"#form\"".into(), passed: true },
                    CheckResult { check: "not text \"Loading\"".into(), passed: true },
                ],
                also_matched: vec![],
            },
            Event::Observed {
                step,
                observation: Observation {
                    url: format!("http://127.0.0.1/page/{}", step % 12),
                    title: "Bench page".into(),
                    text: text.clone(),
                    elements: elements.clone(),
                    // ~60 KB frames, a new one every step (the worst case for dedup).
                    screenshot: screenshots.then(|| {
                        let mut png = vec![0u8; 60_000];
                        png[..4].copy_from_slice(&step.to_le_bytes());
                        png[4..8].copy_from_slice(&fastrand_like(step).to_le_bytes());
                        Arc::new(png)
                    }),
                    tabs: Vec::new(),
                },
            },
            Event::ActionFinished {
                alternatives: Vec::new(),
                to_alternatives: Vec::new(),
                step,
                state: format!("State {}", step % 12),
                index: 0,
                action: action.clone(),
                elapsed_ms: u64::from(step) * 40 + 20,
                duration_ms: 20,
                attempts: 1,
                detail: Some("button#go \"Go\"".into()),
                error: None,
                artifact: None,
                value: None,
            },
        ];
        if per_step {
            store.record_all(&mut run, &events).unwrap();
        } else {
            for e in &events {
                store.record(&mut run, e).unwrap();
            }
        }
    }
    store
        .record(
            &mut run,
            &Event::RunFinished {
                status: RunStatus::Succeeded,
                end_state: Some("Done".into()),
                outcome: None,
                message: String::new(),
                failure: None,
                duration_ms: 1,
                steps,
                actions: steps,
                outputs: Default::default(),
            },
        )
        .unwrap();
    started.elapsed().as_secs_f64()
}

fn fastrand_like(x: u32) -> u32 {
    x.wrapping_mul(2_654_435_761) ^ 0x9e37_79b9
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&Store::default_path(dir.path())).unwrap();
    let n = 10_000;

    for (per_step, how) in [(false, "one transaction per event"), (true, "one transaction per step")] {
        let secs = write_run(&store, &format!("bench-plain-{per_step}"), n, false, per_step);
        println!("write {n} steps without screenshots, {how}: {secs:.2} s = {:.0} steps/s", f64::from(n) / secs);
        let secs = write_run(&store, &format!("bench-shots-{per_step}"), n, true, per_step);
        println!(
            "write {n} steps with a distinct 60 KB screenshot each, {how}: {secs:.2} s = {:.0} steps/s",
            f64::from(n) / secs
        );
    }

    let memory = Store::open_in_memory().unwrap();
    let secs = write_run(&memory, "bench-memory", n, false, false);
    println!(
        "(reference) write {n} steps without screenshots to an in-memory database: {:.0} steps/s",
        f64::from(n) / secs
    );

    write_run(&store, "bench-show", 1_000, true, false);
    let mut best = f64::MAX;
    for _ in 0..5 {
        let started = Instant::now();
        let detail = store.run_detail("bench-show", false).unwrap();
        assert_eq!(detail.steps.len(), 1_000);
        best = best.min(started.elapsed().as_secs_f64() * 1000.0);
    }
    println!("read back a 1,000-step run for `runs show`: {best:.1} ms");
    let started = Instant::now();
    let detail = store.run_detail("bench-show", true).unwrap();
    assert_eq!(detail.steps.len(), 1_000);
    println!(
        "read back a 1,000-step run with page text and elements (`runs show --json`): {:.1} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
}
