//! Skills mined from successful runs: each run cut into segments at its landmarks (a new
//! place: another URL path), popups and undo pairs left out; in each segment the typed text
//! becomes variables (and so does an element named after it, the suggestion picked after
//! typing); a segment is proposed as a skill only where at least `min_runs` runs did the
//! same thing, whatever they typed. Proposals name the runs they came from; nothing is
//! written here.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::Serialize;
use statewright_workflow::{
    Action, Check, FORMAT_VERSION, Outcome, Parameter, Skill, State, Terminal, UrlMatch, Workflow,
};

use crate::compile::{drop_undo_pairs, fold_opening_clicks, same_place, stablest};
use crate::literals::Literals;
use crate::names::secret_name;
use crate::trajectory::{Ending, Page, Trajectory};

#[derive(Debug, Clone)]
pub struct MineOptions {
    /// How many runs must agree on a segment.
    pub min_runs: usize,
    /// The fewest actions a skill is worth having.
    pub min_actions: usize,
}

impl Default for MineOptions {
    fn default() -> Self {
        Self { min_runs: 2, min_actions: 2 }
    }
}

/// A proposed skill and the runs that agree on it.
#[derive(Debug, Clone, Serialize)]
pub struct Proposal {
    pub skill: Workflow,
    /// The sources (runs) whose segment it is, in the order given.
    pub runs: Vec<String>,
}

/// What mining saw besides its proposals: runs left out, and why.
#[derive(Debug, Clone, Default, Serialize)]
pub struct MineReport {
    pub proposals: Vec<Proposal>,
    pub skipped: Vec<String>,
}

/// A segment several runs did, the runs doing it and where each of them went next.
struct Agreement {
    segment: Segment,
    runs: Vec<String>,
    nexts: Vec<Option<String>>,
}

/// One segment of one run: its place, what was done, and where it led.
struct Segment {
    place: String,
    next: Option<String>,
    /// The actions, their literals as `{{variables}}`.
    actions: Vec<Action>,
    parameters: IndexMap<String, Parameter>,
}

pub fn mine(runs: &[Trajectory], options: &MineOptions) -> MineReport {
    let mut report = MineReport::default();
    // Segments by what they do (their place and templated actions).
    let mut agreed: BTreeMap<String, Agreement> = BTreeMap::new();
    for run in runs {
        if run.ending != Ending::Succeeded {
            report.skipped.push(format!("{}: not a successful run", run.source));
            continue;
        }
        for segment in segments(run).into_iter().filter(|s| s.actions.len() >= options.min_actions) {
            let key = serde_json::to_string(&(&segment.place, &segment.actions)).unwrap_or_default();
            let next = segment.next.clone();
            let entry = agreed.entry(key).or_insert_with(|| Agreement { segment, runs: Vec::new(), nexts: Vec::new() });
            if !entry.runs.contains(&run.source) {
                entry.runs.push(run.source.clone());
                entry.nexts.push(next);
            }
        }
    }
    let mut names: Vec<String> = Vec::new();
    for Agreement { mut segment, runs: sources, nexts } in
        agreed.into_values().filter(|a| a.runs.len() >= options.min_runs.max(1))
    {
        // Where it leads is a postcondition only when every run went there (a page some
        // runs see in between, like an interstitial, is no landmark).
        segment.next = nexts.iter().all(|n| *n == nexts[0]).then(|| nexts[0].clone()).flatten();
        let mut name = segment_name(&segment);
        let base = name.clone();
        for n in 2.. {
            if !names.contains(&name) {
                break;
            }
            name = format!("{base}-{n}");
        }
        names.push(name.clone());
        report.proposals.push(Proposal { skill: skill(name, segment, &sources), runs: sources });
    }
    report
}

/// A run cut at every change of place; popups (overlay pages) and undo pairs left out.
fn segments(run: &Trajectory) -> Vec<Segment> {
    let mut pages: Vec<Page> = run.pages.iter().filter(|p| !p.overlay).cloned().collect();
    drop_undo_pairs(&mut pages);
    fold_opening_clicks(&mut pages);
    let mut out: Vec<Segment> = Vec::new();
    let mut current: Option<(String, Vec<(&Page, usize)>)> = None;
    let flush = |current: Option<(String, Vec<(&Page, usize)>)>, next: Option<&str>, out: &mut Vec<Segment>| {
        if let Some((place, acts)) = current.filter(|(_, acts)| !acts.is_empty()) {
            out.push(segment(place, next, &acts, &mut Literals::new(&run.parameters)));
        }
    };
    for page in &pages {
        let moved = current.as_ref().is_none_or(|(place, _)| !same_place(place, &page.url));
        if moved {
            flush(current.take(), Some(&page.url), &mut out);
            current = Some((page.url.clone(), Vec::new()));
        }
        let acts = &mut current.as_mut().expect("set above").1;
        for (i, act) in page.acts.iter().enumerate() {
            // A navigation starts a place of its own: it is where a skill begins, not part of one.
            if matches!(act.action, Action::NavigateTo { .. }) {
                continue;
            }
            acts.push((page, i));
        }
    }
    flush(current, None, &mut out);
    out
}

