//! The escalation chain, in the workflow's order: re-observe → heal → LLM → human. Each
//! stage that applies runs once and is reported (`Escalated`); the first that resolves the
//! failure decides what the run does next. When none does, the run fails with it.

use std::time::Duration;

use statewright_workflow::{Action, Check, EscalationStage, SelectorKind, State, Target, TargetField, UrlMatch};
use tokio::time::Instant;

use crate::correct::{Detour, MAX_DETOURS};
use crate::driver::{Capture, Driver, DriverError, Observation, Signals};
use crate::event::{Event, Failure};
use crate::executor::read::BUSY;
use crate::executor::{Context, End, Plan, Run};
use crate::heal::{Healing, heal};
use crate::review::{EscalationRequest, PendingAction, Resolution, ReviewError, Tried, Unresolved, applicable};

/// How long the reviewer's snapshot of the page may take.
const SNAPSHOT_BUDGET: Duration = Duration::from_secs(5);
/// Element checks offered for a new state.
const SUGGESTED_ELEMENTS: usize = 3;

impl Run {
    pub(crate) async fn escalate<D: Driver>(
        &mut self,
        driver: &mut D,
        failure: Failure,
        context: Context,
    ) -> Result<Plan, End> {
        let reason = crate::explain::failure(&failure);
        tracing::info!(%reason, "escalating");
        // The model's last answer, if any, did not get the run past this, unless it made a
        // state concrete that recognised the page and whose actions moved it on (the page no
        // longer is that state): its work is done, and this is about the page after it.
        if let Some(advice) = self.pending_advice.take() {
            let moved_on = match advice.synthesized.as_deref().and_then(|s| self.index_of(s)) {
                // A page too busy to answer has not shown that it moved on.
                Some(index) if advice.entered => match self.read_now(driver).await? {
                    Some(signals) => !self.matcher().matching(&signals).contains(&index),
                    None => false,
                },
                _ => false,
            };
            if moved_on {
                self.emit(Event::AdviceWorked {
                    step: self.steps,
                    model: advice.model,
                    resolution: advice.resolution,
                    request: advice.request,
                });
            }
        }
        let mut tried: Vec<Tried> = Vec::new();
        for stage in self.bound.config.escalation.clone() {
            if !applicable(stage, &failure) {
                continue;
            }
            let (outcome, plan) = match stage {
                EscalationStage::Reobserve => self.reobserve(driver, &failure, &context).await?,
                EscalationStage::Heal if matches!(failure, Failure::NoState { .. }) => {
                    self.heal_no_state(driver).await?
                }
                EscalationStage::Heal => self.heal(driver, &context).await?,
                EscalationStage::Llm => match self.options.advisor.clone() {
                    None => ("skipped: no LLM is configured".to_owned(), None),
                    Some(_) if self.advised.contains(&advice_key(&failure, &context)) => {
                        ("skipped: the model's answer here did not get the run going".to_owned(), None)
                    }
                    Some(advisor) => {
                        let request = self.request(driver, &failure, &context, &tried).await;
                        let mut advice = advisor.advise(request.clone()).await;
                        // A terminal state a model declares is verified before it is entered;
                        // refused, its call says why and the chain goes on to the person.
                        let refused = match &advice.resolution {
                            Some(Resolution::DeclareState { state }) if self.is_terminal_named(state) => {
                                self.unverified(driver, state).await?
                            }
                            _ => None,
                        };
                        if let Some(why) = &refused
                            && let Some(call) = advice.calls.iter_mut().rev().find(|c| c.accepted)
                        {
                            call.accepted = false;
                            call.error = Some(why.clone());
                        }
                        let model = advice.calls.iter().rev().find(|c| c.accepted).map(|c| c.model.clone());
                        for call in advice.calls {
                            let state = context.state.map(|s| self.name(s));
                            self.emit(Event::ModelCalled { step: self.steps, state, call });
                        }
                        match (advice.resolution, refused) {
                            (Some(_), Some(why)) => {
                                self.advised.insert(advice_key(&failure, &context));
                                (why, None)
                            }
                            (Some(resolution), None) => {
                                // Asked once per situation: if this does not get the run going,
                                // the next escalation here goes to the person.
                                self.advised.insert(advice_key(&failure, &context));
                                let mut stuck_at: Vec<String> =
                                    context.state.map(|s| self.name(s)).into_iter().collect();
                                match &resolution {
                                    Resolution::DeclareState { state } => stuck_at.push(state.clone()),
                                    // A synthesised state has worked once the run gets past it
                                    // (or, for a terminal one, into it).
                                    Resolution::Synthesized { state, .. } if !self.is_terminal_named(state) => {
                                        stuck_at.push(state.clone())
                                    }
                                    _ => {}
                                }
                                let synthesized = match &resolution {
                                    Resolution::Synthesized { state, .. } => Some(state.clone()),
                                    _ => None,
                                };
                                self.pending_advice = Some(PendingAdvice {
                                    synthesized,
                                    entered: false,
                                    stuck_at,
                                    model: model.unwrap_or_default(),
                                    resolution: resolution.clone(),
                                    request: Box::new(request),
                                });
                                (format!("advised `{}`", resolution.kind()), Some(self.apply(resolution, &context)?))
                            }
                            (None, _) if advice.note.is_empty() => ("no advice".to_owned(), None),
                            (None, _) => (advice.note, None),
                        }
                    }
                },
                EscalationStage::Human => match self.options.reviewer.clone() {
                    None => ("skipped: nobody reviews this run".to_owned(), None),
                    Some(reviewer) => {
                        let request = self.request(driver, &failure, &context, &tried).await;
                        let review_id = reviewer.open(request).await.map_err(review_failed)?;
                        self.emit(Event::ReviewRequested {
                            review_id,
                            step: self.steps,
                            state: context.state.map(|s| self.name(s)),
                            reason: reason.clone(),
                        });
                        let resolution = reviewer.wait(review_id).await.map_err(review_failed)?;
                        self.emit(Event::ReviewResolved { review_id, resolution: resolution.clone() });
                        (
                            format!("resolved by a person: `{}`", resolution.kind()),
                            Some(self.apply(resolution, &context)?),
                        )
                    }
                },
            };
            self.emit(Event::Escalated {
                step: self.steps,
                state: context.state.map(|s| self.name(s)),
                stage: stage.as_str().to_owned(),
                reason: reason.clone(),
                outcome: outcome.clone(),
                resolved: plan.is_some(),
            });
            tried.push(Tried { stage: stage.as_str().to_owned(), outcome });
            if let Some(plan) = plan {
                return Ok(plan);
            }
        }
        Err(End::Failed(failure))
    }

