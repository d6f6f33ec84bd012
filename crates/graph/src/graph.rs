//! The transition graph of a workflow: the `next` edges it declares, the transitions stored
//! runs took (with how often and how long), and the implicit edges of states that do not
//! say where they lead.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;
use statewright_workflow::{Check, Outcome, TextMatch, TitleMatch, UrlMatch, Workflow};

/// The address of a fresh tab, where every launched run begins.
pub const BLANK_PAGE: &str = "about:blank";

/// One recorded run, as the graph needs it: the states it entered, in order.
#[derive(Debug, Clone, Default)]
pub struct Trajectory {
    pub steps: Vec<Visit>,
}

/// One state entered by a recorded run.
#[derive(Debug, Clone, PartialEq)]
pub struct Visit {
    pub state: String,
    /// Since the run started.
    pub elapsed_ms: u64,
    /// Lower-priority states that matched the same page and lost.
    pub also_matched: Vec<String>,
}

/// One edge of the graph.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Edge {
    pub from: String,
    pub to: String,
    #[serde(flatten)]
    pub evidence: Evidence,
}

/// What is known of an edge: whether the workflow declares it, and what stored runs did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, JsonSchema)]
pub struct Evidence {
    /// Listed in `from`'s `next`.
    pub declared: bool,
    /// How many times stored runs took it.
    pub taken: u32,
    /// Mean time from entering `from` to entering `to`, over the runs that took it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_ms: Option<u64>,
}

/// The graph of one workflow. States are indices into `workflow.states`.
#[derive(Debug, Clone)]
pub struct Graph {
    pub names: Vec<String>,
    pub interrupt: Vec<bool>,
    pub terminal: Vec<Option<Outcome>>,
    /// States whose successors are unknown: they have no `next` and are not terminal, so any
    /// change of state verifies them (and a state without actions waits for the page).
    pub open: Vec<bool>,
    /// States a run can begin in (see [`Graph::starts`]).
    pub start: Vec<bool>,
    /// Declared and observed edges, sorted by (from, to); no implicit ones. Named only
    /// when listed ([`Graph::edge_list`]): a dense workflow has a million of them.
    pub edges: Vec<(usize, usize, Evidence)>,
    /// How many stored runs entered each state.
    pub entered: Vec<u32>,
    /// The runs of this workflow the evidence came from.
    pub runs: usize,
}

