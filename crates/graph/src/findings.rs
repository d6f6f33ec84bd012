//! Static checks of a workflow's graph: what can never happen, what can never finish, what
//! can never win, and where the declared graph and the stored runs disagree.

use schemars::JsonSchema;
use serde::Serialize;
use statewright_workflow::diagnostic::shorten;
use statewright_workflow::{Outcome, Workflow};

use crate::graph::{Graph, Trajectory};
use crate::shadow::shadowed;

/// One finding about the graph. It names the states, says why, and suggests the fix.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Finding {
    pub kind: FindingKind,
    /// The states concerned; the first is the one to change.
    pub states: Vec<String>,
    /// For edge findings: the edge's ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge: Option<(String, String)>,
    pub message: String,
    pub help: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// No transition leads into the state and a run cannot start in it.
    Unreachable,
    /// No terminal state can be reached from the state.
    NoWayOut,
    /// The workflow has no terminal state with outcome `success`.
    NoSuccessTerminal,
    /// A higher-priority state matches wherever this one does: this one can never win.
    Shadowed,
    /// In the stored runs this state matched pages but another always won.
    NeverWon,
    /// The state's actions have nothing that could verify them.
    Unverifiable,
    /// A declared `next` edge that no stored run took.
    EdgeNeverTaken,
    /// A transition stored runs took that `next` does not list.
    UndeclaredTransition,
}

impl FindingKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unreachable => "unreachable",
            Self::NoWayOut => "no_way_out",
            Self::NoSuccessTerminal => "no_success_terminal",
            Self::Shadowed => "shadowed",
            Self::NeverWon => "never_won",
            Self::Unverifiable => "unverifiable",
            Self::EdgeNeverTaken => "edge_never_taken",
            Self::UndeclaredTransition => "undeclared_transition",
        }
    }
}

/// Every finding about `workflow`, given the stored runs of it (possibly none).
pub fn analyze(workflow: &Workflow, runs: &[Trajectory]) -> Vec<Finding> {
    analyze_graph(workflow, &Graph::new(workflow, runs), runs)
}

/// Every finding about `workflow`, whose graph with the stored `runs` is `graph`.
pub(crate) fn analyze_graph(workflow: &Workflow, graph: &Graph, runs: &[Trajectory]) -> Vec<Finding> {
    let mut found = Vec::new();
    structure(workflow, graph, &mut found);
    shadowed(workflow, &mut found);
    never_won(workflow, graph, runs, &mut found);
    evidence(workflow, graph, &mut found);
    // The words quote state names, which may be any length; `states` keeps them whole.
    for f in &mut found {
        f.message = shorten(std::mem::take(&mut f.message));
        f.help = shorten(std::mem::take(&mut f.help));
    }
    found
}

pub(crate) fn finding(kind: FindingKind, states: Vec<String>, message: String, help: String) -> Finding {
    Finding { kind, states, edge: None, message, help }
}

/// Reachability, ways out, success terminals and verifiability.
fn structure(workflow: &Workflow, graph: &Graph, found: &mut Vec<Finding>) {
    let reachable = graph.reachable();
    let way_out = graph.reaches_terminal(None);
    let pages = (0..graph.len()).filter(|&i| !graph.interrupt[i]).count();
    for (i, state) in workflow.states.iter().enumerate() {
        if state.interrupt {
            continue;
        }
        let name = &state.name;
        if !reachable[i] {
            found.push(finding(
                FindingKind::Unreachable,
                vec![name.clone()],
                format!(
                    "state `{name}` cannot be reached: no state's `next` lists it, no stored run entered it, and a run \
                     cannot start in it"
                ),
                format!(
                    "add `{name}` to the `next` of the state whose actions lead to it, or remove it if it is left over"
                ),
            ));
        } else if !way_out[i] {
            found.push(finding(
                FindingKind::NoWayOut,
                vec![name.clone()],
                format!(
                    "no terminal state can be reached from `{name}`: a run that gets there can only fail or time out"
                ),
                "list the states its actions lead to in its `next`, or make it `terminal`".to_owned(),
            ));
        }
        // `next` listing only the state itself cannot verify it either: staying is not moving on.
        let leads_elsewhere = state.next.iter().any(|n| n != name);
        let nowhere = if state.next.is_empty() { pages <= 1 } else { !leads_elsewhere };
        if !state.actions.is_empty() && state.expect.is_empty() && state.terminal.is_none() && nowhere {
            found.push(finding(
                FindingKind::Unverifiable,
                vec![name.clone()],
                format!(
                    "nothing can verify the actions of `{name}`: its `next` leads to no other state, it has no \
                     `expect`, so every run of them ends unverified"
                ),
                "add an `expect` check that holds once its actions worked, or list the state they lead to in `next`"
                    .to_owned(),
            ));
        }
    }
    if !graph.terminal.contains(&Some(Outcome::Success)) {
        found.push(finding(
            FindingKind::NoSuccessTerminal,
            Vec::new(),
            "the workflow has no terminal state with outcome `success`: no run of it can succeed".to_owned(),
            "mark the state that means the task is done with `\"terminal\": {\"outcome\": \"success\"}`".to_owned(),
        ));
    }
}