    /// A fresh look: did it work after all, or is the page another state now?
    async fn reobserve<D: Driver>(
        &mut self,
        driver: &mut D,
        failure: &Failure,
        context: &Context,
    ) -> Result<(String, Option<Plan>), End> {
        let Some(signals) = self.read_now(driver).await? else {
            return Ok((BUSY.to_owned(), None));
        };
        let matcher = self.matcher();
        let top = self.top_state(&matcher.matching(&signals))?;
        Ok(match top {
            Some(now) if Some(now) != context.state => {
                let plan = Plan::Enter { state: now, from: 0, attempt: 0, resume: None };
                (format!("the page is now state `{}`", self.name(now)), Some(plan))
            }
            // Only an unverified state can turn out to have worked; a stuck one was verified
            // by these very expectations and has not moved on since.
            Some(same)
                if matches!(failure, Failure::NotVerified { .. })
                    && matcher.expectations_hold(same, &signals) == Some(true) =>
            {
                let plan = Plan::Recognise { handled: Some((same, Instant::now(), signals)) };
                ("the state's expectations hold now".to_owned(), Some(plan))
            }
            Some(_) => ("still the same state".to_owned(), None),
            None if matches!(failure, Failure::NoState { .. }) => self.look_back(driver).await?,
            None => ("no state matches".to_owned(), None),
        })
    }

    /// No state knows the run's tab: a tab the run followed (an advertisement its own click
    /// opened, a page the workflow does not cover) may be all that is wrong, and the tab it
    /// was on before may be a state it knows, as a person would look back. This tab stays
    /// open. The run comes back to it when the tab before is no known state either, or is
    /// still the state entered last: its actions, which opened this tab, are not repeated
    /// (a second order, a second payment).
    async fn look_back<D: Driver>(&mut self, driver: &mut D) -> Result<(String, Option<Plan>), End> {
        if !driver.look_back().await {
            return Ok(("no state matches".to_owned(), None));
        }
        // The tab before, too busy to answer, is no state the run knows yet.
        let signals = self.read_now(driver).await?;
        let matcher = self.matcher();
        let top = match signals {
            Some(signals) => self.top_state(&matcher.matching(&signals))?,
            None => None,
        };
        let (said, plan) = match top {
            Some(state) if Some(state) == self.entered_last => {
                let name = self.name(state);
                (format!("no state matches this tab; the tab before is still state `{name}`, not entered again"), None)
            }
            Some(state) => {
                let name = self.name(state);
                let plan = Plan::Enter { state, from: 0, attempt: 0, resume: None };
                (format!("no state matches this tab; the tab the run was on before is state `{name}`"), Some(plan))
            }
            None => ("no state matches, in this tab or the one the run was on before".to_owned(), None),
        };
        if plan.is_none() {
            driver.look_back().await;
        }
        Ok((said, plan))
    }

