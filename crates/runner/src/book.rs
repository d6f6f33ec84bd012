//! Writing a run that no workflow drives (a recording, an agent run) into the store: each
//! page a step, with what was done on it, so it is a trajectory like any run's.

use std::time::Instant;

use statewright_engine::{Event, Observation};
use statewright_store::{RunHandle, Store};
use statewright_workflow::{Action, Params, Target};

use crate::error::RunError;

/// Hears each event of a run once it is in the store (the app's live view).
pub type Listener = Box<dyn FnMut(&Event) + Send>;

/// Writes acts as steps of the recording's run: one step per act, with the page it was done on.
pub(crate) struct Book<'a> {
    store: &'a Store,
    handle: &'a mut RunHandle,
    began: Instant,
    pub(crate) step: u32,
    /// Masks the secret values (as written, percent-encoded, inside longer text).
    secrets: Params,
    /// What steps are called: `page 3`, `agent step 3`.
    noun: &'static str,
    listener: Option<Listener>,
}

impl<'a> Book<'a> {
    pub(crate) fn new(
        store: &'a Store,
        handle: &'a mut RunHandle,
        began: Instant,
        secrets: Params,
        noun: &'static str,
    ) -> Self {
        Book { store, handle, began, step: 0, secrets, noun, listener: None }
    }

    /// Events are handed to `listener` after they are stored.
    pub(crate) fn listen(mut self, listener: Option<Listener>) -> Self {
        self.listener = listener;
        self
    }

    pub(crate) fn observe(&mut self, mut obs: Observation) -> Result<u32, RunError> {
        self.step += 1;
        self.redact(&mut obs);
        let step = self.step;
        let events = [
            Event::StateEntered {
                step,
                state: format!("{} {step}", self.noun),
                state_index: 0,
                visit: 1,
                elapsed_ms: self.began.elapsed().as_millis() as u64,
                url: obs.url.clone(),
                checks: Vec::new(),
                also_matched: Vec::new(),
            },
            Event::Observed { step, observation: obs },
        ];
        self.store.record_all(self.handle, &events).map_err(|e| RunError::environment("store", e.to_string()))?;
        events.iter().for_each(|e| self.notify(e));
        Ok(step)
    }

    /// A page and the action done on it.
    pub(crate) fn write(
        &mut self,
        obs: Observation,
        action: &Action,
        detail: Option<String>,
        alternatives: Vec<Target>,
        error: Option<String>,
    ) -> Result<(), RunError> {
        let step = self.observe(obs)?;
        self.act(step, 0, action, detail, alternatives, error)
    }

    /// Action `index` done on the page of `step`.
    pub(crate) fn act(
        &mut self,
        step: u32,
        index: usize,
        action: &Action,
        detail: Option<String>,
        alternatives: Vec<Target>,
        error: Option<String>,
    ) -> Result<(), RunError> {
        let done = Event::ActionFinished {
            step,
            state: format!("{} {step}", self.noun),
            index,
            action: action.clone(),
            elapsed_ms: self.began.elapsed().as_millis() as u64,
            duration_ms: 0,
            attempts: 1,
            detail,
            error,
            alternatives,
            to_alternatives: Vec::new(),
            artifact: None,
            value: None,
        };
        self.event(&done)
    }

    pub(crate) fn event(&mut self, event: &Event) -> Result<(), RunError> {
        self.store.record(self.handle, event).map_err(|e| RunError::environment("store", e.to_string()))?;
        self.notify(event);
        Ok(())
    }

    fn notify(&mut self, event: &Event) {
        if let Some(listener) = self.listener.as_mut() {
            listener(event);
        }
    }

    /// Values of secret parameters never reach the store, even if a page shows one.
    fn redact(&self, obs: &mut Observation) {
        obs.redact(&self.secrets);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use statewright_store::NewRun;
    use statewright_workflow::params::MASK;

    #[test]
    fn a_secret_the_page_shows_is_masked_in_every_form_before_it_is_stored() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("statewright.db")).unwrap();
        let parameters = json!({});
        let run = NewRun {
            id: "r1",
            workflow_name: "recording",
            workflow_json: "{}",
            parameters: &parameters,
            browser: "headless Chromium",
            workflow_path: None,
        };
        let mut handle = store.start_run(&run).unwrap();
        let secrets = Params::masking(vec!["p@ss wörd".to_owned()]);
        let mut book = Book::new(&store, &mut handle, Instant::now(), secrets, "page");
        let obs = Observation {
            url: "http://127.0.0.1/?pw=p%40ss%20w%C3%B6rd".to_owned(),
            title: "p@ss wörd".to_owned(),
            text: "signed in as p@ss+w%c3%b6rd".to_owned(),
            elements: json!([{"name": "p@ss wörd", "value": "p%40ss%20wörd"}]),
            ..Observation::default()
        };
        book.observe(obs).unwrap();
        let detail = store.run_detail("r1", true).unwrap();
        let stored = serde_json::to_string(&detail.steps).unwrap();
        for leak in ["p@ss", "p%40ss", "w%C3%B6rd", "w%c3%b6rd", "wörd"] {
            assert!(!stored.contains(leak), "{leak} in {stored}");
        }
        assert!(stored.contains(MASK), "{stored}");
    }
}
