//! `statewright record`: a person's demonstration recorded in Chromium (launched, or a new
//! tab of a running browser), stored as a run, and compiled into a draft workflow.

use std::path::PathBuf;

use clap::Args;
use statewright_runner::demonstration::{RecordObserver, RecordRequest, record};
use statewright_runner::{Browser, RunErrorKind};
use statewright_workflow::Action;

use crate::exit;
use crate::out::one_line;
use crate::run::parse_param;
use crate::store_args::StoreArgs;

#[derive(Args)]
pub struct RecordArgs {
    /// The first page; `{{NAME}}` in it is filled from --param (e.g. '{{site}}/?seed=3').
    url: String,
    /// The draft's file; a workflow already there gets what this recording adds (a popup
    /// that only showed up this time). Default: draft.json in the recording's run folder.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Record a new tab of the browser at this DevTools endpoint instead of launching one.
    #[arg(long, value_name = "URL")]
    cdp_url: Option<String>,
    /// Launch Chromium without a window (for a browser driven over the DevTools protocol).
    #[arg(long)]
    headless: bool,
    /// A value used in the demonstration: the URL is filled from it, and recorded literals
    /// equal to it are written as `{{NAME}}`, so the draft replays with other values.
    #[arg(short, long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// Stop recording when the page's URL matches this regular expression.
    #[arg(long, value_name = "PATTERN")]
    until_url: Option<String>,
    /// Serve the bundled demo site on loopback and pass its address as `site`.
    #[arg(long)]
    demo_site: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    store: StoreArgs,
}

struct Progress;

impl RecordObserver for Progress {
    fn started(&mut self, run_id: &str, url: &str) {
        errln!("statewright record {run_id} · {url}");
        errln!("  recording: act in the browser; Ctrl+C (or closing the tab) ends it");
    }

    fn act(&mut self, n: usize, action: &Action, description: Option<&str>) {
        let what = match action {
            Action::NavigateTo { url } => url.clone(),
            Action::Type { text, .. } => format!("{text:?} into {}", description.unwrap_or("a field")),
            Action::PressKey { key } => key.clone(),
            Action::Scroll { direction, amount, .. } => format!("{direction:?} {amount} px").to_lowercase(),
            _ => description.unwrap_or("").to_owned(),
        };
        let line = format!("{} {what}", action.kind());
        errln!("  {n:>3}. {}", one_line(line.trim_end()));
    }
}

pub async fn record_cmd(args: RecordArgs) -> u8 {
    let until_url = match args.until_url.as_deref().map(regex::Regex::new).transpose() {
        Ok(r) => r,
        Err(e) => {
            errln!("statewright: --until-url is not a valid pattern: {e}");
            return exit::INVALID;
        }
    };
    let headed = !args.headless && args.cdp_url.is_none();
    if let Err(message) = crate::display::check(headed, "attach to a browser with --cdp-url, or give --headless") {
        errln!("statewright: {message}");
        return exit::INVALID;
    }
    let browser = match args.cdp_url.clone() {
        Some(cdp_url) => Browser::Attach { cdp_url },
        None => Browser::Launch { headed },
    };
    let request = RecordRequest {
        url: args.url.clone(),
        params: args.params.clone(),
        browser,
        demo_site: args.demo_site,
        runs_dir: args.store.runs_dir.clone(),
        db: args.store.db.clone(),
        out: args.out.clone(),
        until_url,
    };
    let cancel = crate::interrupt::cancelled_on_interrupt();
    match record(request, cancel, &mut Progress).await {
        Ok(summary) => {
            if args.json {
                outln!("{}", serde_json::to_string_pretty(&summary).unwrap_or_default());
            }
            let c = &summary.compiled;
            errln!(
                "recorded {} acts in {:.1} s (ended: {}) → {} states and {} actions",
                summary.acts,
                summary.duration_ms as f64 / 1000.0,
                summary.ended,
                c.states,
                c.actions
            );
            for note in &c.notes {
                errln!("  note: {note}");
            }
            if let Some(m) = &summary.merged {
                errln!(
                    "  merged: {} states added, {} transitions added",
                    m.added_states.len(),
                    m.added_transitions.len()
                );
            }
            errln!("  draft: {}", summary.draft.display());
            errln!("  run folder: {}", summary.run_dir.display());
            exit::SUCCEEDED
        }
        Err(e) => {
            errln!("statewright: {e}");
            match e.kind {
                RunErrorKind::Invalid => exit::INVALID,
                RunErrorKind::Environment => exit::FAILED,
            }
        }
    }
}