    /// Tries the failed action's recorded alternative locators: for the element the error
    /// says is not there, then, once, for the action's other element when a redesign renamed
    /// both (a drag's card and its drop zone).
    async fn heal<D: Driver>(&mut self, driver: &mut D, context: &Context) -> Result<(String, Option<Plan>), End> {
        let (Some(state), Some((index, error))) = (context.state, &context.action) else {
            return Ok(("not applicable".to_owned(), None));
        };
        let (index, name) = (*index, self.name(state));
        let (mut action, mut error) = (self.bound.states[state].actions[index].clone(), error.clone());
        // The elements healed on the way, each as (field, from, to).
        let mut healed: Vec<(TargetField, Target, Target)> = Vec::new();
        let began = Instant::now();
        let (mut from_alternative, mut detours) = (0, 0);
        let healing = loop {
            // The element the error says is not there: the target, or a drag's `to`.
            let field = error.missing().unwrap_or_default();
            let Some(from) = self.display.states[state].actions[index].target_in(field).cloned() else {
                return Ok(("the action has no target".to_owned(), None));
            };
            let mut alternatives = self.options.locators.alternatives(&name, index, field, &from).to_vec();
            alternatives.extend(action.target_in(field).and_then(Target::loosened));
            match heal(driver, &action, &error, &alternatives, from_alternative).await {
                // A popup came over the page while an alternative was tried: it is handled as
                // a state's actions would handle it, and the same alternative is tried again.
                Healing::Blocked { at } if detours < MAX_DETOURS => {
                    detours += 1;
                    from_alternative = match self.detour(driver).await? {
                        Detour::Taken => at,
                        Detour::NoInterrupt => at + 1,
                        Detour::Tripped(plan) => return Ok(("an interrupt's breaker tripped".to_owned(), Some(plan))),
                    };
                }
                Healing::Blocked { at } => from_alternative = at + 1,
                Healing::Partly { to, error: next } if healed.is_empty() => {
                    if let Some(target) = action.target_in_mut(field) {
                        *target = to.clone();
                    }
                    healed.push((field, from, to));
                    (error, from_alternative) = (next, 0);
                }
                healing => break (healing, field, from),
            }
        };
        let (healing, field, from) = healing;
        let json = |target: &Target| serde_json::to_string(target).unwrap_or_default();
        let so_far = healed
            .iter()
            .map(|(field, _, to)| format!("{} healed with {}, but ", field.name(), json(to)))
            .collect::<String>();
        Ok(match healing {
            Healing::Healed { to, outcome } => {
                // A healed `extract` still reads through its pattern into its variable.
                let outcome = match crate::act::narrowed(&action, *outcome) {
                    Ok(outcome) => outcome,
                    Err(error) => return Ok((format!("the element was found, but {error}"), None)),
                };
                self.actions += 1;
                healed.push((field, from, to));
                for (field, from, to) in &healed {
                    let (from, to) = (from.clone(), to.clone());
                    self.emit(Event::Healed { step: self.steps, state: name.clone(), index, field: *field, from, to });
                }
                let read = match (&action, &outcome.value) {
                    (Action::Extract { into, .. }, Some(value)) => Some((into.clone(), value.clone())),
                    _ => None,
                };
                self.action_run(Some(state), index).finished(index, began, 1, Some(outcome), None);
                if let Some((into, value)) = read {
                    self.set_variable(&into, value)?;
                }
                let plan = Plan::Continue { state, from: index + 1, attempt: context.attempt, resume: context.resume };
                let with: Vec<String> = healed.iter().map(|(_, _, to)| json(to)).collect();
                (format!("healed with {}", with.join(" and ")), Some(plan))
            }
            Healing::NotApplicable(why) => (format!("{so_far}not applicable: {why}"), None),
            Healing::Failed { tried } => (format!("{so_far}none of {tried} alternatives found the element"), None),
            Healing::Partly { .. } => (format!("{so_far}the action's other element is not there either"), None),
            // Not met: a blocked alternative is tried again or passed over above.
            Healing::Blocked { .. } => ("the alternatives were covered".to_owned(), None),
            Healing::Broken(DriverError::Browser(e)) | Healing::Broken(DriverError::Invalid(e)) => {
                return Err(End::Failed(Failure::Driver { error: self.params.redact_message(&e) }));
            }
            Healing::Broken(e) => (self.params.redact_message(&e.to_string()), None),
        })
    }

