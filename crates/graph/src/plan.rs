//! Pathfinding: the cheapest known way from the state the page is in to a target state.
//!
//! A state's actions lead to one of its successors, chosen by the page; a route is the
//! sequence the run expects to see, and is planned again whenever the page lands elsewhere.
//! Cost is time: an observed edge costs its mean duration, a declared edge no run has taken
//! costs [`UNSEEN_MS`], and an open state's implicit edges cost [`IMPLICIT_MS`].

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::graph::Graph;

/// The cost of a declared edge that no stored run took: a guess, and a penalty for it.
pub const UNSEEN_MS: u64 = 10_000;
/// The cost of an edge an open state (no `next`) may or may not have.
pub const IMPLICIT_MS: u64 = 60_000;

/// A planned route: the states the run expects to pass through, `from` and `to` included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Route {
    pub states: Vec<String>,
    /// The expected time, in milliseconds.
    pub cost_ms: u64,
}

/// Plans routes over one graph; build once, ask many times.
#[derive(Debug, Clone)]
pub struct Planner {
    names: Vec<String>,
    /// Adjacency: (to, cost) per state, declared and observed edges.
    adjacency: Vec<Vec<(usize, u64)>>,
    /// States without `next` (see [`Graph::open`]): they may lead to any page, at
    /// [`IMPLICIT_MS`], where no declared or observed edge says otherwise. Those edges are not
    /// listed: a workflow of 10,000 such states would have a hundred million.
    open: Vec<bool>,
    /// The states an implicit edge may lead to: not interrupts (they come by themselves).
    page: Vec<bool>,
}

impl Planner {
    pub fn new(graph: &Graph) -> Self {
        let mut adjacency: Vec<Vec<(usize, u64)>> = vec![Vec::new(); graph.len()];
        for (from, to, edge) in &graph.edges {
            // Interrupts are detours, not places to go through; terminals end the run.
            if graph.interrupt[*to] || graph.terminal[*from].is_some() {
                continue;
            }
            let cost = edge.mean_ms.map_or(UNSEEN_MS, |ms| ms.max(1));
            adjacency[*from].push((*to, cost));
        }
        let page = graph.interrupt.iter().map(|i| !i).collect();
        Self { names: graph.names.clone(), adjacency, open: graph.open.clone(), page }
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The cheapest route from `from` to `to` (by name), if there is one.
    pub fn route(&self, from: &str, to: &str) -> Option<Route> {
        let (from, to) = (self.index(from)?, self.index(to)?);
        self.route_between(from, to)
    }

    /// Dijkstra over the adjacency lists and the open states' implicit edges.
    pub fn route_between(&self, from: usize, to: usize) -> Option<Route> {
        let n = self.names.len();
        let mut cost = vec![u64::MAX; n];
        let mut via = vec![usize::MAX; n];
        let mut queue = BinaryHeap::new();
        // The states no open state's implicit edges have been followed to yet. Open states
        // are taken cheapest first, so a page one of them led to cannot be reached cheaper
        // through a later one: each later open state looks only at what is left here (the
        // first one's own explicit targets, and itself).
        let mut not_flooded: Option<Vec<usize>> = None;
        cost[from] = 0;
        queue.push(Reverse((0u64, from)));
        while let Some(Reverse((c, at))) = queue.pop() {
            if at == to {
                break;
            }
            if c > cost[at] {
                continue;
            }
            let explicit = &self.adjacency[at];
            let mut relax = |next: usize, step: u64, queue: &mut BinaryHeap<Reverse<(u64, usize)>>| {
                looked_at();
                let through = c.saturating_add(step);
                if through < cost[next] {
                    cost[next] = through;
                    via[next] = at;
                    queue.push(Reverse((through, next)));
                }
            };
            for &(next, step) in explicit {
                relax(next, step, &mut queue);
            }
            if !self.open[at] {
                continue;
            }
            let implicit = |to: usize| to != at && self.page[to] && !explicit.iter().any(|(t, _)| *t == to);
            let targets: Vec<usize> = match not_flooded.take() {
                None => (0..n).collect(),
                Some(left) => left,
            };
            let (flood, mut left): (Vec<usize>, Vec<usize>) = targets.into_iter().partition(|&to| implicit(to));
            left.retain(|&to| self.page[to]);
            for next in flood {
                relax(next, IMPLICIT_MS, &mut queue);
            }
            not_flooded = Some(left);
        }
        if cost[to] == u64::MAX {
            return None;
        }
        let mut states = vec![to];
        while let Some(&last) = states.last()
            && last != from
        {
            states.push(via[last]);
        }
        states.reverse();
        Some(Route { states: states.into_iter().map(|i| self.names[i].clone()).collect(), cost_ms: cost[to] })
    }
}

/// Counts the edges a planning looks at, for the test that keeps it linear.
#[cfg(test)]
fn looked_at() {
    tests::LOOKED_AT.with(|c| c.set(c.get() + 1));
}

#[cfg(not(test))]
fn looked_at() {}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::graph::{Trajectory, Visit};
    use crate::testing::{numbers, workflow};

