//! What a front end shows of a workflow's graph in one call: the static checks' findings
//! and every declared or observed edge with its evidence.

use schemars::JsonSchema;
use serde::Serialize;
use statewright_workflow::Workflow;

use crate::findings::{Finding, analyze_graph};
use crate::graph::{Edge, Graph, Trajectory};
use crate::plan::{Planner, Route};

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GraphReport {
    pub findings: Vec<Finding>,
    pub edges: Vec<Edge>,
    /// How many stored runs the evidence comes from.
    pub runs: usize,
}

pub fn report(workflow: &Workflow, runs: &[Trajectory]) -> GraphReport {
    let graph = Graph::new(workflow, runs);
    GraphReport { findings: analyze_graph(workflow, &graph, runs), edges: graph.edge_list(), runs: graph.runs }
}

/// The cheapest route to `to` from any state a run can start in: what a run from the start
/// is expected to walk (the run itself plans again from wherever the page really is).
pub fn route_from_start(workflow: &Workflow, runs: &[Trajectory], to: &str) -> Option<Route> {
    let graph = Graph::new(workflow, runs);
    let planner = Planner::new(&graph);
    let target = graph.index(to)?;
    (0..graph.len())
        .filter(|&i| graph.start[i])
        .filter_map(|from| planner.route_between(from, target))
        .min_by_key(|r| r.cost_ms)
}
