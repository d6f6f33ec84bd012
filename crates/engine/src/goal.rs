//! Runs with a goal (`statewright goto`): instead of running until a terminal state, the
//! run ends as soon as the goal state is recognised. Every state it enters on the way is
//! checked against a route planned over the graph's known transitions, and the route is
//! planned again when the page lands off it (a popup, another branch).

use std::sync::Arc;

use statewright_graph::Planner;
use statewright_workflow::Outcome;

use crate::event::{Event, Failure};
use crate::executor::{End, Run};

/// Where a run is headed, and the planner that knows the way.
#[derive(Clone)]
pub struct Goal {
    pub target: String,
    pub planner: Arc<Planner>,
}

impl Run {
    /// Before entering `state`: the end of the run when it is the goal (returned, for after
    /// the step is recorded); a failed run when the goal cannot be reached from it; and the
    /// route reported when it changed.
    pub(crate) fn steer(&mut self, state: usize) -> Result<Option<End>, End> {
        let Some(goal) = self.options.goal.clone() else { return Ok(None) };
        let name = self.name(state);
        if name == goal.target {
            return Ok(Some(End::Terminal {
                state: name.clone(),
                outcome: Outcome::Success,
                message: format!("reached `{name}`"),
            }));
        }
        let s = &self.bound.states[state];
        // An interrupt is a detour: the route resumes after it. A failure terminal ends the
        // run with its own, more telling, message.
        if s.interrupt || s.terminal.as_ref().is_some_and(|t| t.outcome == Outcome::Failure) {
            return Ok(None);
        }
        // A state a reviewer added during the run is not in the graph: no route to check.
        if goal.planner.index(&name).is_none() {
            return Ok(None);
        }
        let Some(route) = goal.planner.route(&name, &goal.target) else {
            return Err(End::Failed(Failure::NoRoute { from: name, to: goal.target }));
        };
        let on_route = self.route.iter().position(|s| *s == name).is_some_and(|at| self.route[at..] == route.states);
        if !on_route {
            self.emit(Event::RoutePlanned {
                step: self.steps + 1,
                from: name,
                to: goal.target.clone(),
                route: route.states.clone(),
                cost_ms: route.cost_ms,
                replanned: !self.route.is_empty(),
            });
        }
        self.route = route.states;
        Ok(None)
    }
}
