//! Skills: a `use_skill` action runs another workflow (a skill) on the same page, from where
//! its preconditions hold to its success terminal; then its postconditions must hold, and
//! the outputs asked for become the caller's variables. The skill's states are steps of the
//! run like any other, named `skill › state`. A failure inside the skill is the `use_skill`
//! action's failure, and escalates in the caller.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;

use indexmap::IndexMap;
use statewright_workflow::{Action, Check, Outcome as TerminalOutcome, Params, State, Workflow};
use tokio::time::Instant;

use crate::driver::{Driver, DriverError, Outcome, Signals};
use crate::event::Failure;
use crate::executor::read::{BUSY, answer_by, look};
use crate::executor::{End, Run, RunOptions, deadline, secs};
use crate::matcher::Matcher;

/// How deep skills may use skills: deeper is a skill that (in the end) uses itself.
const MAX_DEPTH: u32 = 8;

type Attempt = Result<Result<String, DriverError>, End>;

/// A `use_skill` being run: done, failed (the action's error), or the run's end.
type SkillRun<'a> = Pin<Box<dyn Future<Output = Result<Result<(), DriverError>, End>> + Send + 'a>>;

impl Run {
    /// Runs action `index` of `state`, a `use_skill`, and reports it as done or failed.
    /// Boxed: a skill's run may reach here again (a skill using a skill).
    pub(crate) fn use_skill<'a, D: Driver>(
        &'a mut self,
        driver: &'a mut D,
        state: usize,
        index: usize,
    ) -> SkillRun<'a> {
        Box::pin(async move {
            let Action::UseSkill { skill, args, outputs } = self.bound.states[state].actions[index].clone() else {
                unreachable!("use_skill is only called for use_skill actions");
            };
            let (step, began) = (self.steps, Instant::now());
            let result = self.skill(driver, &skill, args, &outputs).await?;
            let (outcome, error) = match result {
                Ok(detail) => (Some(Outcome { detail: Some(detail), ..Default::default() }), None),
                Err(error) => (None, Some(error)),
            };
            let report = crate::act::ActionRun { step, ..self.action_run(Some(state), index) };
            report.finished(index, began, 1, outcome, error.as_ref());
            Ok(error.map_or(Ok(()), Err))
        })
    }

    async fn skill<D: Driver>(
        &mut self,
        driver: &mut D,
        name: &str,
        args: IndexMap<String, String>,
        outputs: &IndexMap<String, String>,
    ) -> Attempt {
        let refuse = |message: String| Ok(Err(DriverError::Invalid(message)));
        if self.depth >= MAX_DEPTH {
            return refuse(format!("skills are nested more than {MAX_DEPTH} deep here: does `{name}` use itself?"));
        }
        let Some(skill) = self.options.skills.get(name).cloned() else {
            let known: Vec<&str> = self.options.skills.keys().map(String::as_str).collect();
            return refuse(format!("there is no skill `{name}` (skills: {})", known.join(", ")));
        };
        let steps_before = self.steps;
        let supplied: Vec<(String, String)> = args.into_iter().collect();
        let mut params = match Params::bind(&skill, &supplied) {
            Ok(params) => params,
            Err(e) => return refuse(format!("skill `{name}`: {e}")),
        };
        params.inherit_secrets(&self.params);
        let spec = skill.skill.clone().unwrap_or_default();
        if let Err(failing) = self.conditions_hold(driver, &spec.pre, &params).await? {
            return refuse(format!("the preconditions of skill `{name}` do not hold: {}", failing.join("; ")));
        }

        // The skill's own failures come back here, to escalate in the caller: its run has
        // neither model nor person of its own.
        let options = RunOptions { skills: self.options.skills.clone(), ..RunOptions::default() };
        let mut child = Run::new(&prefixed(&skill, name), params, options, self.events.clone(), self.started);
        (child.steps, child.actions, child.depth) = (self.steps, self.actions.clone(), self.depth + 1);
        let end: Result<Infallible, End> = child.execute(driver).await;
        child.drain_observations().await;
        self.steps = child.steps;
        match end {
            Ok(never) => match never {},
            Err(End::Terminal { outcome: TerminalOutcome::Success, .. }) => {}
            Err(End::Terminal { state, message, .. }) => {
                return refuse(format!("skill `{name}` ended in its failure state `{state}`: {message}"));
            }
            Err(end @ (End::Cancelled(_) | End::Failed(Failure::Driver { .. }))) => return Err(end),
            Err(End::Failed(failure)) => {
                return refuse(format!("skill `{name}` failed: {}", crate::explain::failure(&failure)));
            }
        }
        if let Err(failing) = self.conditions_hold(driver, &spec.post, &child.params).await? {
            return refuse(format!("the postconditions of skill `{name}` do not hold: {}", failing.join("; ")));
        }
        for (here, there) in outputs {
            let Some(text) = child.params.value(there) else {
                let set: Vec<&str> = child.outputs.keys().map(String::as_str).collect();
                return refuse(format!("skill `{name}` did not set `{there}` (it set: {})", set.join(", ")));
            };
            // The value as read (a count is a number, a table an array), unless masked.
            let value = match child.outputs.get(there) {
                Some(value) if *value != serde_json::Value::String(statewright_workflow::params::MASK.into()) => {
                    value.clone()
                }
                _ => serde_json::Value::String(text.to_owned()),
            };
            self.set_variable(here, value)?;
        }
        Ok(Ok(format!("skill {name}: {} steps", self.steps - steps_before)))
    }

    /// Waits up to `verify_timeout` for every check of `checks` to hold; the failing ones
    /// (described) when they do not.
    async fn conditions_hold<D: Driver>(
        &self,
        driver: &mut D,
        checks: &[Check],
        params: &Params,
    ) -> Result<Result<(), Vec<String>>, End> {
        if checks.is_empty() {
            return Ok(Ok(()));
        }
        let state = State::new("conditions", checks.to_vec());
        let mut one = Workflow { states: vec![state], skill: None, ..self.template.clone() };
        one = one.bound(params, false);
        let matcher = Matcher::new(&one, params).map_err(|error| End::Failed(Failure::Setup { error }))?;
        let until = deadline(Instant::now(), secs(self.bound.config.verify_timeout));
        // The page as last read (`None`: it did not answer in time), and as it last answered.
        let mut seen =
            look(driver, matcher.probes(), None, std::time::Duration::ZERO, answer_by(until), &self.params).await?;
        let mut signals = Signals::default();
        loop {
            let answered = seen.take().map(|page| signals = page).is_some();
            if answered && matcher.matching(&signals).contains(&0) {
                return Ok(Ok(()));
            }
            let now = Instant::now();
            if now >= until && !answered {
                return Ok(Err(vec![BUSY.to_owned()]));
            }
            if now >= until {
                let failing = matcher.check_results(0, &signals).into_iter().filter(|c| !c.passed);
                return Ok(Err(failing.map(|c| params.redact(&c.check)).collect()));
            }
            seen = look(driver, matcher.probes(), Some(&signals), until - now, answer_by(until), &self.params).await?;
        }
    }
}

/// The skill with its states named `skill › state`, so that its steps read as its own.
fn prefixed(skill: &Workflow, name: &str) -> Workflow {
    let rename = |state: &str| format!("{name} › {state}");
    let mut copy = skill.clone();
    for state in &mut copy.states {
        state.name = rename(&state.name);
        state.next = state.next.iter().map(|n| rename(n)).collect();
    }
    copy
}
