//! The static checks, the planner and the test paths on small graphs, and on the bundled
//! workflows (which must have no findings).

use statewright_graph::{FindingKind, Graph, Planner, Trajectory, Visit, analyze, cover};
use statewright_workflow::Workflow;

/// A workflow from a compact JSON list of states (version and name filled in).
fn workflow(states: serde_json::Value) -> Workflow {
    let text = serde_json::json!({ "version": 1, "name": "t", "states": states }).to_string();
    match statewright_workflow::load_str(&text, "t.json", "t") {
        Ok(loaded) => loaded.workflow,
        Err(e) => panic!("test workflow invalid: {e}"),
    }
}

fn state(name: &str, url: &str, next: &[&str]) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "checks": [{ "type": "url", "match": "prefix", "value": url }],
        "actions": [{ "type": "click", "target": { "role": "button", "name": name } }],
        "next": next,
    })
}

fn start(next: &[&str]) -> serde_json::Value {
    serde_json::json!({
        "name": "Start",
        "checks": [{ "type": "url", "value": "about:blank" }],
        "actions": [{ "type": "navigate_to", "url": "http://x/" }],
        "next": next,
    })
}

fn done(name: &str, url: &str, outcome: &str) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "checks": [{ "type": "url", "match": "prefix", "value": url }],
        "terminal": { "outcome": outcome },
    })
}

fn kinds(workflow: &Workflow, runs: &[Trajectory]) -> Vec<(FindingKind, Vec<String>)> {
    analyze(workflow, runs).into_iter().map(|f| (f.kind, f.states)).collect()
}

fn run(states: &[(&str, u64)]) -> Trajectory {
    Trajectory {
        steps: states
            .iter()
            .map(|(s, ms)| Visit { state: (*s).into(), elapsed_ms: *ms, also_matched: Vec::new() })
            .collect(),
    }
}

#[test]
fn a_sound_graph_has_no_findings() {
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        done("Refused", "http://x/refused", "failure"),
        state("Form", "http://x/form", &["Done", "Refused"]),
        state("Home", "http://x/", &["Form"]),
        start(&["Home"]),
    ]));
    assert_eq!(kinds(&w, &[]), vec![]);
}

#[test]
fn unreachable_states_and_states_with_no_way_out() {
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        state("Orphan", "http://x/orphan", &["Done"]),
        state("Loop A", "http://x/a", &["Loop B"]),
        state("Loop B", "http://x/b", &["Loop A"]),
        state("Home", "http://x/", &["Done", "Loop A"]),
        start(&["Home"]),
    ]));
    assert_eq!(
        kinds(&w, &[]),
        vec![
            (FindingKind::Unreachable, vec!["Orphan".into()]),
            (FindingKind::NoWayOut, vec!["Loop A".into()]),
            (FindingKind::NoWayOut, vec!["Loop B".into()]),
        ]
    );
    // A stored run that entered the orphan makes it reachable: evidence counts.
    let seen = run(&[("Start", 0), ("Home", 100), ("Orphan", 300), ("Done", 400)]);
    let found = kinds(&w, &[seen]);
    assert!(!found.iter().any(|(k, _)| *k == FindingKind::Unreachable), "{found:?}");
    assert!(found.contains(&(FindingKind::UndeclaredTransition, vec!["Home".into(), "Orphan".into()])), "{found:?}");
}

#[test]
fn a_workflow_without_a_success_terminal() {
    let w = workflow(serde_json::json!([done("Refused", "http://x/r", "failure"), start(&["Refused"])]));
    assert_eq!(kinds(&w, &[]), vec![(FindingKind::NoSuccessTerminal, vec![])]);
}

