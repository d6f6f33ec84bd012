//! The run's goal as the workflow the store keeps and the model's prompt reads.

use indexmap::IndexMap;
use statewright_workflow::{Action, Check, Outcome, Parameter, State, Terminal, UrlMatch, Workflow};

/// The one state a goal's run ends in when it succeeds.
pub(crate) const GOAL: &str = "Goal reached";

/// The run's goal as a workflow: what the prompt and the answer checks read (the goal as
/// its description, the parameters, the start page's origin as the one allowed), and what
/// the store keeps as the workflow run.
pub(super) fn goal_workflow(goal: &str, url: &str, supplied: &[(String, String)]) -> Workflow {
    let parameters: IndexMap<String, Parameter> = supplied
        .iter()
        .map(|(k, v)| {
            // Secrets are given, never declared with their value: the workflow is stored.
            let secret = statewright_workflow::params::names_a_secret(k);
            (k.clone(), Parameter { description: String::new(), default: (!secret).then(|| v.clone()), secret })
        })
        .collect();
    let start = State {
        name: "Start".into(),
        description: String::new(),
        prompt: None,
        checks: vec![Check::Url { mode: UrlMatch::Exact, value: "about:blank".into(), negate: false }],
        actions: vec![Action::NavigateTo { url: url.to_owned() }],
        continuous: false,
        interrupt: false,
        next: vec![GOAL.into()],
        expect: Vec::new(),
        terminal: None,
    };
    let done = State {
        name: GOAL.into(),
        description: "what the model said reaches the goal".into(),
        prompt: Some(goal.to_owned()),
        checks: Vec::new(),
        actions: Vec::new(),
        continuous: false,
        interrupt: false,
        next: Vec::new(),
        expect: Vec::new(),
        terminal: Some(Terminal { outcome: Outcome::Success, message: String::new() }),
    };
    Workflow {
        version: statewright_workflow::FORMAT_VERSION,
        name: format!("agent: {}", goal.chars().take(60).collect::<String>()),
        description: goal.to_owned(),
        parameters,
        config: Default::default(),
        skill: None,
        states: vec![start, done],
    }
}
