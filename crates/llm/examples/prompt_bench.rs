//! What the LLM stage costs before the model: for every page of a recorded demo run
//! (`ui/fixtures-public/fixtures/demo-run`, recorded with the real CLI), the prompt's size in
//! tokens (about four characters each, plus the image) and the time to build it, set-of-mark
//! screenshot included. The goal is under 50 ms a prompt.
//!
//! `cargo run --release -p statewright-llm --example prompt_bench`

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use statewright_engine::{EscalationRequest, Failure, Observation};
use statewright_llm::prompt::estimate_tokens;
use statewright_llm::{Client, LlmAdvisor, LlmConfig, Settings};
use statewright_workflow::Params;

fn main() {
    let root = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("../..");
    let fixture = root.join("ui/fixtures-public/fixtures/demo-run");
    let recording: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture.join("recording.json")).expect("the recorded demo run"))
            .expect("JSON");
    let workflow = statewright_workflow::load_file(&root.join("workflows/demo-shop.json")).expect("demo").workflow;
    let params = Params::bind(&workflow, &[]).expect("defaults");
    let config = LlmConfig::new("http://127.0.0.1:1/v1", "bench", None, &Settings::default()).expect("config");
    let advisor = LlmAdvisor::new(Client::new(config).expect("client"), workflow.clone(), params);
    println!("{:<26} {:>9} {:>8} {:>9} {:>10}", "page (state)", "elements", "tokens", "image KB", "build ms");
    let mut worst = Duration::ZERO;
    for step in recording["detail"]["steps"].as_array().expect("steps") {
        let Some(page) = step.get("page").filter(|p| !p.is_null()) else { continue };
        let screenshot = step["screenshot"].as_str().and_then(|p| std::fs::read(fixture.join(p)).ok());
        let state = step["state"].as_str().unwrap_or_default().to_owned();
        let request = EscalationRequest {
            workflow: workflow.name.clone(),
            step: step["step"].as_u64().unwrap_or(0) as u32,
            state: Some(state.clone()),
            failure: Failure::NotVerified { state: state.clone(), attempts: 3, seconds: 5.0 },
            reason: format!("state `{state}` was not verified: its actions ran 3 time(s) and the page did not move on"),
            tried: vec![],
            action: None,
            observation: Some(Observation {
                url: page["url"].as_str().unwrap_or_default().into(),
                title: step["page_title"].as_str().unwrap_or_default().into(),
                text: page["text"].as_str().unwrap_or_default().into(),
                elements: page["elements"].clone(),
                screenshot: screenshot.map(Arc::new),
                tabs: vec![],
            }),
            states: workflow.states.iter().map(|s| s.name.clone()).collect(),
            suggested_checks: vec![],
            unresolved: vec![],
        };
        let mut times: Vec<Duration> = (0..15)
            .map(|_| {
                let began = Instant::now();
                std::hint::black_box(advisor.chat_request(&request));
                began.elapsed()
            })
            .collect();
        times.sort();
        let built = advisor.chat_request(&request);
        let text_tokens = estimate_tokens(&built.system) + estimate_tokens(&built.user);
        let elements = page["elements"].as_array().map_or(0, Vec::len);
        let image_kb = built.images.iter().map(Vec::len).sum::<usize>() as f64 / 1024.0;
        worst = worst.max(times[7]);
        println!(
            "{:<26} {:>9} {:>8} {:>9.1} {:>10.2}",
            truncate(&state, 26),
            elements,
            text_tokens,
            image_kb,
            times[7].as_secs_f64() * 1000.0
        );
    }
    println!("slowest page: {:.2} ms to build its prompt (goal: under 50 ms)", worst.as_secs_f64() * 1000.0);
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
