//! `statewright`: the headless command line. Parses input, calls the core crates, and turns
//! their results into terminal output and exit codes:
//! 0 succeeded, 1 the run failed, 2 invalid input or usage, 3 a review was not answered in
//! time, 130 interrupted.

// Every print goes through `out` (the macros below): none can panic, none shows data raw.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `outln!` and `print!` to stdout, ending quietly on a closed pipe (see `out`).
macro_rules! outln {
    ($($t:tt)*) => { $crate::out::write_line(format_args!($($t)*)) };
}
macro_rules! out {
    ($($t:tt)*) => { $crate::out::write(format_args!($($t)*)) };
}
/// `errln!` and `err!` to stderr, which cannot panic (a closed stderr is ignored).
macro_rules! errln {
    ($($t:tt)*) => { $crate::out::error_line(format_args!($($t)*)) };
}
macro_rules! err {
    ($($t:tt)*) => { $crate::out::error(format_args!($($t)*)) };
}

mod agent_cmd;
mod batch_cmd;
mod compile_cmd;
mod display;
mod graph_cmds;
mod interrupt;
mod judge_cmd;
mod model_args;
mod out;
mod progress;
mod record_cmd;
mod review_cmd;
mod run;
mod runs_cmd;
mod skills_cmd;
mod store_args;
mod synthesize_cmd;
mod workflow_cmds;

#[derive(Parser)]
#[command(name = "statewright", version, about = "Run finite-state workflows against real Chrome")]
struct Cli {
    /// More diagnostics on stderr (-v debug, -vv trace); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a workflow.
    Run(run::RunArgs),
    /// List, show, export and prune recorded runs.
    Runs(runs_cmd::RunsArgs),
    /// The review queue: runs waiting for a person. List, show, and resolve them.
    Review(review_cmd::ReviewArgs),
    /// Run a workflow once per row of a CSV or JSON Lines file, a few at a time; a second
    /// go skips the rows that succeeded.
    Batch(batch_cmd::BatchArgs),
    /// Skills: list the skills folder, import seed 003 skill folders, export them back.
    Skills(skills_cmd::SkillsArgs),
    /// Go to a state from wherever the page is: plan a route over the known transitions,
    /// walk it with verification, replan when the page lands elsewhere.
    Goto(run::GotoArgs),
    /// Check workflow files: every problem with its line and column, then the graph's
    /// findings (unreachable, unwinnable, dead-end states…), using the stored runs.
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print diagnostics as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Treat the graph's findings as errors (exit 2).
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        store: store_args::StoreArgs,
    },
    /// Test paths: a small set of routes from the start that together take every edge.
    Paths(graph_cmds::PathsArgs),
    /// Write a prompt-only state with the model, from a page a past run saw.
    Synthesize(synthesize_cmd::SynthesizeArgs),
    /// Let the model drive towards a goal, one checked step at a time (needs a model).
    Agent(agent_cmd::AgentArgs),
    /// Grade the answers of `agent --tasks` with the model, from each run's last screenshots:
    /// a verdict per task in the results table, and a score.
    Judge(judge_cmd::JudgeArgs),
    /// Record a person's demonstration in Chromium and compile it into a draft workflow.
    Record(record_cmd::RecordArgs),
    /// Compile a demonstration (a run, a run folder, a seed 003 session folder) into a draft
    /// workflow, or merge it into an existing draft.
    Compile(compile_cmd::CompileArgs),
    /// Convert a workflow (e.g. a CliGent file) to the native format. Writing over the input
    /// file is refused (exit 2) unless --in-place.
    Convert {
        input: PathBuf,
        /// Output file, or - for stdout (with --in-place: the input, if left out).
        #[arg(required_unless_present = "in_place")]
        output: Option<PathBuf>,
        /// Rewrite the input file itself in the native format.
        #[arg(long)]
        in_place: bool,
    },
    /// Print the JSON Schema of the native workflow format.
    Schema,
    /// Serve the bundled demo site on loopback until interrupted.
    DemoSite {
        #[arg(long, default_value_t = 8931)]
        port: u16,
        /// Serve this folder instead of the bundled site.
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Serve the site with a drift file's text rewrites applied (a redesign, to try
        /// healing and review on), e.g. tests/fixtures/drift/demo-drift.json.
        #[arg(long, value_name = "FILE")]
        drift: Option<PathBuf>,
    },
}

/// Exit codes, as documented in the README.
pub mod exit {
    pub const SUCCEEDED: u8 = 0;
    pub const FAILED: u8 = 1;
    pub const INVALID: u8 = 2;
    /// Nobody resolved a human review within `--review-timeout`.
    pub const REVIEW_TIMEOUT: u8 = 3;
    pub const INTERRUPTED: u8 = 130;

    /// A workflow file not written: a link to nothing or a folder is the person's path to
    /// fix (2); a failed write (a full disk, no permission) is 1.
    pub fn unwritten(e: &statewright_workflow::Unwritable) -> u8 {
        match e {
            statewright_workflow::Unwritable::Io { .. } => FAILED,
            _ => INVALID,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.verbose);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            errln!("statewright: cannot start the async runtime: {e}");
            return ExitCode::from(exit::FAILED);
        }
    };
    let code = runtime.block_on(async {
        match cli.command {
            Command::Run(args) => run::run(args).await,
            Command::Runs(args) => runs_cmd::runs(args),
            Command::Review(args) => review_cmd::review(args),
            Command::Goto(args) => run::goto(args).await,
            Command::Batch(args) => batch_cmd::batch(args).await,
            Command::Skills(args) => skills_cmd::skills(args),
            Command::Validate { files, json, strict, store } => workflow_cmds::validate(&files, json, strict, &store),
            Command::Paths(args) => graph_cmds::paths(args),
            Command::Synthesize(args) => synthesize_cmd::synthesize_state(args).await,
            Command::Agent(args) => agent_cmd::agent_cmd(args).await,
            Command::Judge(args) => judge_cmd::judge_cmd(args).await,
            Command::Record(args) => record_cmd::record_cmd(args).await,
            Command::Compile(args) => compile_cmd::compile_cmd(args),
            Command::Convert { input, output, in_place } => {
                workflow_cmds::convert(&input, output.as_deref().unwrap_or(&input), in_place)
            }
            Command::Schema => {
                out!("{}", statewright_workflow::json_schema());
                exit::SUCCEEDED
            }
            Command::DemoSite { port, dir, drift } => workflow_cmds::demo_site(port, dir, drift).await,
        }
    });
    ExitCode::from(code)
}

fn init_tracing(verbose: u8) {
    use statewright_runner::LIBRARY_NOISE;
    let default = match verbose {
        0 => format!("warn,{LIBRARY_NOISE}"),
        1 => format!("statewright=debug,statewright_engine=debug,statewright_chrome=debug,info,{LIBRARY_NOISE}"),
        _ => "trace,hyper=info,tungstenite=info".to_owned(),
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_target(false).init();
}
