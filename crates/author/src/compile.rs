//! A trajectory compiled into a draft workflow: one state per distinct page situation,
//! recognised by checks chosen so that no two states match the same recorded page, with the
//! acts done there as actions on their most stable locators, `next` from the observed order,
//! overlays seen in passing as interrupts, and the last page a success terminal.

use std::collections::BTreeSet;

use indexmap::IndexMap;
use serde::Serialize;
use statewright_workflow::params::MASK;
use statewright_workflow::{
    Action, Check, Outcome, Parameter, SelectorKind, State, Target, Terminal, TextMatch, Workflow,
};

use crate::checks::{Choice, hash_route, holds, stable_label, stable_selector, url_check};
use crate::literals::Literals;
use crate::names::{field_name, secret_name};
use crate::trajectory::{Act, Ending, Page, Trajectory, normalize};

/// Pages this alike (shared element keys over all keys) on the same URL are one situation.
const SAME_SITUATION: f64 = 0.8;

#[derive(Debug, Clone, Default)]
pub struct CompileOptions {
    /// The draft's name; by default taken from the source.
    pub name: Option<String>,
    /// Parameter values besides the ones the trajectory carries (`--param`), which win.
    pub parameters: Vec<(String, String)>,
}

/// What compiling did, for people (`--json` prints it).
#[derive(Debug, Clone, Default, Serialize)]
pub struct CompileReport {
    pub source: String,
    /// Pages and acts in the demonstration.
    pub pages: usize,
    pub acts: usize,
    /// States and actions in the draft.
    pub states: usize,
    pub actions: usize,
    pub interrupts: Vec<String>,
    /// Acts dropped as undo pairs (a popup opened, then closed).
    pub undone: usize,
    /// Whether the demonstration ended in success (else the draft stops where it went wrong).
    pub complete: bool,
    pub notes: Vec<String>,
}

pub struct Draft {
    pub workflow: Workflow,
    pub report: CompileReport,
    /// Each state's first recorded page, by state name: what merging judges against.
    pub seen: IndexMap<String, Page>,
}

/// One situation: the segments of the trajectory (runs of pages) where it was seen.
struct Situation<'a> {
    segments: Vec<Vec<&'a Page>>,
    overlay: bool,
    /// Where the draft ends, and how: the goal page, or the last page when there is none.
    terminal: Option<Outcome>,
    name: String,
}

impl Situation<'_> {
    fn first(&self) -> &Page {
        self.segments[0][0]
    }

    fn acts(&self) -> Vec<&Act> {
        self.segments[0].iter().flat_map(|p| &p.acts).collect()
    }
}