    /// What the LLM and the reviewer are shown.
    async fn request<D: Driver>(
        &self,
        driver: &mut D,
        failure: &Failure,
        context: &Context,
        tried: &[Tried],
    ) -> EscalationRequest {
        let observation = match tokio::time::timeout(SNAPSHOT_BUDGET, driver.observe(Capture::WithScreenshot)).await {
            Ok(Ok(mut observation)) => {
                observation.tabs = driver.other_tabs().await;
                observation.redact(&self.params);
                Some(observation)
            }
            Ok(Err(e)) => {
                tracing::warn!("could not snapshot the page for review: {e}");
                None
            }
            Err(_) => None,
        };
        let action = match (context.state, &context.action) {
            (Some(state), Some((index, _))) => Some(PendingAction {
                state: self.name(state),
                index: *index,
                action: self.display.states[state].actions[*index].clone(),
            }),
            _ => None,
        };
        EscalationRequest {
            workflow: self.bound.name.clone(),
            step: self.steps,
            state: context.state.map(|s| self.name(s)),
            failure: failure.clone(),
            reason: crate::explain::failure(failure),
            tried: tried.to_vec(),
            action,
            suggested_checks: observation.as_ref().map(|o| self.suggest_checks(o)).unwrap_or_default(),
            observation,
            states: self.bound.states.iter().map(|s| s.name.clone()).collect(),
            unresolved: self
                .display
                .states
                .iter()
                .filter(|s| s.awaits_synthesis())
                .map(|s| Unresolved { state: s.name.clone(), prompt: s.prompt.clone().unwrap_or_default() })
                .collect(),
        }
    }

    /// Checks that hold on the observed page, for a person creating a state from it: its
    /// address (with parameter values put back as references) and a few elements with
    /// stable selectors.
    fn suggest_checks(&self, observation: &Observation) -> Vec<Check> {
        let mut checks = Vec::new();
        let address = observation.url.split(['?', '#']).next().unwrap_or_default();
        if !address.is_empty() {
            let value = self.params.templatize_prefix(address);
            checks.push(Check::Url { mode: UrlMatch::Prefix, value, negate: false });
        }
        let elements = observation.elements.as_array().map(Vec::as_slice).unwrap_or_default();
        let stable = elements
            .iter()
            .filter_map(|e| e.get("selector").and_then(|s| s.as_str()))
            // Ids, test ids, names, labels and links; not positional paths, which break first.
            .filter(|s| !s.contains(" > ") && !s.contains(":nth"))
            .take(SUGGESTED_ELEMENTS);
        for selector in stable {
            checks.push(Check::Element { by: SelectorKind::Css, selector: selector.to_owned(), negate: false });
        }
        checks
    }

    /// Turns a resolution into the run's next plan.
    fn apply(&mut self, resolution: Resolution, context: &Context) -> Result<Plan, End> {
        self.breakers.reset(context.state);
        let action = context.action.as_ref().map(|(index, _)| *index);
        let resume = context.resume;
        Ok(match (resolution, context.state) {
            (Resolution::Retry, Some(state)) => match action {
                Some(from) => Plan::Continue { state, from, attempt: context.attempt, resume },
                None => Plan::Enter { state, from: 0, attempt: 0, resume },
            },
            (Resolution::Skip, Some(state)) => match action {
                Some(index) => Plan::Continue { state, from: index + 1, attempt: context.attempt, resume },
                // Accept the state as done and wait for the page to move on.
                None => Plan::Recognise { handled: Some((state, Instant::now(), Signals::default())) },
            },
            (Resolution::Retry | Resolution::Skip, None) => Plan::Recognise { handled: None },
            (Resolution::Actions { actions }, _) => Plan::Correct { actions },
            (Resolution::DeclareState { state }, _) => match self.index_of(&state) {
                Some(index) => Plan::Enter { state: index, from: 0, attempt: 0, resume: None },
                None => {
                    let error = format!("the reviewer declared an unknown state `{state}`");
                    return Err(End::Failed(Failure::Review { error }));
                }
            },
            (Resolution::NewState { state, before }, _) => {
                let index = self
                    .add_state(*state, before.as_deref())
                    .map_err(|error| End::Failed(Failure::Review { error }))?;
                Plan::Enter { state: index, from: 0, attempt: 0, resume: None }
            }
            (Resolution::Synthesized { state, checks, actions }, _) => {
                self.synthesize(&state, checks, actions).map_err(|error| End::Failed(Failure::Review { error }))?;
                // The new checks must recognise the page: that is their first verification.
                Plan::Recognise { handled: None }
            }
            (Resolution::Abort { reason }, _) => return Err(End::Failed(Failure::Aborted { reason })),
        })
    }