/// Evidence from the store: a state that matched recorded pages but was never entered.
fn never_won(workflow: &Workflow, graph: &Graph, runs: &[Trajectory], found: &mut Vec<Finding>) {
    let mut matched = vec![0u32; graph.len()];
    let mut winners: Vec<Vec<String>> = vec![Vec::new(); graph.len()];
    for visit in runs.iter().flat_map(|r| &r.steps) {
        for lost in &visit.also_matched {
            if let Some(i) = graph.index(lost) {
                matched[i] += 1;
                if !winners[i].contains(&visit.state) {
                    winners[i].push(visit.state.clone());
                }
            }
        }
    }
    for (i, state) in workflow.states.iter().enumerate() {
        if matched[i] == 0 || graph.entered[i] > 0 || state.interrupt {
            continue;
        }
        // Decided by logic already: say it once.
        if found.iter().any(|f| f.kind == FindingKind::Shadowed && f.states[0] == state.name) {
            continue;
        }
        let name = &state.name;
        let by = winners[i].iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
        let mut states = vec![name.clone()];
        states.extend(winners[i].iter().cloned());
        found.push(finding(
            FindingKind::NeverWon,
            states,
            format!(
                "state `{name}` matched {} recorded page{} in {} stored run{}, but {by} always won",
                matched[i],
                plural(matched[i] as usize),
                graph.runs,
                plural(graph.runs)
            ),
            format!("give {by} a check that fails on `{name}`'s pages, or move `{name}` above {by}"),
        ));
    }
}

/// Where the declared graph and the stored runs disagree.
fn evidence(workflow: &Workflow, graph: &Graph, found: &mut Vec<Finding>) {
    for (from, to, edge) in &graph.edges {
        let (from_name, to_name) = (&graph.names[*from], &graph.names[*to]);
        if edge.declared && edge.taken == 0 && graph.entered[*from] > 0 && !graph.interrupt[*to] {
            let runs = graph.entered[*from];
            found.push(Finding {
                kind: FindingKind::EdgeNeverTaken,
                states: vec![from_name.clone(), to_name.clone()],
                edge: Some((from_name.clone(), to_name.clone())),
                message: format!(
                    "`{from_name}` → `{to_name}` was never taken: {runs} stored run{} entered `{from_name}`, none went on \
                     to `{to_name}`",
                    plural(runs as usize)
                ),
                help: format!(
                    "keep it if `{to_name}` can follow on other data; otherwise remove it from `{from_name}`'s `next`"
                ),
            });
        }
        let declares = !workflow.states[*from].next.is_empty();
        if !edge.declared && declares && edge.taken > 0 {
            found.push(Finding {
                kind: FindingKind::UndeclaredTransition,
                states: vec![from_name.clone(), to_name.clone()],
                edge: Some((from_name.clone(), to_name.clone())),
                message: format!(
                    "stored runs went from `{from_name}` to `{to_name}` {} time{}, but `{from_name}`'s `next` does \
                     not list it",
                    edge.taken,
                    plural(edge.taken as usize)
                ),
                help: format!("add `{to_name}` to the `next` of `{from_name}`"),
            });
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