pub fn compile(trajectory: &Trajectory, options: &CompileOptions) -> Draft {
    let mut report = CompileReport {
        source: trajectory.source.clone(),
        pages: trajectory.pages.len(),
        acts: trajectory.pages.iter().map(|p| p.acts.len()).sum(),
        notes: trajectory.notes.clone(),
        ..CompileReport::default()
    };
    let mut pages: Vec<Page> = trajectory.pages.clone();
    report.undone = drop_undo_pairs(&mut pages);
    fold_opening_clicks(&mut pages);
    let last = pages.last().cloned();
    let acted: Vec<&Page> = pages.iter().filter(|p| !p.acts.is_empty()).collect();
    let goal = match &trajectory.ending {
        Ending::Failed { reason } => {
            report.notes.push(format!(
                "the demonstration failed ({reason}); the draft ends at its last page whose acts worked, without a success state"
            ));
            None
        }
        _ => last.as_ref().filter(|p| p.acts.is_empty()).cloned(),
    };
    // The last acts left the page as it was (a file downloaded, a copy to the clipboard): no
    // check could tell the goal from the page they are done on, which would then never act.
    let unchanged = goal.as_ref().zip(acted.last()).is_some_and(|(goal, before)| looks_the_same(goal, before));
    let goal = goal.filter(|_| !unchanged);
    let mut situations = situations(&acted);
    if let Some(g) = &goal {
        situations.push(Situation {
            segments: vec![vec![g]],
            overlay: false,
            terminal: Some(Outcome::Success),
            name: String::new(),
        });
    } else if let Some(last) = situations.iter_mut().rev().find(|s| !s.overlay) {
        // No page after the last act: the draft ends after the last state's actions, in
        // success when the demonstration did, else as a failure that says to record the rest.
        let failed = matches!(trajectory.ending, Ending::Failed { .. });
        if !failed {
            let after = if unchanged {
                "the page looked as before the last act"
            } else {
                "no page was seen after the last act"
            };
            report.notes.push(format!("{after}; step {} ends the draft", last.first().step));
        }
        last.terminal = Some(if failed { Outcome::Failure } else { Outcome::Success });
    }
    name_situations(&mut situations);

    let mut params = trajectory.parameters.clone();
    for (k, v) in &options.parameters {
        params.retain(|(name, _)| name != k);
        params.push((k.clone(), v.clone()));
    }
    let mut literals = Literals::new(&params);
    let mut secrets = BTreeSet::new();
    let mut uploads = IndexMap::new();

    let mut states = Vec::new();
    let mut seen = IndexMap::new();
    for (i, s) in situations.iter().enumerate() {
        let own: Vec<&Page> = s.segments.iter().map(|seg| seg[0]).collect();
        let negatives: Vec<&Page> = situations
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .flat_map(|(_, o)| o.segments.iter().map(|seg| seg[0]))
            .collect();
        let choice = Choice { positives: own.clone(), negatives };
        let mut checks = Vec::new();
        if !s.overlay
            && let Some(url) = url_check(&s.first().url)
        {
            checks.push(url);
        }
        if let Some(anchor) = s.acts().first().and_then(|a| anchor(a, &own)) {
            checks.push(anchor);
        }
        if s.overlay && checks.is_empty() {
            report.notes.push(format!("overlay `{}`: nothing on it could be checked; left out", s.name));
            continue;
        }
        let confused = choice.complete(&mut checks);
        if confused > 0 {
            report.notes.push(format!(
                "state `{}`: {confused} recorded page(s) of other states also match its checks; the first state in priority order wins there",
                s.name
            ));
        }
        let actions: Vec<Action> =
            s.acts().iter().map(|a| action_of(a, s.first(), &mut literals, &mut secrets, &mut uploads)).collect();
        let checks = checks.into_iter().map(|c| template_check(c, &mut literals)).collect();
        let next = if s.overlay || s.terminal.is_some() { Vec::new() } else { successors(&situations, i) };
        let steps: Vec<String> = s.segments.iter().map(|seg| seg[0].step.to_string()).collect();
        states.push(State {
            name: s.name.clone(),
            description: format!(
                "Compiled from {}, step{} {}: {}{}",
                trajectory.source,
                if steps.len() > 1 { "s" } else { "" },
                steps.join(", "),
                if s.first().title.is_empty() { &s.first().url } else { &s.first().title },
                s.first().label.as_deref().map(|l| format!(" (state `{l}` there)")).unwrap_or_default()
            ),
            prompt: None,
            checks,
            actions,
            continuous: false,
            interrupt: s.overlay,
            next,
            expect: Vec::new(),
            terminal: s.terminal.map(|outcome| Terminal {
                outcome,
                message: match outcome {
                    Outcome::Success => "the demonstration ended here".into(),
                    Outcome::Failure => {
                        "the demonstration went wrong after this: record the rest and merge it in".into()
                    }
                },
            }),
        });
        if s.overlay {
            report.interrupts.push(s.name.clone());
        }
        seen.insert(s.name.clone(), s.first().clone());
    }
    // Priority: overlays, the goal, then later situations before earlier ones (a page that
    // has gone further usually shows more, and must win over its earlier look).
    let mut ordered: Vec<State> = states.iter().filter(|s| s.interrupt).cloned().collect();
    ordered.extend(states.iter().filter(|s| s.terminal.is_some()).cloned());
    ordered.extend(states.iter().rev().filter(|s| !s.interrupt && s.terminal.is_none()).cloned());

    let mut parameters = IndexMap::new();
    for name in &literals.used {
        let default = literals.value_of(name).map(str::to_owned);
        parameters
            .insert(name.clone(), Parameter { description: "as in the demonstration".into(), default, secret: false });
    }
    for name in &secrets {
        parameters.insert(
            name.clone(),
            Parameter {
                description: "typed into a password field; give it with --param".into(),
                default: None,
                secret: true,
            },
        );
    }
    for (name, chosen) in &uploads {
        let description = format!("a file to upload (the demonstration chose {chosen:?}); give its path with --param");
        parameters.insert(name.clone(), Parameter { description, default: None, secret: false });
    }
    // References written by whoever drove (an agent types `{{username}}`) are parameters too.
    for name in references(&ordered) {
        if parameters.contains_key(&name) {
            continue;
        }
        let value = params.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone());
        let secret = value.as_deref().is_none_or(|v| v.contains(MASK));
        let default = if secret { None } else { value };
        parameters.insert(name, Parameter { description: "as in the demonstration".into(), default, secret });
    }
    report.states = ordered.len();
    report.actions = ordered.iter().map(|s| s.actions.len()).sum();
    report.complete = !matches!(trajectory.ending, Ending::Failed { .. });
    let workflow = Workflow {
        version: statewright_workflow::FORMAT_VERSION,
        name: options.name.clone().unwrap_or_else(|| format!("draft from {}", trajectory.source)),
        description: trajectory.task.clone().unwrap_or_else(|| format!("Compiled from {}.", trajectory.source)),
        parameters,
        config: Default::default(),
        skill: None,
        states: ordered,
    };
    Draft { workflow, report, seen }
}

