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
    /// Declared and observed edges, sorted by (from, to); no implicit ones.
    pub edges: Vec<(usize, usize, Edge)>,
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
        let mut edges: BTreeMap<(usize, usize), Edge> = BTreeMap::new();
        for (from, state) in workflow.states.iter().enumerate() {
            for to in state.next.iter().filter_map(|n| index.get(n.as_str())) {
                edges.insert((from, *to), edge(&names, from, *to, true));
            }
        }
        let mut entered = vec![0; names.len()];
        let mut totals: BTreeMap<(usize, usize), u64> = BTreeMap::new();
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
                    let e = edges.entry((from, at)).or_insert_with(|| edge(&names, from, at, false));
                    e.taken += 1;
                    *totals.entry((from, at)).or_default() += visit.elapsed_ms.saturating_sub(since);
                }
                previous = Some((at, visit.elapsed_ms));
            }
        }
        for (key, e) in &mut edges {
            if e.taken > 0 {
                e.mean_ms = Some(totals.get(key).copied().unwrap_or_default() / u64::from(e.taken));
            }
        }
        let open = workflow.states.iter().map(|s| s.next.is_empty() && s.terminal.is_none() && !s.interrupt).collect();
        let mut graph = Self {
            names,
            interrupt,
            terminal: workflow.states.iter().map(|s| s.terminal.as_ref().map(|t| t.outcome)).collect(),
            open,
            start: Vec::new(),
            edges: edges.into_iter().map(|((f, t), e)| (f, t, e)).collect(),
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
    pub fn out_edges(&self, from: usize) -> impl Iterator<Item = (usize, usize, &Edge)> {
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
        let mut has_way_in = vec![false; self.len()];
        for from in 0..self.len() {
            for to in self.successors(from) {
                has_way_in[to] |= to != from;
            }
        }
        (0..self.len()).map(|i| !self.interrupt[i] && !has_way_in[i]).collect()
    }

    /// Every state reachable from the starts, following successors.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = self.start.clone();
        let mut stack: Vec<usize> = (0..self.len()).filter(|&i| seen[i]).collect();
        while let Some(at) = stack.pop() {
            for to in self.successors(at) {
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
        let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); self.len()];
        for from in 0..self.len() {
            for to in self.successors(from) {
                predecessors[to].push(from);
            }
        }
        let mut seen: Vec<bool> =
            self.terminal.iter().map(|t| t.is_some_and(|t| outcome.is_none_or(|o| o == t))).collect();
        let mut stack: Vec<usize> = (0..self.len()).filter(|&i| seen[i]).collect();
        while let Some(at) = stack.pop() {
            for &from in &predecessors[at] {
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
        self.edges.iter().map(|(_, _, e)| e.clone()).collect()
    }
}

fn edge(names: &[String], from: usize, to: usize, declared: bool) -> Edge {
    Edge { from: names[from].clone(), to: names[to].clone(), declared, taken: 0, mean_ms: None }
}

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