    thread_local! {
        /// How many edges `route_between` looked at.
        pub(super) static LOOKED_AT: Cell<usize> = const { Cell::new(0) };
    }

    fn state(i: usize, next: Option<Vec<usize>>, terminal: bool, interrupt: bool) -> serde_json::Value {
        let mut s = serde_json::json!({ "name": format!("s{i}"), "checks": [{ "type": "url", "value": format!("http://x/{i}") }] });
        if let Some(next) = next {
            s["next"] = next.iter().map(|n| format!("s{n}")).collect();
        }
        if terminal {
            s["terminal"] = serde_json::json!({ "outcome": "success" });
        }
        if interrupt {
            s["interrupt"] = true.into();
            s["actions"] = serde_json::json!([{ "type": "go_back" }]);
        }
        s
    }

    /// The cost of the cheapest route, with every open state's implicit edge listed.
    fn listed(graph: &Graph, from: usize, to: usize) -> Option<u64> {
        let n = graph.len();
        let mut adjacency: Vec<Vec<(usize, u64)>> = vec![Vec::new(); n];
        for (f, t, edge) in &graph.edges {
            if !graph.interrupt[*t] && graph.terminal[*f].is_none() {
                adjacency[*f].push((*t, edge.mean_ms.map_or(UNSEEN_MS, |ms| ms.max(1))));
            }
        }
        for f in (0..n).filter(|&i| graph.open[i]) {
            for t in graph.successors(f) {
                if !adjacency[f].iter().any(|(x, _)| *x == t) {
                    adjacency[f].push((t, IMPLICIT_MS));
                }
            }
        }
        let mut cost = vec![u64::MAX; n];
        let mut queue = BinaryHeap::from([Reverse((0u64, from))]);
        cost[from] = 0;
        while let Some(Reverse((c, at))) = queue.pop() {
            if c > cost[at] {
                continue;
            }
            for &(next, step) in &adjacency[at] {
                if c + step < cost[next] {
                    cost[next] = c + step;
                    queue.push(Reverse((c + step, next)));
                }
            }
        }
        (cost[to] != u64::MAX).then_some(cost[to])
    }

    #[test]
    fn open_states_lead_anywhere_without_every_edge_being_looked_at() {
        let n = 3_000;
        let mut states: Vec<_> = (0..n).map(|i| state(i, None, false, false)).collect();
        states.push(state(n, None, true, false));
        let planner = Planner::new(&Graph::new(&workflow(states), &[]));
        LOOKED_AT.with(|c| c.set(0));
        let route = planner.route("s0", &format!("s{n}")).expect("a route");
        assert_eq!((route.states.len(), route.cost_ms), (2, IMPLICIT_MS));
        let route = planner.route("s5", "s0").expect("a route");
        assert_eq!(route.states, ["s5", "s0"]);
        // Looking at every open state's edges would be n * n: nine million.
        let looked = LOOKED_AT.with(Cell::get);
        assert!(looked < 4 * n, "{looked} edges looked at for {n} states");
    }

    #[test]
    fn routes_cost_what_they_cost_with_every_implicit_edge_listed() {
        let mut next = numbers(5);
        for round in 0..300 {
            let n = 2 + next(7);
            let states: Vec<_> = (0..n)
                .map(|i| {
                    let terminal = i == n - 1 || next(5) == 0;
                    let edges = (!terminal && next(2) == 0).then(|| (0..next(3)).map(|_| next(n)).collect());
                    state(i, edges, terminal, !terminal && next(6) == 0)
                })
                .collect();
            let w = workflow(states);
            // Stored runs give open states explicit edges, some slower than an implicit one.
            let runs: Vec<Trajectory> = (0..next(3))
                .map(|_| {
                    let mut elapsed = 0;
                    let steps = (0..1 + next(5))
                        .map(|_| {
                            elapsed += [10, 5_000, 90_000][next(3)];
                            Visit { state: format!("s{}", next(n)), elapsed_ms: elapsed, also_matched: Vec::new() }
                        })
                        .collect();
                    Trajectory { steps }
                })
                .collect();
            let graph = Graph::new(&w, &runs);
            let planner = Planner::new(&graph);
            for from in 0..n {
                for to in 0..n {
                    let planned = planner.route_between(from, to);
                    assert_eq!(
                        planned.as_ref().map(|r| r.cost_ms),
                        listed(&graph, from, to),
                        "round {round}: s{from} → s{to}"
                    );
                }
            }
        }
    }
}
