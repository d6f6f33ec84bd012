//! Run variables: an `extract` sets one, and the workflow is bound again so that later
//! actions and checks (`{{name}}`, `variable` checks) see its value.

use serde_json::Value;
use statewright_workflow::{Workflow, variables};

use crate::event::Failure;
use crate::executor::{End, Run};
use crate::matcher::Matcher;

impl Run {
    /// Stores what an `extract` read and binds the workflow again with it.
    pub(crate) fn set_variable(&mut self, name: &str, value: Value) -> Result<(), End> {
        let text = variables::as_text(&value);
        if self.params.value(name) != Some(text.as_str()) {
            // What the page shows changed, though maybe nowhere recognition looks (a
            // slider's value read after each key): acting again is progress, not a loop.
            self.page.read_anew();
        }
        self.params.set_variable(name, text);
        let shown = crate::act::shown_value(&self.params, value);
        self.outputs.insert(name.to_owned(), shown);
        self.rebind(self.template.clone()).map_err(|error| End::Failed(Failure::Setup { error }))
    }

    /// Makes `template` the running workflow: bound with the parameters and variables (and
    /// with secrets masked, for display) and compiled. One pass over each string fills in
    /// every reference, so a value that itself reads `{{name}}` is never filled in again.
    pub(crate) fn rebind(&mut self, template: Workflow) -> Result<(), String> {
        let bound = template.bound(&self.params, false);
        let matcher = Matcher::new(&bound, &self.params)?;
        self.display = template.bound(&self.params, true);
        self.bound = bound;
        self.template = template;
        self.matcher = Some(matcher);
        Ok(())
    }

    /// Per action of `state`, a variable it refers to that is not set yet.
    pub(crate) fn unset_references(&self, state: usize) -> Vec<Option<String>> {
        self.bound.states[state]
            .actions
            .iter()
            .map(|action| serde_json::to_value(action).ok().and_then(|v| self.params.unset_reference(&v)))
            .collect()
    }
}