    /// Why the page is not the terminal state a model declared, when it is not: the state's
    /// checks must hold on the page now. Entering a terminal state ends the run, and nothing
    /// after it would check the model's word: a page it misreads, or one written to talk it
    /// into it, would end the run as a success it never reached. A declared state the run
    /// goes on from is entered as before (that is how a model says a redesigned page is a
    /// known state; the states after it are still recognised by their checks, and the fix is
    /// a proposal a person approves). A person's declaration is trusted: they answer for it.
    async fn unverified<D: Driver>(&mut self, driver: &mut D, name: &str) -> Result<Option<String>, End> {
        let refused = |why: String| Ok(Some(format!("refused the model's `declare_state` of `{name}`: {why}")));
        let Some(index) = self.index_of(name) else {
            return refused("there is no such state".to_owned());
        };
        let Some(signals) = self.read_now(driver).await? else {
            return refused(BUSY.to_owned());
        };
        let results = self.matcher().check_results(index, &signals);
        if results.is_empty() {
            return refused("it has no checks to verify it by".to_owned());
        }
        let failing: Vec<String> = results.into_iter().filter(|r| !r.passed).map(|r| r.check).collect();
        if failing.is_empty() {
            return Ok(None);
        }
        refused(format!("its checks fail on the page ({})", self.params.redact(&failing.join("; "))))
    }

    fn is_terminal_named(&self, name: &str) -> bool {
        self.index_of(name).is_some_and(|i| self.bound.states[i].terminal.is_some())
    }

    /// Makes a prompt-only state of the running workflow concrete (not its file: the fix is
    /// proposed, and saved when approved). The checks and actions arrive with parameter
    /// references, bound here as the rest of the workflow was.
    fn synthesize(&mut self, name: &str, checks: Vec<Check>, actions: Vec<Action>) -> Result<(), String> {
        let index = self.index_of(name).ok_or_else(|| format!("no state `{name}` to synthesise"))?;
        if !self.display.states[index].awaits_synthesis() {
            return Err(format!("state `{name}` has checks already; it is not synthesised"));
        }
        let mut template = self.template.clone();
        template.states[index].checks = checks;
        template.states[index].actions = actions;
        self.rebind(template)
    }

    fn index_of(&self, name: &str) -> Option<usize> {
        self.bound.states.iter().position(|s| s.name == name)
    }

    /// Adds a reviewer's new state to the running workflow (not to its file: saving is the
    /// reviewer's choice, made where the review is resolved).
    fn add_state(&mut self, state: State, before: Option<&str>) -> Result<usize, String> {
        if self.index_of(&state.name).is_some() {
            return Err(format!("a state named `{}` already exists", state.name));
        }
        let at = match before {
            Some(name) => self.index_of(name).ok_or_else(|| format!("no state `{name}` to insert before"))?,
            None => self.bound.states.len(),
        };
        let mut template = self.template.clone();
        template.states.insert(at, state);
        self.rebind(template)?;
        self.visits.insert(at, 0);
        self.breakers.state_added(at);
        Ok(at)
    }
}

/// A model's resolution in force: it worked once the run enters a state past `stuck_at`.
pub(crate) struct PendingAdvice {
    pub stuck_at: Vec<String>,
    /// For a synthesised state: its name, and whether the run has entered it since.
    pub synthesized: Option<String>,
    pub entered: bool,
    pub model: String,
    pub resolution: Resolution,
    pub request: Box<EscalationRequest>,
}

/// The situation a model was asked about: the state, the failure's kind and the action.
pub(crate) fn advice_key(failure: &Failure, context: &Context) -> String {
    let kind =
        serde_json::to_value(failure).ok().and_then(|v| v["kind"].as_str().map(str::to_owned)).unwrap_or_default();
    format!("{:?}/{kind}/{:?}", context.state, context.action.as_ref().map(|(i, _)| *i))
}

fn review_failed(error: ReviewError) -> End {
    End::Failed(match error {
        ReviewError::TimedOut { review_id, seconds } => Failure::ReviewTimeout { review_id, seconds },
        ReviewError::Unavailable(error) => Failure::Review { error },
    })
}
