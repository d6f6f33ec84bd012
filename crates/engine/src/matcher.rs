//! Recognising states: the workflow's checks compiled into one deduplicated list of page
//! probes (evaluated in a single round trip) plus URL and title predicates evaluated here.

use std::collections::HashMap;

use regex::Regex;
use statewright_workflow::{
    Check, Params, SelectorKind, TextMatch, TitleMatch, UrlMatch, VariableMatch, WindowSelector, Workflow, variables,
};

use crate::driver::{Probe, Signals, WindowProbe};
use crate::event::{CheckResult, Diagnosis};

enum Predicate {
    Url(UrlMatch, String, Option<Regex>),
    Title(TitleMatch, String, Option<Regex>),
    Probe(usize),
    /// Decided when compiled: a `variable` check.
    Known(bool),
    /// A check on this variable, which is not set yet: it fails, negated or not ("not text
    /// {{total}}" must not hold merely because nothing was read).
    Unset(String),
}

struct CompiledCheck {
    predicate: Predicate,
    negate: bool,
    description: String,
}

/// The compiled form of a bound workflow's checks.
pub struct Matcher {
    probes: Vec<Probe>,
    states: Vec<Vec<CompiledCheck>>,
    /// Each state's `expect` checks (empty: none).
    expectations: Vec<Vec<CompiledCheck>>,
    interrupts: Vec<bool>,
    names: Vec<String>,
}

/// Probes shared by all compiled checks, deduplicated.
#[derive(Default)]
struct ProbeTable {
    probes: Vec<Probe>,
    index: HashMap<Probe, usize>,
}

impl ProbeTable {
    fn intern(&mut self, probe: Probe) -> usize {
        *self.index.entry(probe.clone()).or_insert_with(|| {
            self.probes.push(probe);
            self.probes.len() - 1
        })
    }
}

fn compile(check: &Check, state: &str, params: &Params, table: &mut ProbeTable) -> Result<CompiledCheck, String> {
    let pattern =
        |value: &str| Regex::new(value).map_err(|e| format!("state `{state}`: invalid pattern `{value}`: {e}"));
    if let Some(name) = serde_json::to_value(check).ok().and_then(|v| params.unset_reference(&v)) {
        let description = format!("{} (`{name}` is not set yet)", describe(check));
        return Ok(CompiledCheck { predicate: Predicate::Unset(name), negate: false, description });
    }
    let (predicate, negate) = match check {
        Check::Variable { name, mode, value, negate } => {
            let re = (*mode == VariableMatch::Pattern).then(|| pattern(value)).transpose()?;
            let Some(actual) = params.value(name) else {
                let description = format!("{} (`{name}` is not set yet)", describe(check));
                return Ok(CompiledCheck { predicate: Predicate::Unset(name.clone()), negate: false, description });
            };
            let holds = variables::compare(*mode, actual, value, re.as_ref());
            let description = format!("{} (it is {actual:?})", describe(check));
            return Ok(CompiledCheck { predicate: Predicate::Known(holds), negate: *negate, description });
        }
        Check::Url { mode, value, negate } => {
            let re = (*mode == UrlMatch::Pattern).then(|| pattern(value)).transpose()?;
            let value = if *mode == UrlMatch::Exact { as_the_browser_spells(value) } else { value.clone() };
            (Predicate::Url(*mode, value, re), *negate)
        }
        Check::Title { mode, value, negate } => {
            let re = (*mode == TitleMatch::Pattern).then(|| pattern(value)).transpose()?;
            (Predicate::Title(*mode, value.clone(), re), *negate)
        }
        Check::Text { mode, value, negate } => {
            (Predicate::Probe(table.intern(Probe::Text { value: value.clone(), mode: *mode })), *negate)
        }
        Check::Element { by, selector, negate } => {
            (Predicate::Probe(table.intern(Probe::Element { by: *by, selector: selector.clone() })), *negate)
        }
        Check::WindowTitle { negate, .. }
        | Check::AppClass { negate, .. }
        | Check::WindowExists { negate, .. }
        | Check::WindowFocused { negate, .. } => {
            let probe = window_probe(check).expect("a window check");
            if let Probe::Window { window: WindowSelector { title: Some(t), mode: TitleMatch::Pattern, .. }, .. } =
                &probe
            {
                pattern(t)?;
            }
            (Predicate::Probe(table.intern(probe)), *negate)
        }
    };
    Ok(CompiledCheck { predicate, negate, description: describe(check) })
}

