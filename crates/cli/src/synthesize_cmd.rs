//! `statewright synthesize`: a prompt-only state written by the model from a page a past run
//! saw, shown (and with `--save`, saved into the workflow file as a diff).

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use statewright_engine::Resolution;
use statewright_runner::synthesis::{request_from_step, synthesize};
use statewright_store::Store;
use statewright_workflow::load_file;

use crate::exit;
use crate::model_args::ModelArgs;
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct SynthesizeArgs {
    /// The workflow file.
    file: PathBuf,
    /// The prompt-only state to write.
    state: String,
    /// The run whose page to use (an id or a unique prefix).
    #[arg(long)]
    run: String,
    /// The step of that run (see `runs show`).
    #[arg(long)]
    step: u32,
    /// Save the state into the workflow file (the diff is shown; the old version is kept).
    #[arg(long)]
    save: bool,
    /// Print the result as JSON on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    model: ModelArgs,
}

pub async fn synthesize_state(args: SynthesizeArgs) -> u8 {
    match run(&args).await {
        Ok(()) => exit::SUCCEEDED,
        Err((code, message)) => {
            errln!("statewright: {message}");
            code
        }
    }
}

async fn run(args: &SynthesizeArgs) -> Result<(), (u8, String)> {
    let invalid = |m: String| (exit::INVALID, m);
    let config = args.model.required("writing a state").map_err(invalid)?;
    let workflow = load_file(&args.file).map_err(|d| invalid(d.to_string()))?.workflow;
    let db = args.store.db_path();
    if !db.exists() {
        return Err(invalid(format!("no run store at {}", db.display())));
    }
    let store = Store::open(&db).map_err(|e| (exit::FAILED, e.to_string()))?;
    let (request, params) = request_from_step(&store, &workflow, &args.state, &args.run, args.step).map_err(invalid)?;
    let synthesis = synthesize(config, &workflow, &args.state, request, params).await.map_err(|e| (exit::FAILED, e))?;
    let Resolution::Synthesized { checks, actions, .. } = &synthesis.resolution else {
        return Err((exit::FAILED, "the model did not synthesise the state".into()));
    };
    let tokens: u64 = synthesis.calls.iter().map(|c| c.prompt_tokens + c.completion_tokens).sum();
    let mut saved_to = None;
    if args.save {
        let run_id = store.resolve_run(&args.run).map_err(|e| invalid(e.to_string()))?;
        let path = std::path::absolute(&args.file).unwrap_or(args.file.clone()).display().to_string();
        let resolution = synthesis.resolution.clone();
        let reason = format!("before synthesising `{}`", args.state);
        let saved = statewright_workbench::save_fix(&store, Some(path), &run_id, &reason, true, |wf, _| {
            let Resolution::Synthesized { state, checks, actions } = resolution else { unreachable!() };
            let s = wf.states.iter_mut().find(|s| s.name == state).ok_or(format!("no state `{state}`"))?;
            s.checks = checks;
            s.actions = actions;
            Ok(vec![format!("`{state}`: synthesised from its prompt")])
        })
        .map_err(|e| (exit::FAILED, e.to_string()))?;
        if !args.json {
            out!("{}", saved.diff);
        }
        saved_to = Some(saved.path);
    }
    if args.json {
        outln!(
            "{}",
            json!({ "state": args.state, "checks": checks, "actions": actions, "undecided": synthesis.undecided,
                    "model_calls": synthesis.calls.len(), "tokens": tokens, "saved_to": saved_to })
        );
    } else if saved_to.is_none() {
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({ "checks": checks, "actions": actions })).unwrap_or_default()
        );
    }
    for check in &synthesis.undecided {
        errln!("not decided from the stored page (a run holds it to the live page): {check}");
    }
    errln!("`{}` synthesised in {} model call(s), {tokens} tokens", args.state, synthesis.calls.len());
    Ok(())
}