/// The `{{name}}`s the states' checks and actions refer to.
fn references(states: &[State]) -> BTreeSet<String> {
    let text = serde_json::to_string(states).unwrap_or_default();
    let pattern = regex::Regex::new(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}").expect("a valid pattern");
    pattern.captures_iter(&text).map(|c| c[1].to_owned()).collect()
}

/// Pages of acts grouped into situations, in order of first appearance.
fn situations<'a>(pages: &[&'a Page]) -> Vec<Situation<'a>> {
    let mut segments: Vec<(Vec<&'a Page>, bool)> = Vec::new();
    // The page an overlay came over: what follows the overlay on the same page carries on
    // with it, as the run will (an interrupt is a detour).
    let mut underneath: Option<usize> = None;
    for &page in pages {
        let overlay = is_overlay(page);
        let joins = if overlay {
            segments
                .last()
                .and_then(|(seg, o)| (*o && dialog_of(seg[0]) == dialog_of(page)).then(|| segments.len() - 1))
        } else {
            // A page that changes under its own acts (suggestions, results loading in place)
            // is one state: its actions wait for their targets, where states split at every
            // change would re-enter the earlier one on each transient.
            underneath.filter(|&i| same_place(&segments[i].0[0].url, &page.url))
        };
        match joins {
            Some(i) => segments[i].0.push(page),
            None => {
                segments.push((vec![page], overlay));
                if !overlay {
                    underneath = Some(segments.len() - 1);
                }
            }
        }
    }
    let mut out: Vec<Situation<'a>> = Vec::new();
    for (seg, overlay) in segments {
        let twin = out.iter_mut().find(|s| {
            s.overlay == overlay
                && same_place(&s.first().url, &seg[0].url)
                && similarity(s.first(), seg[0]) >= SAME_SITUATION
                && same_acts(&s.acts(), &seg.iter().flat_map(|p| &p.acts).collect::<Vec<_>>())
        });
        match twin {
            Some(s) => s.segments.push(seg),
            None => out.push(Situation { segments: vec![seg], overlay, terminal: None, name: String::new() }),
        }
    }
    out
}