impl Graph {
    pub fn new(workflow: &Workflow, runs: &[Trajectory]) -> Self {
        let names: Vec<String> = workflow.states.iter().map(|s| s.name.clone()).collect();
        let index: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
        let interrupt: Vec<bool> = workflow.states.iter().map(|s| s.interrupt).collect();
        // Declared edges gathered in a list and sorted, not a map: a dense workflow declares
        // a million of them, and a map's nodes would take three times the memory.
        let mut edges: Vec<(usize, usize, Evidence)> = Vec::new();
        for (from, state) in workflow.states.iter().enumerate() {
            let declared = Evidence { declared: true, ..Evidence::default() };
            edges.extend(state.next.iter().filter_map(|n| index.get(n.as_str())).map(|&to| (from, to, declared)));
        }
        edges.sort_unstable_by_key(|&(from, to, _)| (from, to));
        edges.dedup_by_key(|&mut (from, to, _)| (from, to));
        let mut entered = vec![0; names.len()];
        // Each transition the runs took: how often, and the time it took in all.
        let mut observed: BTreeMap<(usize, usize), (u32, u64)> = BTreeMap::new();
        for run in runs {
            let mut seen = vec![false; names.len()];
            // Interrupts are detours: the transition is from the state before to the state
            // after, and takes the detour's time.
            let mut previous: Option<(usize, u64)> = None;
            for visit in &run.steps {
                let Some(&at) = index.get(visit.state.as_str()) else {
                    previous = None;
                    continue;
                };
                if !seen[at] {
                    seen[at] = true;
                    entered[at] += 1;
                }
                if interrupt[at] {
                    continue;
                }
                if let Some((from, since)) = previous
                    && from != at
                {
                    let (taken, total) = observed.entry((from, at)).or_default();
                    *taken += 1;
                    *total += visit.elapsed_ms.saturating_sub(since);
                }
                previous = Some((at, visit.elapsed_ms));
            }
        }
        let declared = edges.len();
        for ((from, to), (taken, total)) in observed {
            let seen = Evidence { taken, mean_ms: Some(total / u64::from(taken)), ..Evidence::default() };
            match edges[..declared].binary_search_by_key(&(from, to), |&(f, t, _)| (f, t)) {
                Ok(i) => edges[i].2 = Evidence { declared: true, ..seen },
                Err(_) => edges.push((from, to, seen)),
            }
        }
        if edges.len() > declared {
            edges.sort_unstable_by_key(|&(from, to, _)| (from, to));
        }
        let open = workflow.states.iter().map(|s| s.next.is_empty() && s.terminal.is_none() && !s.interrupt).collect();
        let mut graph = Self {
            names,
            interrupt,
            terminal: workflow.states.iter().map(|s| s.terminal.as_ref().map(|t| t.outcome)).collect(),
            open,
            start: Vec::new(),
            edges,
            entered,
            runs: runs.len(),
        };
        graph.start = graph.starts(workflow);
        graph
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Successors of `from`, declared or observed; an open state leads to every other
    /// state that is not an interrupt (interrupts come and go by themselves).
    pub fn successors(&self, from: usize) -> Vec<usize> {
        if self.open[from] {
            return (0..self.len()).filter(|&to| to != from && !self.interrupt[to]).collect();
        }
        self.out_edges(from).map(|(_, to, _)| to).filter(|&to| !self.interrupt[to]).collect()
    }

    /// The explicit (declared or observed) edges out of `from`.
    pub fn out_edges(&self, from: usize) -> impl Iterator<Item = (usize, usize, &Evidence)> {
        let start = self.edges.partition_point(|(f, _, _)| *f < from);
        self.edges[start..].iter().take_while(move |(f, _, _)| *f == from).map(|(f, t, e)| (*f, *t, e))
    }

    /// Which states a run can begin in: those that can match a fresh tab (a URL check that
    /// accepts `about:blank`, nothing that needs page content). A workflow with none of them
    /// is started on a page that is already open (`--resume`, a desktop), and then any state
    /// without a way in is a start.
    fn starts(&self, workflow: &Workflow) -> Vec<bool> {
        let blank: Vec<bool> = workflow
            .states
            .iter()
            .map(|s| !s.interrupt && !s.checks.is_empty() && s.checks.iter().all(holds_on_blank_page))
            .collect();
        if blank.iter().any(|&b| b) {
            return blank;
        }
        // An open state leads into every other page: with two of them, every page has a way
        // in; with one, every page but that one. Counted, not walked: walking them is
        // quadratic in a workflow without `next` (a compiled draft, a generated one).
        let open: Vec<usize> = (0..self.len()).filter(|&i| self.open[i]).collect();
        let mut has_way_in: Vec<bool> =
            (0..self.len()).map(|i| !open.is_empty() && open != [i] && !self.interrupt[i]).collect();
        for from in (0..self.len()).filter(|&i| !self.open[i]) {
            for to in self.successors(from) {
                followed(1);
                has_way_in[to] |= to != from;
            }
        }
        (0..self.len()).map(|i| !self.interrupt[i] && !has_way_in[i]).collect()
    }

    /// Every state reachable from the starts, following successors.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = self.start.clone();
        let mut stack: Vec<usize> = (0..self.len()).filter(|&i| seen[i]).collect();
        // The first open state reached leads to every other page, so it is followed once.
        let mut flooded = false;
        while let Some(at) = stack.pop() {
            if self.open[at] && std::mem::replace(&mut flooded, true) {
                continue;
            }
            for to in self.successors(at) {
                followed(1);
                if !seen[to] {
                    seen[to] = true;
                    stack.push(to);
                }
            }
        }
        seen
    }

