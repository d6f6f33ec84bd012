//! Live progress on stderr: states entered, each action with its timing, and the end.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use statewright_engine::{Event, RunStatus};

use crate::out::{one_line, safe};

pub struct Progress {
    color: bool,
    dir: PathBuf,
    /// Model calls so far, for the closing line.
    calls: std::cell::Cell<u32>,
}

impl Progress {
    pub fn new(run_id: &str, workflow: &str, browser: &str, dir: &Path) -> Self {
        let progress = Self {
            color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
            dir: dir.to_owned(),
            calls: std::cell::Cell::new(0),
        };
        let (workflow, browser) = (one_line(workflow), one_line(browser));
        progress.line(&format!("{} run {run_id} · {workflow} · {browser}", progress.paint("1", "statewright")));
        progress
    }

    /// `text` (made [`one_line`]: it holds values from data, and a line break in a title or a
    /// message must not start a line of its own) in a colour when stderr shows them.
    fn paint(&self, code: &str, text: &str) -> String {
        let text = one_line(text);
        if self.color { format!("\x1b[{code}m{text}\x1b[0m") } else { text.into_owned() }
    }

    /// A line as it is: its colours are [`Self::paint`]'s, and each value from data in it is
    /// painted or made [`one_line`] where it is put in.
    fn line(&self, text: &str) {
        crate::out::error_raw(&format!("{text}\n"));
    }

    /// A message of several lines, each [`Self::paint`]ed, those after the first indented as
    /// the first is: a line of the message cannot pass for a line of the progress.
    fn lines(&self, code: &str, text: &str) -> String {
        text.lines().map(|line| self.paint(code, line)).collect::<Vec<_>>().join("\n  ")
    }

    fn at(ms: u64) -> String {
        format!("{:>7.2}s", ms as f64 / 1000.0)
    }