fn is_overlay(page: &Page) -> bool {
    page.overlay || (!page.acts.is_empty() && page.acts.iter().all(|a| dialog_of_act(page, a).is_some()))
}

fn dialog_of_act(page: &Page, act: &Act) -> Option<String> {
    act.dialog.clone().or_else(|| page.element_of(act).and_then(|e| e.dialog.clone()))
}

fn dialog_of(page: &Page) -> Option<String> {
    page.acts.first().and_then(|a| dialog_of_act(page, a)).or_else(|| page.label.clone())
}

fn same_acts(a: &[&Act], b: &[&Act]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.action == y.action)
}

/// Same origin, path and hash router's route; query and an anchor aside.
pub(crate) fn same_place(a: &str, b: &str) -> bool {
    fn place(u: &str) -> (&str, Option<&str>) {
        let path = u.split(['?', '#']).next().unwrap_or("").trim_end_matches("/index.html").trim_end_matches('/');
        (path, hash_route(u))
    }
    place(a) == place(b)
}

/// Whether two pages would pass the same checks: the same place, text and elements.
fn looks_the_same(a: &Page, b: &Page) -> bool {
    same_place(&a.url, &b.url) && normalize(&a.text) == normalize(&b.text) && similarity(a, b) >= 0.95
}

fn similarity(a: &Page, b: &Page) -> f64 {
    let ka: BTreeSet<String> = a.elements.iter().map(|e| e.key()).collect();
    let kb: BTreeSet<String> = b.elements.iter().map(|e| e.key()).collect();
    let union = ka.union(&kb).count();
    if union == 0 { 1.0 } else { ka.intersection(&kb).count() as f64 / union as f64 }
}

/// Open-then-close pairs: two clicks on the same place where the second page shows what the
/// first click opened and the page after the second is the page before the first again.
pub(crate) fn drop_undo_pairs(pages: &mut Vec<Page>) -> usize {
    let mut dropped = 0;
    let mut i = 0;
    while i + 2 < pages.len() {
        let (a, b, c) = (&pages[i], &pages[i + 1], &pages[i + 2]);
        let clicks = |p: &Page| p.acts.len() == 1 && matches!(p.acts[0].action, Action::Click { .. });
        let opened = similarity(a, b) < 1.0 && b.elements.len() > a.elements.len();
        if clicks(a)
            && clicks(b)
            && same_place(&a.url, &b.url)
            && same_place(&b.url, &c.url)
            && opened
            && !a.has_target(&b.acts[0])
            && similarity(a, c) >= 0.95
        {
            pages.drain(i..i + 2);
            dropped += 2;
        } else {
            i += 1;
        }
    }
    dropped
}

/// A click that opened a file chooser, followed by the files chosen there, that started a
/// download, followed by the file, or that opened a drawn list, followed by the option
/// chosen: the upload, the download or the choice is done through that same element (its
/// click is part of it), so the click goes.
pub(crate) fn fold_opening_clicks(pages: &mut Vec<Page>) {
    let mut i = 0;
    while i + 1 < pages.len() {
        let opener = match (pages[i].acts.last(), pages[i + 1].acts.first()) {
            (Some(click), Some(then)) => {
                matches!(click.action, Action::Click { .. })
                    && matches!(
                        then.action,
                        Action::Upload { .. } | Action::Download { .. } | Action::SelectOption { .. }
                    )
                    && click.action.target() == then.action.target()
            }
            _ => false,
        };
        if opener {
            pages[i].acts.pop();
            if pages[i].acts.is_empty() {
                pages.remove(i);
                continue;
            }
        }
        i += 1;
    }
}