#[test]
fn shadowing_by_prefix_and_by_text() {
    // `Cart` is listed first and needs only the prefix; `Cart page` adds a check: every page
    // it matches, `Cart` matches too and wins.
    let mut cart_page = state("Cart page", "http://x/cart.html", &["Done"]);
    cart_page["checks"].as_array_mut().unwrap().push(serde_json::json!({ "type": "element", "selector": "#items" }));
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        state("Cart", "http://x/cart", &["Done"]),
        cart_page,
        start(&["Cart", "Cart page"]),
    ]));
    assert_eq!(kinds(&w, &[]), vec![(FindingKind::Shadowed, vec!["Cart page".into(), "Cart".into()])]);

    // The same two states in the other order are fine: the specific one wins first.
    let mut cart_page = state("Cart page", "http://x/cart.html", &["Done"]);
    cart_page["checks"].as_array_mut().unwrap().push(serde_json::json!({ "type": "element", "selector": "#items" }));
    let w2 = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        cart_page,
        state("Cart", "http://x/cart", &["Done"]),
        start(&["Cart", "Cart page"]),
    ]));
    assert_eq!(kinds(&w2, &[]), vec![]);

    // A negated check that rules the lower state's pages out removes the finding.
    let text_state = |name: &str, text: &str, negate: bool| {
        serde_json::json!({ "name": name, "next": ["Done"], "actions": [{ "type": "press_key", "key": "Enter" }],
          "checks": [{ "type": "text", "match": "contains", "value": text, "negate": negate }] })
    };
    let mut draft = text_state("Saved draft", "Saved draft", false);
    draft["checks"].as_array_mut().unwrap().push(serde_json::json!({ "type": "url", "value": "http://x/d" }));
    let w3 = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        text_state("Saved", "Saved", false),
        draft,
        start(&["Saved", "Saved draft"]),
    ]));
    assert_eq!(kinds(&w3, &[]), vec![(FindingKind::Shadowed, vec!["Saved draft".into(), "Saved".into()])]);
}

#[test]
fn interrupts_win_first_whatever_their_place() {
    let mut popup = state("Popup", "http://x/", &[]);
    popup["interrupt"] = true.into();
    popup.as_object_mut().unwrap().remove("next");
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        state("Home", "http://x/home", &["Done"]),
        popup,
        start(&["Home"]),
    ]));
    // Every page under http://x/home also matches the popup's prefix, and interrupts win.
    let found = kinds(&w, &[]);
    assert!(found.contains(&(FindingKind::Shadowed, vec!["Home".into(), "Popup".into()])), "{found:?}");
}

#[test]
fn evidence_from_stored_runs() {
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        done("Refused", "http://x/refused", "failure"),
        state("Form", "http://x/form", &["Done", "Refused"]),
        state("Home", "http://x/", &["Form"]),
        start(&["Home"]),
    ]));
    let mut runs = vec![
        run(&[("Start", 0), ("Home", 200), ("Form", 500), ("Done", 900)]),
        run(&[("Start", 0), ("Home", 300), ("Form", 700), ("Done", 1000)]),
    ];
    // The lower-priority `Home` matched the form page too, every time, and lost.
    runs[0].steps[2].also_matched = vec!["Home".into()];
    let found = analyze(&w, &runs);
    let never_taken: Vec<_> = found.iter().filter(|f| f.kind == FindingKind::EdgeNeverTaken).collect();
    assert_eq!(never_taken.len(), 1, "{found:?}");
    assert_eq!(never_taken[0].edge, Some(("Form".into(), "Refused".into())));
    assert!(never_taken[0].message.contains("2 stored runs entered `Form`"), "{}", never_taken[0].message);
    // Home was entered, so it is not a never-won state.
    assert!(!found.iter().any(|f| f.kind == FindingKind::NeverWon), "{found:?}");

    let graph = Graph::new(&w, &runs);
    let edge = graph.edge_list().into_iter().find(|e| e.from == "Home" && e.to == "Form").unwrap();
    assert_eq!((edge.evidence.taken, edge.evidence.mean_ms, edge.evidence.declared), (2, Some(350), true));
}

#[test]
fn a_state_that_matched_but_never_won() {
    let mut specific = state("Form (filled)", "http://x/form", &["Done"]);
    specific["checks"] = serde_json::json!([{ "type": "element", "selector": "#filled" }]);
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        state("Form", "http://x/form", &["Done"]),
        specific,
        start(&["Form", "Form (filled)"]),
    ]));
    let mut runs = vec![run(&[("Start", 0), ("Form", 100), ("Done", 300)])];
    runs[0].steps[1].also_matched = vec!["Form (filled)".into()];
    let found = kinds(&w, &runs);
    assert!(found.contains(&(FindingKind::NeverWon, vec!["Form (filled)".into(), "Form".into()])), "{found:?}");
}

#[test]
fn unverifiable_actions() {
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        state("Again", "http://x/again", &["Again"]),
        start(&["Again", "Done"]),
    ]));
    let found = kinds(&w, &[]);
    assert!(found.contains(&(FindingKind::Unverifiable, vec!["Again".into()])), "{found:?}");
}

