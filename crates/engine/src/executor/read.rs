//! The engine's own looks at the page, outside an action: to recognise a state, to verify
//! that the run moved on, to re-observe while escalating. A page too busy to answer in time
//! (a long script, a document of tens of thousands of elements) is not a dead browser: the
//! driver tells the two apart (a page's timeout is retryable, `DriverError::is_retryable`,
//! unless the browser itself does not answer either), and a busy page is looked at again
//! within the caller's own time budget, or shows no state, which escalates as usual.

use std::time::Duration;

use statewright_workflow::Params;
use tokio::time::Instant;

use super::{End, Run, deadline, secs};
use crate::driver::{Driver, DriverError, Probe, Signals};
use crate::event::Failure;

/// What the run says of a page that did not answer a look in time.
pub(crate) const BUSY: &str = "the page did not answer in time";

/// The least time a page is given to answer a look, however little its caller has left:
/// a document of tens of thousands of elements takes a moment to read.
const LEAST_ANSWER: Duration = Duration::from_secs(1);

/// How long the page may take to answer a look whose caller must be done by `until`.
pub(crate) fn answer_by(until: Instant) -> Duration {
    until.saturating_duration_since(Instant::now()).max(LEAST_ANSWER)
}

impl Run {
    /// Reads the signals at once, giving the page [`Run::look_patience`] to answer.
    pub async fn read_now<D: Driver>(&self, driver: &mut D) -> Result<Option<Signals>, End> {
        self.read_with(driver, None, Duration::ZERO, self.look_patience()).await
    }

    /// How long the page may take to answer a look with no deadline of its own (an
    /// escalation stage's, the first of a wait): no longer than the workflow lets a page
    /// show no state, `no_states_timeout`.
    pub(crate) fn look_patience(&self) -> Duration {
        secs(self.bound.config.no_states_timeout).max(LEAST_ANSWER)
    }

    /// Reads the signals once they differ from `since`, waiting up to `wait`, for a caller
    /// that must be done by `until` (see [`look`]); the page has the time left to answer,
    /// but no more than [`Run::look_patience`].
    pub async fn read<D: Driver>(
        &self,
        driver: &mut D,
        since: &Signals,
        wait: Duration,
        until: Instant,
    ) -> Result<Option<Signals>, End> {
        self.read_with(driver, Some(since), wait, answer_by(until).min(self.look_patience())).await
    }

    /// Probe errors are logged once per read.
    async fn read_with<D: Driver>(
        &self,
        driver: &mut D,
        since: Option<&Signals>,
        wait: Duration,
        answer: Duration,
    ) -> Result<Option<Signals>, End> {
        let matcher = self.matcher();
        let Some(signals) = look(driver, matcher.probes(), since, wait, answer, &self.params).await? else {
            return Ok(None);
        };
        for error in matcher.probe_errors(&signals) {
            tracing::warn!("check could not be evaluated: {}", self.params.redact(&error));
        }
        self.page.saw(&signals);
        Ok(Some(signals))
    }
}

/// Reads `probes`, optionally waiting up to `timeout` for the signals to differ from
/// `since`; the page has `answer` to answer. `None`: the page did not answer in time; the
/// look still lasts `timeout`, so that a caller looking again is paced as by a page that
/// answered. A browser that does not answer ends the run.
pub(crate) async fn look<D: Driver>(
    driver: &mut D,
    probes: &[Probe],
    since: Option<&Signals>,
    timeout: Duration,
    answer: Duration,
    params: &Params,
) -> Result<Option<Signals>, End> {
    let began = Instant::now();
    match driver.signals(probes, since, timeout, answer).await {
        Ok(signals) => Ok(Some(signals)),
        Err(busy) if busy.is_retryable() => {
            tracing::warn!("{}", busy_warning(&params.redact(&busy.to_string())));
            tokio::time::sleep_until(deadline(began, timeout)).await;
            Ok(None)
        }
        // Its own words: the run's message says "the browser failed: " before them.
        Err(DriverError::Browser(e)) => Err(End::Failed(Failure::Driver { error: params.redact_message(&e) })),
        Err(e) => Err(End::Failed(Failure::Driver { error: params.redact_message(&e.to_string()) })),
    }
}

/// The log's line for a look the page did not answer: what the driver said, when it says
/// more than that ("the page did not answer in time: the page did not answer in time").
fn busy_warning(said: &str) -> String {
    if said.starts_with(BUSY) { said.to_owned() } else { format!("{BUSY}: {said}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_page_is_said_to_be_busy_once() {
        assert_eq!(busy_warning(BUSY), "the page did not answer in time");
        assert_eq!(
            busy_warning("the new page did not show within 5 s"),
            "the page did not answer in time: the new page did not show within 5 s"
        );
    }
}
