//! Test paths: a small set of routes from the start that together take every edge.
//!
//! Greedy: while an edge is left that a path from a start can reach, walk the shortest way
//! to its source, take it, then keep taking untaken edges while there are some, and finish
//! at the nearest terminal. Not minimal in general (that is the Chinese-postman family), but
//! small, and every path is a real route through the graph.

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Serialize;

use crate::graph::Graph;

/// The paths, and the edges none of them can take.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Coverage {
    pub paths: Vec<Vec<String>>,
    /// Edges (from, to) no path from a start can reach.
    pub unreachable: Vec<(String, String)>,
    /// How many edges the paths take, of how many.
    pub covered: usize,
    pub total: usize,
}

/// Paths covering the explicit (declared or observed) edges. An edge into an interrupt is a
/// detour: the path shows the interrupt, then goes on from the state it interrupted.
pub fn cover(graph: &Graph) -> Coverage {
    let edges: Vec<(usize, usize)> =
        graph.edges.iter().map(|(f, t, _)| (*f, *t)).filter(|&(f, t)| !graph.interrupt[f] && f != t).collect();
    // Each state's edges (indices into `edges`, in its order): every walk below looks only at
    // the edges of the state it is at, so large graphs stay fast.
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); graph.len()];
    for (i, &(f, _)) in edges.iter().enumerate() {
        out[f].push(i);
    }
    // Routes go through pages, not through detours.
    let successors = |at: usize| out[at].iter().map(|&i| edges[i].1).filter(|&t| !graph.interrupt[t]);
    let mut taken = vec![false; edges.len()];
    let untaken_from = |taken: &[bool], at: usize| out[at].iter().any(|&i| !taken[i]);
    let mut paths = Vec::new();
    let starts: Vec<usize> = (0..graph.len()).filter(|&i| graph.start[i]).collect();
    // Each round starts at the nearest untaken edge's source, reached from a start.
    while let Some(mut path) = shortest(&starts, |at| untaken_from(&taken, at), &successors) {
        let mut at = *path.last().expect("a path has a state");
        // Keep taking untaken edges; when none leaves here, go to the nearest state that has one.
        loop {
            // Detours first (the path stays where it is), edges into terminals last (a path can
            // go on after the others).
            let untaken = out[at]
                .iter()
                .copied()
                .filter(|&i| !taken[i])
                .min_by_key(|&i| (!graph.interrupt[edges[i].1], graph.terminal[edges[i].1].is_some()));
            if let Some(i) = untaken {
                taken[i] = true;
                path.push(edges[i].1);
                if !graph.interrupt[edges[i].1] {
                    at = edges[i].1;
                }
                continue;
            }
            match shortest(&[at], |s| untaken_from(&taken, s), &successors) {
                Some(detour) if detour.len() > 1 => {
                    mark(&edges, &out, &mut taken, &detour);
                    path.extend_from_slice(&detour[1..]);
                    at = *path.last().expect("not empty");
                }
                _ => break,
            }
        }
        // End where a run ends, if it can.
        if graph.terminal[at].is_none()
            && let Some(tail) = shortest(&[at], |s| graph.terminal[s].is_some(), &successors)
        {
            mark(&edges, &out, &mut taken, &tail);
            path.extend_from_slice(&tail[1..]);
        }
        paths.push(path.iter().map(|&i| graph.names[i].clone()).collect());
    }
    let unreachable: Vec<(String, String)> = edges
        .iter()
        .zip(&taken)
        .filter(|(_, t)| !**t)
        .map(|((f, t), _)| (graph.names[*f].clone(), graph.names[*t].clone()))
        .collect();
    Coverage { paths, covered: edges.len() - unreachable.len(), unreachable, total: edges.len() }
}

/// Marks the edges a walk took.
fn mark(edges: &[(usize, usize)], out: &[Vec<usize>], taken: &mut [bool], path: &[usize]) {
    for pair in path.windows(2) {
        if let Some(&i) = out[pair[0]].iter().find(|&&i| edges[i].1 == pair[1]) {
            taken[i] = true;
        }
    }
}

/// Breadth-first: the fewest-edges path from any of `from` to a state where `goal` holds.
fn shortest<I: Iterator<Item = usize>>(
    from: &[usize],
    goal: impl Fn(usize) -> bool,
    successors: &impl Fn(usize) -> I,
) -> Option<Vec<usize>> {
    let mut via: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &s in from {
        if via.insert(s, usize::MAX).is_none() {
            queue.push_back(s);
        }
    }
    while let Some(at) = queue.pop_front() {
        if goal(at) {
            let mut path = vec![at];
            while let Some(&prev) = via.get(path.last().expect("not empty"))
                && prev != usize::MAX
            {
                path.push(prev);
            }
            path.reverse();
            return Some(path);
        }
        for next in successors(at) {
            if let std::collections::hash_map::Entry::Vacant(e) = via.entry(next) {
                e.insert(at);
                queue.push_back(next);
            }
        }
    }
    None
}