/// The state's first act's element, as a check that it is there: a state is not recognised
/// before what it acts on has appeared (results still loading, a form not drawn yet).
fn anchor(act: &Act, own: &[&Page]) -> Option<Check> {
    let target = act.action.target()?;
    let candidates = std::iter::once(target).chain(&act.alternatives);
    let check = candidates.clone().find_map(|t| match (&t.css, &t.xpath, t.nth) {
        (Some(css), _, None) if stable_selector(css) => {
            Some(Check::Element { by: SelectorKind::Css, selector: css.clone(), negate: false })
        }
        (_, Some(xpath), None) => {
            Some(Check::Element { by: SelectorKind::Xpath, selector: xpath.clone(), negate: false })
        }
        _ => None,
    });
    let check = check.or_else(|| {
        let label = own.first().and_then(|p| p.element_of(act)).map(|e| normalize(e.shown()))?;
        stable_label(&label).then_some(Check::Text { mode: TextMatch::Equals, value: label, negate: false })
    })?;
    own.iter().all(|p| holds(&check, p) != Some(false)).then_some(check)
}

/// The act as an action: on its most stable locator, its literals as parameters; a secret
/// typed and the files uploaded as parameters of their own (`uploads`: name → the file the
/// demonstration chose, which the page knew by name only), unless a parameter given to the
/// demonstration was the file's path.
fn action_of(
    act: &Act,
    page: &Page,
    literals: &mut Literals,
    secrets: &mut BTreeSet<String>,
    uploads: &mut IndexMap<String, String>,
) -> Action {
    let mut action = act.action.clone();
    if let Some(target) = action.target_mut() {
        *target = stablest(target, &act.alternatives);
        template_target(target, literals);
    }
    match &mut action {
        Action::NavigateTo { url } => *url = literals.url(url),
        Action::Type { text, .. } if act.secret => *text = secret_text(text, &secret_name(page, act), secrets),
        Action::Type { text, .. } => *text = literals.whole(text),
        Action::SelectOption { value, label, .. } => {
            // Each option of a list on its own: one parameter stands for one option.
            for v in [value, label].into_iter().flatten().flat_map(statewright_workflow::Choices::iter_mut) {
                *v = literals.whole(v);
            }
        }
        Action::Upload { files, .. } => {
            let base = field_name(page, act).unwrap_or_else(|| "file".into());
            for file in files.iter_mut() {
                // A path the demonstration was given, by its parameter (and its default).
                if let Some(given) = literals.file(file) {
                    *file = given;
                    continue;
                }
                let mut names = (1..).map(|n| if n == 1 { base.clone() } else { format!("{base}_{n}") });
                // Not a name the demonstration's own parameters (`site`…) or a secret have.
                let taken =
                    |n: &String| uploads.contains_key(n) || secrets.contains(n) || literals.value_of(n).is_some();
                let name = names.find(|n| !taken(n)).unwrap_or_default();
                uploads.insert(name.clone(), std::mem::replace(file, format!("{{{{{name}}}}}")));
            }
        }
        _ => {}
    }
    action
}

/// Typed text with secrets in it, each masked part a secret parameter named after the
/// field (`password`, then `password_2`…) and the text around them kept as typed: a run
/// that typed `ann:{{password}}` stored `ann:••••••`, and its draft types `ann:{{password}}`,
/// not the secret alone. A recorded password field's text is all mask: `{{password}}`; a
/// secret act's text with no mask in it is taken as all secret, never written out.
fn secret_text(text: &str, name: &str, secrets: &mut BTreeSet<String>) -> String {
    let text = if text.contains(MASK) { text } else { MASK };
    let mut pieces = text.split(MASK);
    let mut out = pieces.next().unwrap_or_default().to_owned();
    for (n, piece) in pieces.enumerate() {
        let name = if n == 0 { name.to_owned() } else { format!("{name}_{}", n + 1) };
        out.push_str(&format!("{{{{{name}}}}}{piece}"));
        secrets.insert(name);
    }
    out
}

/// The target itself unless it counts positions and an alternative does not.
pub(crate) fn stablest(target: &Target, alternatives: &[Target]) -> Target {
    let positional =
        |t: &Target| t.nth.is_some() || t.css.as_deref().is_some_and(|c| c.contains(":nth") || c.contains(" > "));
    if !positional(target) {
        return target.clone();
    }
    alternatives.iter().find(|t| !positional(t)).unwrap_or(target).clone()
}

