//! Times the graph's work on a large workflow: 300 states, 1,000 `next` edges and 200 stored
//! runs of evidence. Prints loading (parse + validate, the baseline every `validate` pays),
//! the static checks, route planning and `paths`' test paths, each as the median of many rounds.
//!
//! `cargo run --release -p statewright-graph --example graph_bench [-- --write FILE]`
//! (`--write` keeps the generated workflow, to time `statewright validate` on it).

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use statewright_graph::{Graph, Planner, Trajectory, Visit, analyze, cover};

const STATES: usize = 300;
const EDGES: usize = 1_000;
const RUNS: usize = 200;

fn main() {
    let text = workflow_text();
    if let Some(at) = std::env::args().position(|a| a == "--write") {
        let path = std::env::args().nth(at + 1).expect("--write FILE");
        std::fs::write(&path, &text).expect("write the workflow");
        eprintln!("wrote {path}");
    }
    let workflow = statewright_workflow::load_str(&text, "bench.json", "bench").expect("valid").workflow;
    let runs = trajectories(&workflow);
    let load = median(20, || {
        let _ = statewright_workflow::load_str(&text, "bench.json", "bench");
    });
    let checks = median(20, || {
        let _ = analyze(&workflow, &runs);
    });
    let graph = Graph::new(&workflow, &runs);
    let planner = Planner::new(&graph);
    let mut pair = 0usize;
    let plan = median(200, || {
        pair = (pair + 7919) % (STATES - 2);
        let _ = planner.route("Start", &format!("S{pair}"));
    });
    let build = median(20, || {
        let _ = Planner::new(&Graph::new(&workflow, &runs));
    });
    let paths = median(5, || {
        let _ = cover(&graph);
    });
    let edges = graph.edge_list().len();
    println!("workflow: {STATES} states, {edges} edges (declared + observed), {RUNS} stored runs");
    println!("load (parse + validate, baseline): {:>8.2} ms", ms(load));
    println!("static checks:                     {:>8.2} ms  ({:.2}× the load)", ms(checks), ratio(checks, load));
    println!("validate in total:                 {:>8.2} ms  (goal: under 100 ms)", ms(load + checks));
    println!("build graph + planner:             {:>8.3} ms", ms(build));
    println!("plan one route:                    {:>8.3} ms  (goal: under 5 ms)", ms(plan));
    println!("test paths (every edge):           {:>8.2} ms", ms(paths));
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let began = Instant::now();
            f();
            began.elapsed()
        })
        .collect();
    times.sort();
    times[rounds / 2]
}

/// A deterministic pseudo-random number stream (xorshift), so every run times the same graph.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn workflow_text() -> String {
    let mut rng = Rng(0x5eed);
    let middle = STATES - 2;
    let mut next: Vec<Vec<usize>> = (0..middle).map(|i| vec![(i + 1) % middle]).collect();
    let mut edges = middle;
    while edges < EDGES - 2 {
        let (from, to) = (rng.below(middle), rng.below(middle));
        if from != to && !next[from].contains(&to) {
            next[from].push(to);
            edges += 1;
        }
    }
    let mut states: Vec<Value> = vec![json!({
        "name": "Done", "checks": [{"type": "text", "value": "All done"}], "terminal": {"outcome": "success"}
    })];
    for (i, next) in next.iter().enumerate() {
        let mut names: Vec<String> = next.iter().map(|n| format!("S{n}")).collect();
        if i == middle - 1 {
            names.push("Done".into());
        }
        states.push(json!({
            "name": format!("S{i}"),
            "description": format!("Page {i} of the benchmark's site"),
            "checks": [
                {"type": "url", "match": "prefix", "value": format!("{{{{site}}}}/page/{i}")},
                {"type": "element", "selector": format!("#page-{i} .main")},
                {"type": "text", "match": "contains", "value": format!("Page {i}"), "negate": i % 5 == 0}
            ],
            "actions": [{"type": "click", "target": {"role": "link", "name": format!("Go from {i}")}}],
            "next": names
        }));
    }
    states.push(json!({
        "name": "Start", "checks": [{"type": "url", "value": "about:blank"}],
        "actions": [{"type": "navigate_to", "url": "{{site}}/page/0"}], "next": ["S0"]
    }));
    let workflow = json!({
        "version": 1, "name": "bench", "parameters": {"site": {"default": "http://127.0.0.1:1"}}, "states": states
    });
    serde_json::to_string_pretty(&workflow).expect("serialises")
}

fn trajectories(workflow: &statewright_workflow::Workflow) -> Vec<Trajectory> {
    let mut rng = Rng(42);
    (0..RUNS)
        .map(|_| {
            let mut at = workflow.states.iter().position(|s| s.name == "S0").expect("S0");
            let mut steps = vec![Visit { state: "Start".into(), elapsed_ms: 0, also_matched: Vec::new() }];
            for step in 1..30u64 {
                let state = &workflow.states[at];
                steps.push(Visit { state: state.name.clone(), elapsed_ms: step * 250, also_matched: Vec::new() });
                let Some(next) = state.next.get(rng.below(state.next.len().max(1))) else { break };
                at = workflow.states.iter().position(|s| s.name == *next).expect("declared");
            }
            Trajectory { steps }
        })
        .collect()
}
