//! Synthesising a prompt-only state from a page a past run saw (the editor's *Synthesise
//! from this page*, `statewright synthesize`): the stored step's page and screenshot go to
//! the model as a live one would, and its answer is checked the same way. A live run then
//! holds the new checks to the page; here they are held to the stored page, by the same
//! matcher, as far as the record can decide them. Nothing is written here; the caller shows
//! the result, and saves it when asked.

use std::sync::Arc;

use statewright_engine::matcher::Matcher;
use statewright_engine::{Advisor, EscalationRequest, Failure, ModelCall, Observation, Resolution, Unresolved};
use statewright_llm::{Client, LlmAdvisor, LlmConfig};
use statewright_store::Store;
use statewright_workflow::{Params, Workflow};

/// The model's synthesised state, and the calls it took.
#[derive(Debug, Clone)]
pub struct Synthesis {
    pub resolution: Resolution,
    pub calls: Vec<ModelCall>,
    /// The state's checks the stored page could not decide, each with why: they are first
    /// held to a live page when a run meets the state.
    pub undecided: Vec<String>,
}

/// The page of step `step` of run `run_id`, as an escalation about `state`.
pub fn request_from_step(
    store: &Store,
    workflow: &Workflow,
    state: &str,
    run_id: &str,
    step: u32,
) -> Result<(EscalationRequest, Params), String> {
    let target = workflow.states.iter().find(|s| s.name == state).ok_or_else(|| format!("no state `{state}`"))?;
    let prompt = target
        .prompt
        .clone()
        .filter(|p| !p.trim().is_empty())
        .ok_or_else(|| format!("state `{state}` has no prompt to synthesise it from"))?;
    let run_id = store.resolve_run(run_id).map_err(|e| e.to_string())?;
    let detail = store.run_detail(&run_id, true).map_err(|e| e.to_string())?;
    let record =
        detail.steps.iter().find(|s| s.step == step).ok_or_else(|| format!("run {run_id} has no step {step}"))?;
    let page = record.page.as_ref().ok_or_else(|| format!("step {step} of run {run_id} kept no page"))?;
    let screenshot = match &record.screenshot {
        Some(path) => store.read_blob(path).map_err(|e| e.to_string())?.map(Arc::new),
        None => None,
    };
    // The run's values (secrets stay masked: the model never sees them anyway).
    let supplied: Vec<(String, String)> = detail
        .run
        .parameters
        .as_object()
        .map(|o| o.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned()))).collect())
        .unwrap_or_default();
    let params =
        Params::bind(workflow, &supplied).or_else(|_| Params::bind(workflow, &[])).map_err(|e| e.to_string())?;
    let request = EscalationRequest {
        workflow: workflow.name.clone(),
        step,
        state: None,
        failure: Failure::NoState {
            seconds: 0.0,
            url: page.url.clone(),
            title: page.title.clone(),
            closest: vec![],
            silent: false,
        },
        reason: format!("synthesising the state `{state}` from the page step {step} of run {run_id} saw"),
        tried: vec![],
        action: None,
        observation: Some(Observation {
            url: page.url.clone(),
            title: page.title.clone(),
            text: page.text.clone(),
            elements: page.elements.clone(),
            screenshot,
            ..Observation::default()
        }),
        states: workflow.states.iter().map(|s| s.name.clone()).collect(),
        suggested_checks: vec![],
        unresolved: vec![Unresolved { state: state.to_owned(), prompt }],
    };
    Ok((request, params))
}

/// Asks the model for `state` on the stored page; its answer must synthesise that state.
pub async fn synthesize(
    config: LlmConfig,
    workflow: &Workflow,
    state: &str,
    request: EscalationRequest,
    params: Params,
) -> Result<Synthesis, String> {
    let client = Client::new(config).map_err(|e| e.to_string())?;
    let page = request.observation.clone().unwrap_or_default();
    let holding = {
        let (page, workflow, params) = (page.clone(), workflow.clone(), params.clone());
        move |resolution: &Resolution| held_to(&page, &workflow, &params, resolution).map(drop)
    };
    let advisor = LlmAdvisor::new(client, workflow.clone(), params.clone()).holding_to(holding);
    let advice = advisor.advise(request).await;
    match advice.resolution {
        Some(resolution @ Resolution::Synthesized { .. }) if synthesized_state(&resolution) == Some(state) => {
            let undecided = held_to(&page, workflow, &params, &resolution)?;
            Ok(Synthesis { resolution, calls: advice.calls, undecided })
        }
        Some(other) => Err(format!("the model answered `{}` instead of synthesising `{state}`", other.kind())),
        None if advice.note.is_empty() => Err("the model gave no answer".to_owned()),
        None => Err(advice.note),
    }
}

fn synthesized_state(resolution: &Resolution) -> Option<&str> {
    match resolution {
        Resolution::Synthesized { state, .. } => Some(state),
        _ => None,
    }
}

/// Holds a synthesised state's checks to the stored `page`, with the matcher a run uses:
/// `Err` names those that do not hold (and the page), `Ok` those the record cannot decide,
/// each with why. Any other answer has no checks to hold.
fn held_to(
    page: &Observation,
    workflow: &Workflow,
    params: &Params,
    resolution: &Resolution,
) -> Result<Vec<String>, String> {
    let Resolution::Synthesized { state, checks, .. } = resolution else { return Ok(Vec::new()) };
    let mut candidate = workflow.clone();
    let index = candidate.states.iter().position(|s| &s.name == state).ok_or_else(|| format!("no state `{state}`"))?;
    candidate.states[index].checks = checks.clone();
    let matcher = Matcher::new(&candidate.bound(params, false), params)?;
    let signals = page.recorded_signals(matcher.probes());
    let (mut failing, mut undecided) = (Vec::new(), Vec::new());
    for (check, outcome) in matcher.outcomes(index, &signals) {
        match outcome {
            Ok(true) => {}
            Ok(false) => failing.push(check),
            Err(why) => undecided.push(params.redact(&format!("{check}: {why}"))),
        }
    }
    if failing.is_empty() {
        return Ok(undecided);
    }
    Err(params.redact(&format!(
        "its checks do not hold on the page it was written from ({}): that page is {} titled {:?}",
        failing.join("; "),
        page.url,
        page.title
    )))
}