#[test]
fn an_interrupt_in_a_run_is_a_detour_not_a_transition() {
    let mut popup = state("Popup", "http://x/popup", &[]);
    popup["interrupt"] = true.into();
    popup.as_object_mut().unwrap().remove("next");
    let w = workflow(serde_json::json!([
        popup,
        done("Done", "http://x/done", "success"),
        state("Home", "http://x/", &["Done"]),
        start(&["Home"]),
    ]));
    let runs = [run(&[("Start", 0), ("Home", 100), ("Popup", 150), ("Home", 250), ("Done", 400)])];
    let found = kinds(&w, &runs);
    assert_eq!(found, vec![], "{found:?}");
    let graph = Graph::new(&w, &runs);
    assert!(graph.edge_list().iter().all(|e| e.to != "Popup" && e.from != "Popup"));
}

#[test]
fn the_planner_prefers_observed_time_and_replans_from_anywhere() {
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        state("Slow", "http://x/slow", &["Done"]),
        state("Fast", "http://x/fast", &["Done"]),
        state("Home", "http://x/", &["Slow", "Fast"]),
        start(&["Home"]),
    ]));
    let unseen = Planner::new(&Graph::new(&w, &[]));
    let route = unseen.route("Start", "Done").unwrap();
    assert_eq!(route.states.len(), 4);
    // Runs show `Fast` is fast and `Slow` slow: the planner takes `Fast`.
    let runs = [
        run(&[("Start", 0), ("Home", 100), ("Fast", 200), ("Done", 300)]),
        run(&[("Start", 0), ("Home", 100), ("Slow", 200), ("Done", 5200)]),
    ];
    let planner = Planner::new(&Graph::new(&w, &runs));
    let route = planner.route("Start", "Done").unwrap();
    assert_eq!(route.states, ["Start", "Home", "Fast", "Done"]);
    assert_eq!(route.cost_ms, 300);
    assert_eq!(planner.route("Slow", "Done").unwrap().states, ["Slow", "Done"]);
    assert_eq!(planner.route("Done", "Home"), None, "nothing leaves a terminal");
    assert_eq!(planner.route("Home", "Home").unwrap().states, ["Home"]);
}