    /// Every state from which some terminal (of `outcome`, or any) is reachable.
    pub fn reaches_terminal(&self, outcome: Option<Outcome>) -> Vec<bool> {
        // Declared and observed edges backwards; an open state's edges to every page are not
        // listed (that is quadratic in a workflow without `next`).
        let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); self.len()];
        for from in (0..self.len()).filter(|&i| !self.open[i]) {
            for to in self.successors(from) {
                followed(1);
                predecessors[to].push(from);
            }
        }
        let open: Vec<usize> = (0..self.len()).filter(|&i| self.open[i]).collect();
        let mut seen: Vec<bool> =
            self.terminal.iter().map(|t| t.is_some_and(|t| outcome.is_none_or(|o| o == t))).collect();
        let mut stack: Vec<usize> = (0..self.len()).filter(|&i| seen[i]).collect();
        // An open state leads to every page, so it reaches a terminal as soon as one page
        // does (never an open one: what is found here is a terminal or declares its edges).
        let mut opened = false;
        while let Some(at) = stack.pop() {
            let opens: &[usize] =
                if !self.interrupt[at] && !std::mem::replace(&mut opened, true) { &open } else { &[] };
            for &from in opens.iter().chain(&predecessors[at]) {
                followed(1);
                if !seen[from] {
                    seen[from] = true;
                    stack.push(from);
                }
            }
        }
        seen
    }

    /// All edges for display: declared and observed ones, with the evidence.
    pub fn edge_list(&self) -> Vec<Edge> {
        let name = |i: usize| self.names[i].clone();
        self.edges.iter().map(|&(from, to, evidence)| Edge { from: name(from), to: name(to), evidence }).collect()
    }
}

/// Counts the edges the walks above follow, for the tests that keep them linear.
#[cfg(test)]
fn followed(n: usize) {
    tests::FOLLOWED.with(|c| c.set(c.get() + n));
}

#[cfg(not(test))]
fn followed(_: usize) {}

