//! One-paragraph explanations of failures, written for the person reading the terminal.

use crate::event::Failure;

pub fn failure(failure: &Failure) -> String {
    match failure {
        Failure::FailureState { state, message } => {
            format!("reached failure state `{state}`: {message}")
        }
        Failure::Stuck { state, seconds } => format!(
            "stuck in state `{state}`: it still matched {seconds} s after its actions ran (state_timeout); \
             its actions did not lead anywhere, or the next page is not described by any state"
        ),
        Failure::NotVerified { state, attempts, seconds } => format!(
            "state `{state}` was not verified: its actions ran {attempts} time(s) and the page did not move on \
             to a next state within {seconds} s (verify_timeout) each time"
        ),
        Failure::Breaker { breaker, count, limit, state } => format!(
            "circuit breaker `{breaker}` tripped ({count} > {limit}){}",
            state.as_ref().map(|s| format!(" in state `{s}`")).unwrap_or_default()
        ),
        Failure::ReviewTimeout { review_id, seconds } => {
            format!("nobody resolved review {review_id} within {seconds} s (--review-timeout)")
        }
        Failure::Review { error } => format!("the review queue failed: {error}"),
        Failure::Aborted { reason } if reason.is_empty() => "aborted by the reviewer".to_owned(),
        Failure::Aborted { reason } => format!("aborted by the reviewer: {reason}"),
        Failure::NoState { seconds, silent: true, .. } => format!(
            "no state matched for {seconds} s (no_states_timeout): the page did not answer once in that time \
             (a script kept it busy, or it never finished loading)"
        ),
        Failure::NoState { seconds, url, title, closest, .. } => {
            let mut text = format!("no state matched for {seconds} s (no_states_timeout) at {url} (title {title:?})");
            // Chromium's own page where a link, a form or a script led somewhere it could not
            // load: its address says neither where nor why, and it often shows no text.
            if url.starts_with("chrome-error://") {
                text.push_str(
                    ", the browser's error page: the page it was sent to could not be loaded (its server did not \
                     answer or refused, asked for a password, or redirected without end)",
                );
            }
            for d in closest {
                text.push_str(&format!(
                    "\n  closest: `{}` ({}/{} checks pass; failing: {})",
                    d.state,
                    d.passed,
                    d.total,
                    d.failing.join("; ")
                ));
            }
            text
        }
        Failure::Ambiguous { states } => format!(
            "several states matched at once ({}) and allow_multiple_states is false; make their checks exclusive",
            states.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
        ),
        Failure::RecursionLimit { limit } => {
            format!(
                "entered states {limit} times (recursion_limit) without reaching a terminal state; the run is looping"
            )
        }
        Failure::Action { state, index, action, error } => {
            format!("in state `{state}`, action {} ({action}) failed: {error}", index + 1)
        }
        Failure::Driver { error } => format!("the browser failed: {error}"),
        Failure::Setup { error } => format!("cannot start: {error}"),
        Failure::Record { error } => format!("the run could not be recorded: {error}"),
        Failure::NoRoute { from, to } => format!(
            "no known way from `{from}` to `{to}`: no chain of `next` edges or transitions seen in stored runs \
             leads there (`statewright validate` shows the graph's dead ends)"
        ),
    }
}