/// `url` as the browser shows it, so that an exact check compares URLs rather than their
/// spellings: for http(s), ws(s) and ftp, the scheme and host in small letters, no default
/// port, and `/` for an empty path (`{{site}}` is the site's root the browser shows as
/// `{{site}}/`). The path, query and fragment are the site's to spell and stay as written.
fn as_the_browser_spells(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" | "ws" => ":80",
        "https" | "wss" => ":443",
        "ftp" => ":21",
        _ => return url.to_owned(),
    };
    let (authority, tail) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
    let (userinfo, host) = authority.split_at(authority.rfind('@').map_or(0, |at| at + 1));
    let host = host.to_ascii_lowercase();
    let host = host.strip_suffix(default_port).unwrap_or(&host);
    let root = if tail.starts_with('/') { "" } else { "/" };
    format!("{scheme}://{userinfo}{host}{root}{tail}")
}

impl Matcher {
    /// Compiles every state's checks, `variable` checks against the current `params`.
    /// Fails only on a pattern that binding made invalid.
    pub fn new(workflow: &Workflow, params: &Params) -> Result<Self, String> {
        let mut table = ProbeTable::default();
        let mut states = Vec::new();
        let mut expectations = Vec::new();
        for state in &workflow.states {
            let checks = state.checks.iter().map(|c| compile(c, &state.name, params, &mut table));
            states.push(checks.collect::<Result<Vec<_>, _>>()?);
            let expect = state.expect.iter().map(|c| compile(c, &state.name, params, &mut table));
            expectations.push(expect.collect::<Result<Vec<_>, _>>()?);
        }
        let interrupts = workflow.states.iter().map(|s| s.interrupt).collect();
        let names = workflow.states.iter().map(|s| s.name.clone()).collect();
        Ok(Self { probes: table.probes, states, expectations, interrupts, names })
    }

    /// The state the page is in: the first matching interrupt (a popup over the page wins
    /// over the page), otherwise the first matching state.
    pub fn top(&self, matched: &[usize]) -> Option<usize> {
        matched.iter().copied().find(|&i| self.interrupts[i]).or_else(|| matched.first().copied())
    }

    pub fn is_interrupt(&self, index: usize) -> bool {
        self.interrupts[index]
    }

    /// Whether the state's `expect` checks all hold; `None` when it has none.
    pub fn expectations_hold(&self, index: usize, signals: &Signals) -> Option<bool> {
        let expect = &self.expectations[index];
        (!expect.is_empty()).then(|| expect.iter().all(|c| self.holds(c, signals)))
    }

    pub fn state_name(&self, index: usize) -> &str {
        &self.names[index]
    }

    pub fn probes(&self) -> &[Probe] {
        &self.probes
    }

    /// Indexes of the states whose checks all hold, in priority order.
    pub fn matching(&self, signals: &Signals) -> Vec<usize> {
        (0..self.states.len()).filter(|&i| self.state_matches(i, signals)).collect()
    }

    fn state_matches(&self, index: usize, signals: &Signals) -> bool {
        let checks = &self.states[index];
        !checks.is_empty() && checks.iter().all(|c| self.holds(c, signals))
    }

    fn holds(&self, check: &CompiledCheck, signals: &Signals) -> bool {
        self.outcome(check, signals).unwrap_or(false)
    }

    /// Whether `check` holds on `signals`, or why that cannot be said: a probe the page
    /// could not evaluate, or a variable not set yet. Either fails the check, negated or not.
    fn outcome(&self, check: &CompiledCheck, signals: &Signals) -> Result<bool, String> {
        let raw = match &check.predicate {
            Predicate::Url(mode, value, re) => match mode {
                UrlMatch::Exact => signals.url == *value,
                UrlMatch::Prefix => signals.url.starts_with(value.as_str()),
                UrlMatch::Pattern => re.as_ref().is_some_and(|re| re.is_match(&signals.url)),
            },
            Predicate::Title(mode, value, re) => match mode {
                TitleMatch::Exact => signals.title == *value,
                TitleMatch::Contains => signals.title.contains(value.as_str()),
                TitleMatch::Pattern => re.as_ref().is_some_and(|re| re.is_match(&signals.title)),
            },
            Predicate::Probe(i) => match signals.errors.iter().find(|e| e.index == *i) {
                Some(error) => return Err(error.message.clone()),
                None => signals.results.get(*i).copied().unwrap_or(false),
            },
            Predicate::Known(holds) => *holds,
            Predicate::Unset(name) => return Err(format!("`{name}` has no value")),
        };
        Ok(raw != check.negate)
    }

    /// Each check of a state with its result, for the record of a state entry.
    pub fn check_results(&self, index: usize, signals: &Signals) -> Vec<CheckResult> {
        self.outcomes(index, signals)
            .into_iter()
            .map(|(check, outcome)| CheckResult { check, passed: outcome.unwrap_or(false) })
            .collect()
    }

    /// Each check of a state, described, with whether it holds or why that cannot be said
    /// (a page record that cannot decide a probe says so as a probe error).
    pub fn outcomes(&self, index: usize, signals: &Signals) -> Vec<(String, Result<bool, String>)> {
        self.states[index].iter().map(|c| (c.description.clone(), self.outcome(c, signals))).collect()
    }

