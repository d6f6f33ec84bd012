//! What a state graph can say about itself, that a script cannot: which states can never be
//! reached or never win, where the declared graph and the stored runs disagree, the
//! cheapest way from one state to another, and a set of paths that takes every edge.
//!
//! Pure functions over a [`Workflow`](statewright_workflow::Workflow) and the trajectories
//! of stored runs ([`Trajectory`]); no browser and no store here.

mod cover;
mod findings;
mod graph;
mod implies;
mod plan;
mod report;
mod shadow;
#[cfg(test)]
mod testing;

pub use cover::{Coverage, cover};
pub use findings::{Finding, FindingKind, analyze};
pub use graph::{BLANK_PAGE, Edge, Evidence, Graph, Trajectory, Visit};
pub use implies::{all_implied, implies};
pub use plan::{IMPLICIT_MS, Planner, Route, UNSEEN_MS};
pub use report::{GraphReport, report, route_from_start};