#[test]
fn test_paths_take_every_edge() {
    let mut popup = state("Popup", "http://x/popup", &[]);
    popup["interrupt"] = true.into();
    popup.as_object_mut().unwrap().remove("next");
    let w = workflow(serde_json::json!([
        popup,
        done("Done", "http://x/done", "success"),
        done("Refused", "http://x/refused", "failure"),
        state("Orphan", "http://x/orphan", &["Done"]),
        state("Form", "http://x/form", &["Done", "Refused", "Home"]),
        state("Home", "http://x/", &["Form", "Popup"]),
        start(&["Home"]),
    ]));
    let coverage = cover(&Graph::new(&w, &[]));
    assert_eq!(coverage.unreachable, vec![("Orphan".to_owned(), "Done".to_owned())]);
    assert_eq!((coverage.covered, coverage.total), (6, 7));
    // The interrupt is a detour: shown after the state it interrupts, which then goes on.
    let detour = coverage.paths.iter().find(|p| p.contains(&"Popup".to_owned())).expect("a path shows the popup");
    let at = detour.iter().position(|s| s == "Popup").unwrap();
    assert_eq!((detour[at - 1].as_str(), detour[at + 1].as_str()), ("Home", "Form"), "{detour:?}");
    for path in &coverage.paths {
        assert_eq!(path[0], "Start");
        let last = path.last().unwrap();
        assert!(last == "Done" || last == "Refused", "{path:?}");
    }
    let taken: std::collections::HashSet<(String, String)> = coverage
        .paths
        .iter()
        .flat_map(|p| {
            p.iter()
                .filter(|s| *s != "Popup")
                .cloned()
                .collect::<Vec<_>>()
                .windows(2)
                .map(|w| (w[0].clone(), w[1].clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    for (from, to) in [("Start", "Home"), ("Home", "Form"), ("Form", "Done"), ("Form", "Refused"), ("Form", "Home")] {
        assert!(taken.contains(&(from.to_owned(), to.to_owned())), "{from} → {to} not taken: {coverage:?}");
    }
    assert!(coverage.paths.len() <= 2, "{coverage:?}");
}

/// A state whose `next` names itself (a continuous state's next pass) stays where it is: no
/// path takes that, and it is listed as a loop rather than dropped without a word.
#[test]
fn a_self_loop_is_listed_as_a_loop_not_counted_as_an_edge() {
    let w = workflow(serde_json::json!([
        done("Done", "http://x/done", "success"),
        state("Feed", "http://x/feed", &["Feed", "Done"]),
        start(&["Feed"]),
    ]));
    let coverage = cover(&Graph::new(&w, &[]));
    assert_eq!(coverage.loops, ["Feed"]);
    assert_eq!((coverage.covered, coverage.total), (2, 2));
    assert_eq!(coverage.paths, [["Start", "Feed", "Done"]]);
}

#[test]
fn test_paths_on_a_large_graph_are_real_routes_that_take_every_reachable_edge() {
    // 400 states, each with three `next` edges picked by a fixed pseudo-random stream.
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut below = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let names: Vec<String> = (0..400).map(|i| format!("S{i}")).collect();
    let mut states: Vec<serde_json::Value> = names
        .iter()
        .map(|name| {
            let next: Vec<&str> = (0..3).map(|_| names[below(names.len())].as_str()).collect();
            state(name, &format!("http://x/{name}"), &next)
        })
        .collect();
    states[399]["next"].as_array_mut().unwrap().push("Done".into());
    states.push(done("Done", "http://x/done", "success"));
    states.push(start(&["S0"]));
    let graph = Graph::new(&workflow(serde_json::Value::Array(states)), &[]);
    let edges: std::collections::HashSet<(String, String)> =
        graph.edge_list().into_iter().map(|e| (e.from.clone(), e.to.clone())).collect();

    let coverage = cover(&graph);

    let mut taken = std::collections::HashSet::new();
    for path in &coverage.paths {
        assert_eq!(path[0], "Start");
        for pair in path.windows(2) {
            let step = (pair[0].clone(), pair[1].clone());
            assert!(edges.contains(&step), "{} → {} is not an edge", step.0, step.1);
            taken.insert(step);
        }
    }
    let self_loops = edges.iter().filter(|(f, t)| f == t).count();
    assert_eq!(coverage.total, edges.len() - self_loops, "every edge but a self-loop is counted");
    assert_eq!(taken.len(), coverage.covered, "the paths take exactly the edges said covered");
    assert_eq!(coverage.covered + coverage.unreachable.len() + coverage.unended.len(), coverage.total);
    // Every edge whose source a run can reach from the start is taken.
    let mut reached = std::collections::HashSet::from(["Start".to_owned()]);
    let mut queue = vec!["Start".to_owned()];
    while let Some(at) = queue.pop() {
        for (_, to) in edges.iter().filter(|(from, _)| *from == at) {
            if reached.insert(to.clone()) {
                queue.push(to.clone());
            }
        }
    }
    for (from, to) in &edges {
        let reachable = reached.contains(from) && from != to;
        assert_eq!(taken.contains(&(from.clone(), to.clone())), reachable, "{from} → {to}");
    }
    assert!(coverage.covered > 1000, "most of the graph is reachable: {}", coverage.covered);
}

#[test]
fn the_bundled_workflows_have_no_findings() {
    let root =
        std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("../../workflows");
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let loaded = statewright_workflow::load_file(&path).unwrap();
        let found = analyze(&loaded.workflow, &[]);
        assert!(found.is_empty(), "{}: {found:#?}", path.display());
    }
}

#[test]
fn a_very_long_state_name_is_cut_in_the_findings_words_as_in_every_message() {
    let long = "Step ".repeat(20_000);
    let w = workflow(serde_json::json!([
        start(&["Done"]),
        done("Done", "http://x/done", "success"),
        state(&long, "http://x/a", &[&long]),
    ]));
    let found = analyze(&w, &[]);
    assert_eq!(found.iter().map(|f| f.kind).collect::<Vec<_>>(), [FindingKind::Unreachable, FindingKind::Unverifiable]);
    for f in &found {
        assert_eq!(f.states, std::slice::from_ref(&long), "the states are named whole, to be found");
        assert!(f.message.contains("`Step Step"), "{:.300}", f.message);
        for words in [&f.message, &f.help] {
            assert!(words.chars().count() < 400, "{} characters: {words:.300}", words.chars().count());
            assert!(!words.contains("Step") || words.contains("Step … (99920 more characters)`"), "{words:.300}");
        }
    }
}
