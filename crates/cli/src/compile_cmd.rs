//! `statewright compile`: a demonstration (a stored run, a run folder, a seed 003 session
//! folder) compiled into a draft workflow; into an existing draft, merged.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;
use statewright_author::{CompileOptions, CompileReport, MergeReport, Trajectory, compile, draft_text};
use statewright_store::Store;
use statewright_workflow::{load_str, write_workflow_text};

use crate::exit;
use crate::run::parse_param;
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct CompileArgs {
    /// A run (an id or a unique prefix) or a folder: a run folder (timeline.json) or a seed
    /// 003 session folder (action_timeline.json and step-NNN.json).
    source: String,
    /// Write the draft here; a workflow already there gets what this demonstration adds
    /// (merging). Without it the draft goes to stdout.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// A parameter's value in the demonstration: literals equal to it become `{{NAME}}`.
    #[arg(short, long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// The draft's name.
    #[arg(long)]
    name: Option<String>,
    /// Print what was compiled as JSON on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    store: StoreArgs,
}

pub fn compile_cmd(args: CompileArgs) -> u8 {
    match run(&args) {
        Ok(()) => exit::SUCCEEDED,
        Err((code, message)) => {
            errln!("statewright: {message}");
            code
        }
    }
}

fn run(args: &CompileArgs) -> Result<(), (u8, String)> {
    let invalid = |m: String| (exit::INVALID, m);
    let trajectory = read(args).map_err(invalid)?;
    let options = CompileOptions { name: args.name.clone(), parameters: args.params.clone() };
    let draft = compile(&trajectory, &options);
    let (text, merged) = draft_text(&draft, args.out.as_deref(), &args.params)
        .map_err(|d| invalid(format!("cannot merge into it:\n{d}")))?;
    // The draft must load as any workflow does. A folder written elsewhere may hold what no
    // workflow may (a selector that does not parse, a wait of 1e300 s, a page with nothing to
    // check): that is the folder's to fix. From a stored run, it is our bug, said plainly.
    if let Err(d) = load_str(&text, "draft.json", &draft.workflow.name) {
        if Path::new(&args.source).is_dir() {
            let message = format!(
                "{}: what the demonstration holds does not make a valid workflow (nothing was written); fix it \
                 in the folder's files:\n{d}",
                args.source
            );
            return Err(invalid(message));
        }
        return Err((exit::FAILED, format!("the compiled draft does not validate (please report this):\n{d}")));
    }
    match &args.out {
        Some(path) => write_workflow_text(path, &text).map_err(|e| (exit::unwritten(&e), e.to_string()))?,
        None if !args.json => outln!("{text}"),
        None => {}
    }
    if args.json {
        let doc = json!({
            "report": draft.report,
            "merge": merged,
            "out": args.out,
            "workflow": args.out.is_none().then_some(&draft.workflow),
        });
        outln!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        describe(&draft.report, merged.as_ref(), args.out.as_deref());
    }
    Ok(())
}

fn read(args: &CompileArgs) -> Result<Trajectory, String> {
    let path = Path::new(&args.source);
    if path.is_dir() {
        return statewright_author::from_folder(path).map_err(|e| e.to_string());
    }
    let db = args.store.db_path();
    if !db.exists() {
        return Err(format!("`{}` is not a folder, and there is no run store at {}", args.source, db.display()));
    }
    let store = Store::open(&db).map_err(|e| e.to_string())?;
    let id = store.resolve_run(&args.source).map_err(|e| e.to_string())?;
    statewright_author::from_run(&store, &id).map_err(|e| e.to_string())
}

fn describe(report: &CompileReport, merged: Option<&MergeReport>, out: Option<&Path>) {
    errln!(
        "compiled {}: {} pages and {} acts → {} states and {} actions{}{}",
        report.source,
        report.pages,
        report.acts,
        report.states,
        report.actions,
        if report.interrupts.is_empty() {
            String::new()
        } else {
            format!(" (interrupts: {})", report.interrupts.join(", "))
        },
        if report.undone > 0 { format!("; {} acts dropped as undo pairs", report.undone) } else { String::new() },
    );
    for note in &report.notes {
        errln!("  note: {note}");
    }
    if let Some(m) = merged {
        errln!(
            "merged: {} states recognised, {} added ({}), {} transitions added",
            m.matched.len(),
            m.added_states.len(),
            m.added_states.join(", "),
            m.added_transitions.len()
        );
    }
    if let Some(path) = out {
        errln!("wrote {}", path.display());
    }
}
