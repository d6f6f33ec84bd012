//! The graph of a workflow with the evidence of its stored runs: the static checks
//! `validate` reports, the edges the editor draws, and the planner `goto` walks with.
//! The analysis is `statewright-graph`'s; this module feeds it the run store.

use statewright_graph::{Graph, Planner, Route, Trajectory, Visit};
pub use statewright_graph::{GraphReport, report, route_from_start};
use statewright_store::Store;
use statewright_workflow::Workflow;

/// The stored runs of `workflow` (by name) as trajectories; none when the store cannot be
/// read (evidence is a help, never a reason to fail).
pub fn evidence(store: &Store, workflow: &str) -> Vec<Trajectory> {
    match store.state_visits(workflow) {
        Ok(runs) => runs
            .into_iter()
            .map(|visits| Trajectory {
                steps: visits
                    .into_iter()
                    .map(|v| Visit { state: v.state, elapsed_ms: v.elapsed_ms, also_matched: v.also_matched })
                    .collect(),
            })
            .collect(),
        Err(e) => {
            tracing::warn!("cannot read the stored runs of `{workflow}`: {e}");
            Vec::new()
        }
    }
}

/// The planner over a workflow's declared and observed transitions.
pub fn planner(workflow: &Workflow, runs: &[Trajectory]) -> Planner {
    Planner::new(&Graph::new(workflow, runs))
}

/// How many state names an unknown goal's message lists.
const NAMES_SHOWN: usize = 20;

/// Why `target` cannot be a goal, if it cannot: an unknown state (with the closest name),
/// or an interrupt, which shows up by itself.
pub fn check_goal(workflow: &Workflow, target: &str) -> Result<(), String> {
    let Some(state) = workflow.states.iter().find(|s| s.name == target) else {
        let names = workflow.states.iter().map(|s| s.name.as_str());
        let hint = match statewright_workflow::closest(target, names) {
            Some(name) => format!("; did you mean `{name}`?"),
            // A few names, not thousands: the message is read, and a big workflow's list
            // buried the error under hundreds of kilobytes.
            None => {
                let shown: Vec<String> =
                    workflow.states.iter().take(NAMES_SHOWN).map(|s| format!("`{}`", s.name)).collect();
                let more = workflow.states.len().saturating_sub(NAMES_SHOWN);
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                format!("; its states are {}{more}", shown.join(", "))
            }
        };
        return Err(format!("the workflow `{}` has no state `{target}`{hint}", workflow.name));
    };
    if state.interrupt {
        return Err(format!("`{target}` is an interrupt: it shows up by itself, so there is no way to go there"));
    }
    Ok(())
}

/// The route from `from` to `to`, or why there is none.
pub fn route(planner: &Planner, from: &str, to: &str) -> Result<Route, String> {
    planner.route(from, to).ok_or_else(|| {
        format!("no known way from `{from}` to `{to}`: no chain of `next` edges or stored transitions leads there")
    })
}