fn template_target(t: &mut Target, literals: &mut Literals) {
    for field in [&mut t.css, &mut t.xpath, &mut t.text, &mut t.name].into_iter().flatten() {
        *field = literals.text(field);
    }
}

fn template_check(mut check: Check, literals: &mut Literals) -> Check {
    match &mut check {
        Check::Url { value, .. } => *value = literals.url(value),
        Check::Title { value, .. } | Check::Text { value, .. } => *value = literals.text(value),
        Check::Element { selector, .. } => *selector = literals.text(selector),
        _ => {}
    }
    check
}

/// The situations seen right after situation `i`, overlays passed over.
fn successors(situations: &[Situation], i: usize) -> Vec<String> {
    // Order of appearance: (situation index, segment) pairs by the step of their first page.
    let mut timeline: Vec<(u32, usize)> =
        situations.iter().enumerate().flat_map(|(j, s)| s.segments.iter().map(move |seg| (seg[0].step, j))).collect();
    timeline.sort();
    let mut next = Vec::new();
    for (k, (_, j)) in timeline.iter().enumerate() {
        if *j != i {
            continue;
        }
        if let Some((_, after)) = timeline[k + 1..].iter().find(|(_, j)| !situations[*j].overlay)
            && *after != i
            && !next.contains(&situations[*after].name)
        {
            next.push(situations[*after].name.clone());
        }
    }
    next
}

/// Names from the pages: the source's state name, else the title or the URL's last part;
/// the first act added where two would share one.
fn name_situations(situations: &mut [Situation]) {
    let base: Vec<String> = situations
        .iter()
        .map(|s| {
            let p = s.first();
            if s.overlay {
                return dialog_of(p).unwrap_or_else(|| "Overlay".into());
            }
            if p.url == "about:blank" {
                return "Start".into();
            }
            if let Some(l) = &p.label {
                return l.clone();
            }
            let title = p
                .title
                .split([' ', '·', '|', '-', '—'])
                .filter(|w| !w.is_empty())
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            let title =
                p.title.split(" · ").next().filter(|t| !t.trim().is_empty()).map(str::to_owned).unwrap_or(title);
            if !title.is_empty() {
                return title;
            }
            hash_route(&p.url)
                .unwrap_or_else(|| p.url.split(['?', '#']).next().unwrap_or(""))
                .rsplit('/')
                .find(|s| !s.is_empty())
                .unwrap_or("Page")
                .to_owned()
        })
        .collect();
    let mut taken = BTreeSet::new();
    for (i, s) in situations.iter_mut().enumerate() {
        let shared = base.iter().filter(|b| **b == base[i]).count() > 1;
        let mut name = if s.terminal == Some(Outcome::Success) && s.acts().is_empty() {
            format!("{} (done)", base[i])
        } else if shared {
            match s.acts().first() {
                Some(a) => format!("{} — {}", base[i], summary(a)),
                None => base[i].clone(),
            }
        } else {
            base[i].clone()
        };
        let stem = name.clone();
        let mut n = 2;
        while !taken.insert(name.clone()) {
            name = format!("{stem} {n}");
            n += 1;
        }
        s.name = name;
    }
}

/// `type Username`, `click Add to cart`: an act in a few words.
fn summary(act: &Act) -> String {
    let what = act
        .action
        .target()
        .map(|t| t.name.clone().or(t.text.clone()).or(t.css.clone()).unwrap_or_else(|| "element".into()));
    let what =
        what.map(|w| if w.chars().count() > 30 { format!("{}…", w.chars().take(29).collect::<String>()) } else { w });
    match what {
        Some(w) => format!("{} {w}", act.action.kind().replace('_', " ")),
        None => act.action.kind().replace('_', " "),
    }
}