    pub fn show(&self, event: &Event) {
        match event {
            Event::StateEntered { state, visit, elapsed_ms, .. } => {
                let again = if *visit > 1 { format!(" (visit {visit})") } else { String::new() };
                self.line(&format!(
                    "{}  {} {}{again}",
                    Self::at(*elapsed_ms),
                    self.paint("36", "▸"),
                    self.paint("1", state)
                ));
            }
            Event::ActionFinished { action, elapsed_ms, duration_ms, attempts, detail, error, value, .. } => {
                let waited = if *attempts > 1 { format!(", {attempts} looks") } else { String::new() };
                // What was read says more than where it was read from.
                let on = match (value, detail) {
                    (Some(value), _) => format!(" = {}", short(&value.to_string())),
                    (None, Some(detail)) => format!(" → {}", one_line(detail)),
                    (None, None) => String::new(),
                };
                // Its URL, text and selector are the workflow's and the parameters'.
                let action = one_line(&action.to_string()).into_owned();
                match error {
                    None => self.line(&format!(
                        "{}      {action}{on}  {}",
                        Self::at(*elapsed_ms),
                        self.paint("2", &format!("{duration_ms} ms{waited}"))
                    )),
                    Some(e) => self.line(&format!(
                        "{}      {action}  {}",
                        Self::at(*elapsed_ms),
                        self.paint("31", &format!("failed after {duration_ms} ms: {e}"))
                    )),
                }
            }
            Event::ModelCalled { call, .. } => {
                self.calls.set(self.calls.get() + 1);
                let tokens = call.prompt_tokens + call.completion_tokens;
                let took = format!("{} ms, {tokens} tokens", call.latency_ms);
                let text = match (&call.error, call.accepted) {
                    (Some(error), _) => self.paint("31", &format!("model {}: {error} ({took})", call.model)),
                    (None, true) => {
                        self.paint("35", &format!("model {}: {} ({took})", call.model, short(&call.answer)))
                    }
                    (None, false) => self.paint("33", &format!("model {}: unusable answer ({took})", call.model)),
                };
                self.line(&format!("           {text}"));
            }
            Event::AdviceWorked { resolution, .. } => {
                self.line(&format!(
                    "           {}",
                    self.paint(
                        "35",
                        &format!(
                            "the model's `{}` got the run going: proposed as a fix (statewright review list)",
                            resolution.kind()
                        )
                    )
                ));
            }
            Event::RoutePlanned { route, cost_ms, replanned, .. } => {
                let how = if *replanned { "replanned" } else { "route" };
                let seconds = *cost_ms as f64 / 1000.0;
                self.line(&format!(
                    "           {}",
                    self.paint("35", &format!("{how}: {} (~{seconds:.1} s)", route.join(" → ")))
                ));
            }
            Event::ActionPreempted { by_state, .. } => {
                self.line(&format!(
                    "           {}",
                    self.paint("33", &format!("interrupted: the page became `{by_state}`"))
                ));
            }
            Event::RunFinished { status, end_state, message, duration_ms, steps, actions, outputs, .. } => {
                let seconds = *duration_ms as f64 / 1000.0;
                let calls = self.calls.get();
                let plural = if calls == 1 { "" } else { "s" };
                let summary =
                    format!("in {seconds:.2} s · {steps} steps · {actions} actions · {calls} LLM call{plural}");
                let text = match status {
                    RunStatus::Succeeded => {
                        let end = end_state.as_deref().unwrap_or("?");
                        let message = if message.is_empty() { String::new() } else { format!(": {message}") };
                        self.paint("32", &format!("✓ succeeded at `{end}`{message} {summary}"))
                    }
                    RunStatus::Failed => {
                        format!("{}\n  {}", self.paint("31", &format!("✗ failed {summary}")), self.lines("31", message))
                    }
                    // The message says why, when the canceller said (a signal, a time limit).
                    RunStatus::Cancelled if message != "cancelled" => {
                        format!("{}\n  {}", self.paint("33", &format!("■ cancelled {summary}")), self.lines("33", message))
                    }
                    RunStatus::Cancelled => self.paint("33", &format!("■ cancelled {summary}")),
                };
                self.line(&text);
                for (name, value) in outputs {
                    self.line(&format!("  {} = {}", one_line(name), short(&value.to_string())));
                }
                self.line(&format!("  run folder: {}", one_line(&self.dir.display().to_string())));
            }
            Event::Retrying { state, attempt, max, reason, .. } => {
                self.line(&format!(
                    "           {}",
                    self.paint("33", &format!("retry {attempt}/{max} of `{state}`: {reason}"))
                ));
            }
            Event::InterruptEntered { state, interrupted: Some(covered), .. } => {
                self.line(&format!("           {}", self.paint("33", &format!("detour: `{state}` over `{covered}`"))));
            }
            Event::Healed { state, index, field, from, to, .. } => {
                let show = |t: &statewright_workflow::Target| serde_json::to_string(t).unwrap_or_default();
                let (action, of) = (index + 1, field.suffix());
                let healed = format!("healed `{state}` action {action}{of}: {} → {}", show(from), show(to));
                self.line(&format!("           {}", self.paint("35", &healed)));
            }
            Event::CheckHealed { state, index, from, to, .. } => {
                let (from, to) =
                    (statewright_engine::matcher::describe(from), statewright_engine::matcher::describe(to));
                self.line(&format!(
                    "           {}",
                    self.paint("35", &format!("healed `{state}` check {}: {from} → {to}", index + 1))
                ));
            }
            Event::BreakerTripped { breaker, count, limit, state } => {
                let within = state.as_ref().map(|s| format!(" in `{s}`")).unwrap_or_default();
                self.line(&format!(
                    "           {}",
                    self.paint("31", &format!("circuit breaker `{breaker}` tripped{within}: {count} > {limit}"))
                ));
            }
            Event::Escalated { stage, outcome, .. } => {
                self.line(&format!("           {}", self.paint("33", &format!("escalation · {stage}: {outcome}"))));
            }
            Event::ReviewRequested { review_id, reason, .. } => {
                const INDENT: &str = "\n             ";
                self.line(&format!(
                    "           {}{INDENT}{}{INDENT}see it: statewright review show {review_id}{INDENT}answer: \
                     statewright review resolve {review_id} retry|skip|actions|declare-state|new-state|abort",
                    self.paint("1;33", &format!("waiting for a person: review {review_id}")),
                    safe(reason).replace('\n', INDENT),
                ));
            }
            Event::ReviewResolved { review_id, resolution } => {
                self.line(&format!(
                    "           {}",
                    self.paint("32", &format!("review {review_id} resolved: {}", resolution.kind()))
                ));
            }
            Event::RunStarted { .. }
            | Event::ActionStarted { .. }
            | Event::Observed { .. }
            | Event::Verified { .. }
            | Event::InterruptEntered { .. }
            // The action's own line says it opened a tab, and where.
            | Event::TabOpened { .. }
            | Event::ChecksLocated { .. } => {}
        }
    }
}

/// An answer on one line, shortened (and [`safe`]).
fn short(text: &str) -> String {
    let line = safe(text).split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= 100 { line } else { format!("{}…", line.chars().take(99).collect::<String>()) }
}