fn segment(place: String, next: Option<&str>, acts: &[(&Page, usize)], literals: &mut Literals) -> Segment {
    let mut parameters = IndexMap::new();
    let mut typed: Vec<(String, String)> = Vec::new(); // (value, variable)
    let mut actions = Vec::new();
    for (page, i) in acts {
        let act = &page.acts[*i];
        let mut action = act.action.clone();
        if let Some(target) = action.target_mut() {
            *target = stablest(target, &act.alternatives);
            // An element named after something typed before (the suggestion for it), or
            // found by it (a card whose heading is the product).
            for (value, variable) in &typed {
                let reference = format!("{{{{{variable}}}}}");
                for field in [&mut target.name, &mut target.text].into_iter().flatten().filter(|f| *f == value) {
                    *field = reference.clone();
                }
                for field in [&mut target.css, &mut target.xpath].into_iter().flatten() {
                    for quote in ['\'', '"'] {
                        *field =
                            field.replace(&format!("{quote}{value}{quote}"), &format!("{quote}{reference}{quote}"));
                    }
                }
            }
        }
        match &mut action {
            Action::Type { text, .. } => {
                // Named after the run's parameter it was, else after the field.
                let name = match literals.whole(text).strip_prefix("{{").and_then(|r| r.strip_suffix("}}")) {
                    Some(parameter) => parameter.to_owned(),
                    None if act.secret => secret_name(page, act),
                    None => variable_name(page, act, &parameters),
                };
                let default = (!act.secret).then(|| text.clone());
                typed.push((text.clone(), name.clone()));
                let description = format!("typed into {}", describe(page, act));
                parameters.insert(name.clone(), Parameter { description, default, secret: act.secret });
                *text = format!("{{{{{name}}}}}");
            }
            Action::SelectOption { value, label, .. } => {
                for chosen in [value, label].into_iter().flatten().flat_map(statewright_workflow::Choices::iter_mut) {
                    *chosen = literals.whole(chosen);
                }
            }
            _ => {}
        }
        actions.push(action);
    }
    let place = literals.url(strip_query(&place));
    let next = next.map(|n| literals.url(strip_query(n)));
    for name in literals.used.iter() {
        let default = literals.value_of(name).map(str::to_owned);
        parameters.entry(name.clone()).or_insert(Parameter { description: String::new(), default, secret: false });
    }
    Segment { place, next, actions, parameters }
}

fn strip_query(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

/// A variable named after the field it was typed into (`Product` → `product`).
fn variable_name(page: &Page, act: &crate::trajectory::Act, taken: &IndexMap<String, Parameter>) -> String {
    let base = match secret_name(page, act).as_str() {
        "password" => "text".to_owned(),
        name => name.to_owned(),
    };
    let mut name = base.clone();
    for n in 2.. {
        if !taken.contains_key(&name) {
            break;
        }
        name = format!("{base}_{n}");
    }
    name
}

fn describe(page: &Page, act: &crate::trajectory::Act) -> String {
    page.element_of(act).map(|e| format!("`{}`", e.label())).unwrap_or_else(|| "a field".into())
}

/// `…/search.html` with a first element `Product` → `search-product`.
fn segment_name(segment: &Segment) -> String {
    let page = strip_query(&segment.place).trim_end_matches('/').rsplit('/').next().unwrap_or("page");
    let page = page.split('.').next().filter(|p| !p.is_empty() && !p.contains("{{")).unwrap_or("page");
    let first =
        segment.actions.first().and_then(Action::target).and_then(|t| {
            t.name.clone().or_else(|| t.text.clone()).or_else(|| t.css.clone()).or_else(|| t.role.clone())
        });
    let words = format!("{page} {}", first.unwrap_or_default());
    let mut name = String::new();
    for c in words.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let name: String = name.trim_matches('-').chars().take(40).collect();
    // The name is the skill's file's stem: `con.html`'s skill is `con_`, a file on Windows too.
    if name.is_empty() { "skill".into() } else { statewright_workflow::portable_stem(name.trim_end_matches('-')) }
}

fn skill(name: String, segment: Segment, runs: &[String]) -> Workflow {
    let at = |url: &str| Check::Url { mode: UrlMatch::Prefix, value: url.to_owned(), negate: false };
    let post = segment.next.as_deref().map(at).into_iter().collect();
    Workflow {
        version: FORMAT_VERSION,
        name,
        description: format!("Mined from {} runs that did the same here: {}.", runs.len(), runs.join(", ")),
        parameters: segment.parameters,
        config: Default::default(),
        skill: Some(Skill { pre: vec![at(&segment.place)], post, source: format!("mined from {}", runs.join(", ")) }),
        states: vec![State {
            description: "The actions the runs agreed on, in order.".into(),
            actions: segment.actions,
            terminal: Some(Terminal { outcome: Outcome::Success, message: String::new() }),
            ..State::new("Steps", vec![at(&segment.place)])
        }],
    }
}
