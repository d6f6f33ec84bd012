//! `statewright review`: the review queue from a terminal. Works from any process while
//! the run waits; resolutions are validated before anything is written, and a fix saved
//! into the workflow is shown as a diff, with the old file kept in the store.

use std::path::Path;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use statewright_engine::Resolution;
use statewright_store::{ReviewItem, Store};
use statewright_workflow::{Action, Check, State};

use statewright_workbench::{SavedFix, save_review_fix, validate_resolution};

use crate::exit;
use crate::out::one_line;
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct ReviewArgs {
    #[command(flatten)]
    store: StoreArgs,
    #[command(subcommand)]
    command: ReviewCommand,
}

#[derive(Subcommand)]
enum ReviewCommand {
    /// Reviews waiting for a person, newest first.
    List {
        /// Also resolved and cancelled ones.
        #[arg(long)]
        all: bool,
        /// Print the reviews as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Everything about one review: what failed and why, what was tried, the page.
    Show {
        id: i64,
        /// Print the review as JSON on stdout (with the page it stopped on).
        #[arg(long)]
        json: bool,
    },
    /// Answer a review; the waiting run goes on at once.
    Resolve(ResolveArgs),
    /// Approve a fix the model proposed: save it into the workflow file (diff shown, old
    /// version kept), so the next run needs no model there.
    Approve {
        id: i64,
        /// Only print the diff; approve nothing, write nothing.
        #[arg(long)]
        preview: bool,
    },
    /// Reject a fix the model proposed: the workflow stays as it is.
    Reject { id: i64 },
    /// Save the locators a run healed into its workflow file (diff shown, old version kept).
    SaveHealed {
        /// A run id, or a unique prefix of one.
        run: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Kind {
    /// Try the failed action (or the state) again.
    Retry,
    /// Go past the failed action, or accept the state as done.
    Skip,
    /// Perform the `--action`s now, then recognise the page again.
    Actions,
    /// This page is the existing state `--state`.
    DeclareState,
    /// This page is a new state `--state`, with `--check`s (default: the suggested ones)
    /// and `--action`s.
    NewState,
    /// Stop the run as failed.
    Abort,
}

#[derive(Args)]
struct ResolveArgs {
    id: i64,
    #[arg(value_enum)]
    kind: Kind,
    /// An action as JSON, e.g. '{"type":"click","target":{"css":"#go"}}' (repeatable).
    #[arg(long = "action", value_name = "JSON")]
    actions: Vec<String>,
    /// A state name (declare-state, new-state).
    #[arg(long)]
    state: Option<String>,
    /// A check as JSON for a new state (repeatable).
    #[arg(long = "check", value_name = "JSON")]
    checks: Vec<String>,
    /// Insert the new state before this one (default: last).
    #[arg(long)]
    before: Option<String>,
    /// Why the run is aborted.
    #[arg(long)]
    reason: Option<String>,
    /// Save the fix (and the locators the run healed) into the workflow file, showing the
    /// diff; the file's previous content is kept in the store.
    #[arg(long)]
    save: bool,
    /// With --save: only print the diff; resolve nothing, write nothing.
    #[arg(long, requires = "save")]
    preview: bool,
}

pub fn review(args: ReviewArgs) -> u8 {
    let db = args.store.db_path();
    if !db.exists() {
        errln!("statewright: no run store at {} (nothing has run yet)", db.display());
        return exit::INVALID;
    }
    let store = match Store::open(&db) {
        Ok(store) => store,
        Err(e) => {
            errln!("statewright: {e}");
            return if e.is_callers() { exit::INVALID } else { exit::FAILED };
        }
    };
    let result = match args.command {
        ReviewCommand::List { all, json } => list(&store, all, json),
        ReviewCommand::Show { id, json } => show(&store, id, json),
        ReviewCommand::Resolve(resolve_args) => resolve(&store, &resolve_args),
        ReviewCommand::Approve { id, preview } => decide(&store, id, Some(preview)),
        ReviewCommand::Reject { id } => decide(&store, id, None),
        ReviewCommand::SaveHealed { run } => save_healed(&store, &run),
    };
    match result {
        Ok(()) => exit::SUCCEEDED,
        Err(e) => {
            errln!("statewright: {e}");
            exit::INVALID
        }
    }
}

fn list(store: &Store, all: bool, json: bool) -> Result<(), String> {
    if json {
        return list_json(store, all);
    }
    let items = store.review_summaries(all).map_err(|e| e.to_string())?;
    if items.is_empty() {
        outln!("no reviews {}", if all { "yet" } else { "are waiting" });
        return Ok(());
    }
    outln!("{:>4}  {:<9}  {:<20}  {:<22}  {:<20}  reason", "id", "status", "run", "workflow", "state");
    for review in &items {
        let reason = review.reason.lines().next().unwrap_or_default();
        let reason = match (&review.proposed_by, &review.resolution) {
            (Some(model), Some(r)) => format!("proposed by the model {model}: `{}` — {reason}", r.kind()),
            _ => reason.to_owned(),
        };
        outln!(
            "{:>4}  {:<9}  {:<20}  {:<22}  {:<20}  {}",
            review.id,
            review.status,
            review.run_id,
            one_line(&review.workflow),
            one_line(review.state.as_deref().unwrap_or("-")),
            one_line(&reason)
        );
    }
    Ok(())
}

/// The reviews whole, as `serde_json::to_string_pretty` gives a list of them, printed one
/// by one as they are read: with `--all` they can be gigabytes in all. A review that cannot
/// be read is left out of the list, which stays whole, and fails the command once it is out.
fn list_json(store: &Store, all: bool) -> Result<(), String> {
    let mut listed = 0;
    let mut unreadable = Vec::new();
    store
        .each_review(all, |item| {
            let text = match item.map_err(|e| e.to_string()).and_then(|item| {
                serde_json::to_string_pretty(&item).map_err(|e| format!("review {}: {e}", item.summary.id))
            }) {
                Ok(text) => text,
                Err(e) => return unreadable.push(e),
            };
            let indented = text.lines().map(|line| format!("  {line}")).collect::<Vec<_>>().join("\n");
            out!("{}\n{indented}", if listed == 0 { "[" } else { "," });
            listed += 1;
        })
        .map_err(|e| e.to_string())?;
    outln!("{}", if listed == 0 { "[]" } else { "\n]" });
    match unreadable.len() {
        0 => Ok(()),
        n => Err(format!("{n} review(s) left out of the list:\n{}", unreadable.join("\n"))),
    }
}

fn show(store: &Store, id: i64, json: bool) -> Result<(), String> {
    let item = store.review(id).map_err(|e| e.to_string())?;
    let review = &item.summary;
    if json {
        outln!("{}", serde_json::to_string_pretty(&item).map_err(|e| e.to_string())?);
        return Ok(());
    }
    let request = &item.request;
    outln!("review {} · {} · run {} · {}", review.id, review.status, review.run_id, one_line(&review.workflow));
    outln!("state:   {}", one_line(review.state.as_deref().unwrap_or("(none recognised)")));
    outln!("why:     {}", review.reason.replace('\n', "\n         "));
    for tried in &request.tried {
        outln!("tried:   {}: {}", tried.stage, one_line(&tried.outcome));
    }
    if let Some(action) = &request.action {
        let text = serde_json::to_string(&action.action).unwrap_or_default();
        outln!("action:  `{}` action {}: {text}", action.state, action.index);
    }
    if let Some(page) = &request.observation {
        outln!("page:    {} ({:?})", one_line(&page.url), page.title);
        for tab in &page.tabs {
            let before = if tab.previous { " — the tab before: {\"type\": \"switch_tab\"}" } else { "" };
            outln!("tab:     {} ({:?}){before}", one_line(&tab.url), tab.title);
        }
        if let Some(shot) = &item.screenshot {
            let root = store.root().unwrap_or(Path::new("."));
            outln!("screen:  {}", root.join(shot).display());
        }
        for element in page.elements.as_array().map(Vec::as_slice).unwrap_or_default().iter().take(25) {
            let field = |k: &str| one_line(element.get(k).and_then(|v| v.as_str()).unwrap_or_default()).into_owned();
            outln!("         {:<5} {:<10} {:<32} {}", field("id"), field("role"), field("selector"), field("name"));
        }
    }
    let suggested: Vec<String> = request.suggested_checks.iter().map(statewright_engine::matcher::describe).collect();
    if !suggested.is_empty() {
        outln!("checks that hold here: {}", suggested.join("; "));
    }
    outln!("states:  {}", request.states.join(", "));
    if let (Some(model), Some(resolution)) = (&review.proposed_by, &review.resolution) {
        outln!("proposed by the model {model}: {}", serde_json::to_string(resolution).unwrap_or_default());
        if review.status == "open" {
            outln!("decide:  statewright review approve {id} [--preview] | statewright review reject {id}");
        }
    } else if let Some(resolution) = &review.resolution {
        outln!("resolved: {}", serde_json::to_string(resolution).unwrap_or_default());
    } else {
        outln!("resolve: statewright review resolve {id} retry|skip|actions|declare-state|new-state|abort [--save]");
    }
    Ok(())
}

/// Approves (`Some(preview)`) or rejects (`None`) a model's proposal.
fn decide(store: &Store, id: i64, approve: Option<bool>) -> Result<(), String> {
    let item = store.review(id).map_err(|e| e.to_string())?;
    let review = &item.summary;
    let (Some(model), Some(resolution)) = (&review.proposed_by, &review.resolution) else {
        return Err(format!("review {id} is not a model's proposal (answer it with `review resolve`)"));
    };
    if review.status != "open" {
        return Err(format!("proposal {id} is already {}; nothing was changed", review.status));
    }
    let saved_to = match approve {
        Some(true) => {
            report(save_review_fix(store, &item, resolution, false))?;
            return Ok(());
        }
        Some(false) => Some(report(save_review_fix(store, &item, resolution, true))?),
        None => None,
    };
    store.decide_proposal(id, approve.is_some(), saved_to.as_deref()).map_err(|e| e.to_string())?;
    let status = if approve.is_some() { "approved" } else { "rejected" };
    outln!(
        "{}",
        json!({ "review": id, "status": status, "model": model, "resolution": resolution, "saved_to": saved_to })
    );
    Ok(())
}

fn resolve(store: &Store, args: &ResolveArgs) -> Result<(), String> {
    let item = store.review(args.id).map_err(|e| e.to_string())?;
    let review = &item.summary;
    if review.proposed_by.is_some() {
        return Err(format!("review {} is a model's proposal: `review approve {0}` or `review reject {0}`", review.id));
    }
    if review.status != "open" {
        return Err(format!("review {} is already {}; nothing was changed", review.id, review.status));
    }
    if !store.is_recording(&review.run_id) {
        return Err(format!("review {}'s run {} is no longer waiting; nothing was changed", review.id, review.run_id));
    }
    let resolution = resolution(&item, args)?;
    if args.preview {
        report(save_review_fix(store, &item, &resolution, false))?;
        return Ok(());
    }
    let saved_to = if args.save { Some(report(save_review_fix(store, &item, &resolution, true))?) } else { None };
    store.resolve_review(review.id, &resolution, saved_to.as_deref()).map_err(|e| e.to_string())?;
    outln!(
        "{}",
        json!({ "review": review.id, "run_id": review.run_id, "resolution": resolution, "saved_to": saved_to })
    );
    Ok(())
}

/// The typed resolution the arguments describe, validated like a workflow.
fn resolution(item: &ReviewItem, args: &ResolveArgs) -> Result<Resolution, String> {
    let actions = parse_all::<Action>(&args.actions, "--action")?;
    let state_name = || args.state.clone().ok_or_else(|| "give the state's name with --state NAME".to_owned());
    let resolution = match args.kind {
        Kind::Retry => Resolution::Retry,
        Kind::Skip => Resolution::Skip,
        Kind::Abort => Resolution::Abort { reason: args.reason.clone().unwrap_or_default() },
        Kind::Actions if actions.is_empty() => return Err("give at least one --action JSON".into()),
        Kind::Actions => Resolution::Actions { actions },
        Kind::DeclareState => {
            let state = state_name()?;
            if !item.request.states.contains(&state) {
                return Err(format!("the workflow has no state `{state}`; it has: {}", item.request.states.join(", ")));
            }
            Resolution::DeclareState { state }
        }
        Kind::NewState => {
            let name = state_name()?;
            let mut checks = parse_all::<Check>(&args.checks, "--check")?;
            if checks.is_empty() {
                checks = item.request.suggested_checks.clone();
            }
            let state = State {
                name,
                description: "Added during review".into(),
                prompt: None,
                checks,
                actions,
                continuous: false,
                interrupt: false,
                next: Vec::new(),
                expect: Vec::new(),
                terminal: None,
            };
            Resolution::NewState { state: Box::new(state), before: args.before.clone() }
        }
    };
    validate_resolution(item, &resolution).map_err(|e| e.to_string())?;
    Ok(resolution)
}

fn parse_all<T: serde::de::DeserializeOwned>(texts: &[String], flag: &str) -> Result<Vec<T>, String> {
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            serde_json::from_str(text).map_err(|e| {
                let problem = statewright_workflow::json_problem(text, &e);
                format!("{flag} #{}: {problem} (line {}, column {})", i + 1, e.line(), e.column())
            })
        })
        .collect()
}

fn save_healed(store: &Store, run: &str) -> Result<(), String> {
    let run_id = store.resolve_run(run).map_err(|e| e.to_string())?;
    report(statewright_workbench::save_healed(store, &run_id, true)).map(|_| ())
}

/// Shows a saved (or previewed) fix: the diff on stdout, what changed on stderr.
fn report(saved: statewright_workbench::Result<SavedFix>) -> Result<String, String> {
    let saved = saved.map_err(|e| e.to_string())?;
    out!("{}", saved.diff);
    if let Some(version) = saved.version {
        errln!(
            "saved {} ({}); the previous version is kept in the store as version {version}",
            saved.path,
            saved.changes.join("; ")
        );
    }
    Ok(saved.path)
}
