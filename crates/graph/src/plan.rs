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
    /// Adjacency: (to, cost) per state.
    adjacency: Vec<Vec<(usize, u64)>>,
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
        for from in (0..graph.len()).filter(|&i| graph.open[i]) {
            for to in graph.successors(from) {
                if !adjacency[from].iter().any(|(t, _)| *t == to) {
                    adjacency[from].push((to, IMPLICIT_MS));
                }
            }
        }
        Self { names: graph.names.clone(), adjacency }
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The cheapest route from `from` to `to` (by name), if there is one.
    pub fn route(&self, from: &str, to: &str) -> Option<Route> {
        let (from, to) = (self.index(from)?, self.index(to)?);
        self.route_between(from, to)
    }

    /// Dijkstra over the adjacency lists.
    pub fn route_between(&self, from: usize, to: usize) -> Option<Route> {
        let n = self.names.len();
        let mut cost = vec![u64::MAX; n];
        let mut via = vec![usize::MAX; n];
        let mut queue = BinaryHeap::new();
        cost[from] = 0;
        queue.push(Reverse((0u64, from)));
        while let Some(Reverse((c, at))) = queue.pop() {
            if at == to {
                break;
            }
            if c > cost[at] {
                continue;
            }
            for &(next, step) in &self.adjacency[at] {
                let through = c.saturating_add(step);
                if through < cost[next] {
                    cost[next] = through;
                    via[next] = at;
                    queue.push(Reverse((through, next)));
                }
            }
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