/// Whether `check` can hold on a fresh, empty tab.
fn holds_on_blank_page(check: &Check) -> bool {
    let (holds, negate) = match check {
        Check::Url { mode, value, negate } => (
            match mode {
                UrlMatch::Exact => value == BLANK_PAGE,
                UrlMatch::Prefix => BLANK_PAGE.starts_with(value.as_str()),
                UrlMatch::Pattern => regex::Regex::new(value).is_ok_and(|re| re.is_match(BLANK_PAGE)),
            },
            *negate,
        ),
        Check::Title { mode, value, negate } => (
            match mode {
                TitleMatch::Exact | TitleMatch::Contains => value.is_empty(),
                TitleMatch::Pattern => regex::Regex::new(value).is_ok_and(|re| re.is_match("")),
            },
            *negate,
        ),
        Check::Text { mode: TextMatch::Equals | TextMatch::Contains, negate, .. } => (false, *negate),
        Check::Element { negate, .. } => (false, *negate),
        // A desktop is never blank: its checks may hold at the start.
        _ => return true,
    };
    holds != negate
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::testing::{numbers, workflow};

    thread_local! {
        /// How many edges `starts`, `reachable` and `reaches_terminal` followed.
        pub(super) static FOLLOWED: Cell<usize> = const { Cell::new(0) };
    }

    /// A state recognised by its own URL (or the blank page), leading to `next` (open when None).
    fn state(
        i: usize,
        next: Option<Vec<usize>>,
        terminal: Option<&str>,
        interrupt: bool,
        blank: bool,
    ) -> serde_json::Value {
        let url = if blank { "about:blank".to_owned() } else { format!("http://x/{i}") };
        let mut s = serde_json::json!({ "name": format!("s{i}"), "checks": [{ "type": "url", "value": url }] });
        if let Some(next) = next {
            s["next"] = next.iter().map(|n| format!("s{n}")).collect();
        }
        if let Some(outcome) = terminal {
            s["terminal"] = serde_json::json!({ "outcome": outcome });
        }
        if interrupt {
            s["interrupt"] = true.into();
            s["actions"] = serde_json::json!([{ "type": "go_back" }]);
        }
        s
    }

    /// What the walks found when every open state's edge to every page was followed.
    fn walked(graph: &Graph, workflow: &Workflow) -> (Vec<bool>, Vec<bool>, Vec<bool>, Vec<bool>) {
        let n = graph.len();
        let blank = workflow.states.iter().any(|s| !s.interrupt && s.checks.iter().all(holds_on_blank_page));
        let start: Vec<bool> = if blank {
            graph.start.clone()
        } else {
            let mut way_in = vec![false; n];
            for from in 0..n {
                for to in graph.successors(from) {
                    way_in[to] |= to != from;
                }
            }
            (0..n).map(|i| !graph.interrupt[i] && !way_in[i]).collect()
        };
        let closure = |seeds: Vec<bool>, forward: bool| {
            let mut seen = seeds;
            let mut stack: Vec<usize> = (0..n).filter(|&i| seen[i]).collect();
            while let Some(at) = stack.pop() {
                let next: Vec<usize> = if forward {
                    graph.successors(at)
                } else {
                    (0..n).filter(|&f| graph.successors(f).contains(&at)).collect()
                };
                for to in next {
                    if !seen[to] {
                        seen[to] = true;
                        stack.push(to);
                    }
                }
            }
            seen
        };
        let terminals =
            |o: Option<Outcome>| graph.terminal.iter().map(|t| t.is_some_and(|t| o.is_none_or(|o| o == t))).collect();
        (
            start.clone(),
            closure(start, true),
            closure(terminals(None), false),
            closure(terminals(Some(Outcome::Success)), false),
        )
    }

    #[test]
    fn open_states_are_counted_not_walked() {
        let n = 3_000;
        let mut states: Vec<_> = (0..n).map(|i| state(i, None, None, false, false)).collect();
        states.push(state(n, None, Some("success"), false, false));
        let w = workflow(states);
        FOLLOWED.with(|c| c.set(0));
        let graph = Graph::new(&w, &[]);
        let (reachable, way_out) = (graph.reachable(), graph.reaches_terminal(None));
        assert!(graph.start.iter().all(|s| !s), "every state has a way in");
        assert!(reachable.iter().all(|r| !r) && way_out.iter().all(|&w| w));
        // Walking every open state's edges would be n * n: nine million.
        let followed = FOLLOWED.with(Cell::get);
        assert!(followed < 3 * n, "{followed} edges followed for {n} states");
    }

    #[test]
    fn counting_open_states_finds_what_walking_their_edges_finds() {
        // Small graphs of every shape: open states, declared edges, interrupts, terminals of
        // both outcomes, with and without a state for the blank page.
        let mut next = numbers(11);
        for round in 0..400 {
            let n = 1 + next(7);
            let states: Vec<_> = (0..n)
                .map(|i| {
                    let last = [Some("success"), Some("failure")][next(2)];
                    let terminal = if i == n - 1 { last } else { [None, None, None, last][next(4)] };
                    let interrupt = next(5) == 0;
                    let edges = (next(3) != 0).then(|| (0..next(3)).map(|_| next(n)).collect());
                    state(
                        i,
                        if terminal.is_some() { None } else { edges },
                        terminal,
                        interrupt,
                        round % 2 == 0 && i == 0,
                    )
                })
                .collect();
            let w = workflow(states);
            let graph = Graph::new(&w, &[]);
            let counted = (
                graph.start.clone(),
                graph.reachable(),
                graph.reaches_terminal(None),
                graph.reaches_terminal(Some(Outcome::Success)),
            );
            assert_eq!(counted, walked(&graph, &w), "round {round}: {:?}", w.states);
        }
    }
}
