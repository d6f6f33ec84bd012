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
    /// Edges (from, to) a path can take only on its way back to a state it passed, with no
    /// terminal after: a run of the path ends the first time it reaches its last state, so
    /// no test path can end after them.
    pub unended: Vec<(String, String)>,
    /// States whose edges lead back to themselves (a continuous state's next pass): staying
    /// is not a route, so these are not edges a path takes, nor counted in `total`.
    pub loops: Vec<String>,
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
    let mut unended: Vec<usize> = Vec::new();
    let starts: Vec<usize> = (0..graph.len()).filter(|&i| graph.start[i]).collect();
    // Each round starts at the nearest untaken edge's source, reached from a start.
    while let Some(mut path) = shortest(&starts, |at| untaken_from(&taken, at), &successors) {
        let mut at = *path.last().expect("a path has a state");
        // The edges this round took, each with the place in the path of the state it led to.
        let mut round: Vec<(usize, usize)> = Vec::new();
        let walk = |path: &mut Vec<usize>, walked: &[usize], taken: &mut Vec<bool>, round: &mut Vec<(usize, usize)>| {
            for pair in walked.windows(2) {
                if let Some(&i) = out[pair[0]].iter().find(|&&i| edges[i].1 == pair[1])
                    && !taken[i]
                {
                    taken[i] = true;
                    round.push((path.len(), i));
                }
                path.push(pair[1]);
            }
        };
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
                round.push((path.len(), i));
                path.push(edges[i].1);
                if !graph.interrupt[edges[i].1] {
                    at = edges[i].1;
                }
                continue;
            }
            match shortest(&[at], |s| untaken_from(&taken, s), &successors) {
                Some(detour) if detour.len() > 1 => {
                    walk(&mut path, &detour, &mut taken, &mut round);
                    at = *path.last().expect("not empty");
                }
                _ => break,
            }
        }
        // End where a run ends, if it can.
        if graph.terminal[at].is_none()
            && let Some(tail) = shortest(&[at], |s| graph.terminal[s].is_some(), &successors)
        {
            walk(&mut path, &tail, &mut taken, &mut round);
        }
        // A run of the path's file ends the first time it reaches the path's last state: a
        // path that comes back to a state it passed, with no terminal after, is cut after the
        // last state it reaches for the first time, and the edges after the cut go back to the
        // later rounds. When what is left takes nothing new, no path can end after them.
        let end = *path.last().expect("not empty");
        if graph.terminal[end].is_none() {
            let mut first = std::collections::HashMap::new();
            for (k, &s) in path.iter().enumerate() {
                first.entry(s).or_insert(k);
            }
            if first[&end] < path.len() - 1 {
                let cut =
                    (1..path.len()).rev().find(|&k| first[&path[k]] == k && !graph.interrupt[path[k]]).unwrap_or(0);
                let (kept, dropped): (Vec<_>, Vec<_>) = round.iter().partition(|(k, _)| *k <= cut);
                if kept.is_empty() {
                    unended.extend(dropped.iter().map(|(_, i)| *i));
                    continue;
                }
                for (_, i) in dropped {
                    taken[i] = false;
                }
                path.truncate(cut + 1);
            }
        }
        paths.push(path.iter().map(|&i| graph.names[i].clone()).collect());
    }
    let mut loops: Vec<String> = graph
        .edges
        .iter()
        .filter(|(f, t, _)| f == t && !graph.interrupt[*f])
        .map(|(f, _, _)| graph.names[*f].clone())
        .collect();
    loops.dedup();
    let name = |i: usize| (graph.names[edges[i].0].clone(), graph.names[edges[i].1].clone());
    let unreachable: Vec<(String, String)> = (0..edges.len()).filter(|&i| !taken[i]).map(name).collect();
    unended.sort_unstable();
    let unended: Vec<(String, String)> = unended.into_iter().map(name).collect();
    Coverage {
        paths,
        covered: edges.len() - unreachable.len() - unended.len(),
        unreachable,
        unended,
        loops,
        total: edges.len(),
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