    /// The states closest to matching (most checks passing first), for "no state" errors.
    pub fn diagnose(&self, signals: &Signals, limit: usize) -> Vec<Diagnosis> {
        let mut all: Vec<Diagnosis> = (0..self.states.len())
            .map(|i| {
                let results = self.check_results(i, signals);
                Diagnosis {
                    state: self.names[i].clone(),
                    passed: results.iter().filter(|r| r.passed).count(),
                    total: results.len(),
                    failing: results.into_iter().filter(|r| !r.passed).map(|r| r.check).collect(),
                }
            })
            .collect();
        // Stable sort keeps priority order among equally close states.
        all.sort_by(|a, b| {
            let score = |d: &Diagnosis| d.passed as f64 / d.total.max(1) as f64;
            score(b).total_cmp(&score(a))
        });
        all.truncate(limit);
        all
    }

    /// Probe errors rendered for people, e.g. a selector the page rejected.
    pub fn probe_errors(&self, signals: &Signals) -> Vec<String> {
        signals
            .errors
            .iter()
            .map(|e| match self.probes.get(e.index) {
                Some(p) => format!("{}: {}", describe_probe(p), e.message),
                None => e.message.clone(),
            })
            .collect()
    }
}

/// The window probe a desktop check compiles to.
pub fn window_probe(check: &Check) -> Option<Probe> {
    let (check, window) = match check {
        Check::WindowTitle { mode, value, .. } => {
            (WindowProbe::FocusedTitle, WindowSelector { title: Some(value.clone()), mode: *mode, app_class: None })
        }
        Check::AppClass { value, .. } => {
            (WindowProbe::FocusedClass, WindowSelector { app_class: Some(value.clone()), ..Default::default() })
        }
        Check::WindowExists { .. } => (WindowProbe::Exists, check.window_selector()?),
        Check::WindowFocused { .. } => (WindowProbe::Focused, check.window_selector()?),
        _ => return None,
    };
    Some(Probe::Window { check, window })
}

fn describe_title(what: &str, mode: TitleMatch, value: &str) -> String {
    match mode {
        TitleMatch::Exact => format!("{what} = {value:?}"),
        TitleMatch::Contains => format!("{what} contains {value:?}"),
        TitleMatch::Pattern => format!("{what} matches /{value}/"),
    }
}

fn describe_probe(probe: &Probe) -> String {
    match probe {
        Probe::Window { check: WindowProbe::FocusedTitle, window } => {
            describe_title("window title", window.mode, window.title.as_deref().unwrap_or_default())
        }
        Probe::Window { check: WindowProbe::FocusedClass, window } => {
            format!("app class {:?}", window.app_class.as_deref().unwrap_or_default())
        }
        Probe::Window { check: WindowProbe::Exists, window } => format!("{window} exists"),
        Probe::Window { check: WindowProbe::Focused, window } => format!("{window} focused"),
        Probe::Text { value, mode: TextMatch::Equals } => format!("text {value:?}"),
        Probe::Text { value, mode: TextMatch::Contains } => format!("text contains {value:?}"),
        Probe::Element { by: SelectorKind::Css, selector } => format!("element {selector:?}"),
        Probe::Element { by: SelectorKind::Xpath, selector } => format!("element xpath {selector:?}"),
    }
}

/// A one-line human form of a check, e.g. `url starts with "https://x/"`.
pub fn describe(check: &Check) -> String {
    let (negate, text) = match check {
        Check::Url { mode, value, negate } => (
            *negate,
            match mode {
                UrlMatch::Exact => format!("url = {value:?}"),
                UrlMatch::Prefix => format!("url starts with {value:?}"),
                UrlMatch::Pattern => format!("url matches /{value}/"),
            },
        ),
        Check::Title { mode, value, negate } => (
            *negate,
            match mode {
                TitleMatch::Exact => format!("title = {value:?}"),
                TitleMatch::Contains => format!("title contains {value:?}"),
                TitleMatch::Pattern => format!("title matches /{value}/"),
            },
        ),
        Check::Text { mode, value, negate } => {
            (*negate, describe_probe(&Probe::Text { value: value.clone(), mode: *mode }))
        }
        Check::Element { by, selector, negate } => {
            (*negate, describe_probe(&Probe::Element { by: *by, selector: selector.clone() }))
        }
        Check::WindowTitle { negate, .. }
        | Check::AppClass { negate, .. }
        | Check::WindowExists { negate, .. }
        | Check::WindowFocused { negate, .. } => {
            (*negate, window_probe(check).map(|p| describe_probe(&p)).unwrap_or_default())
        }
        Check::Variable { name, mode, value, negate } => {
            (*negate, format!("variable {name} {} {value:?}", variables::describe(*mode)))
        }
    };
    if negate { format!("not {text}") } else { text }
}
