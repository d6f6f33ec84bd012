//! From a demonstration to a workflow. A [`Trajectory`] — a recording of a person, an agent
//! run, a past `statewright run`, a run folder or a seed 003 session folder — is compiled
//! into a draft state graph ([`compile`]): states recognised by checks, not a linear script,
//! so the draft replays deterministically and survives popups. A second demonstration of the
//! same task is [`merge`]d into an existing draft: what it saw that the draft lacks is added.
//!
//! Pure functions over trajectories, besides reading them ([`from_run`], [`from_folder`]).

mod checks;
mod compile;
mod frontmatter;
mod literals;
mod merge;
mod mine;
mod names;
mod read;
pub mod skill003;
mod trajectory;

pub use compile::{CompileOptions, CompileReport, Draft, compile};
pub use merge::{MergeReport, draft_text, merge};
pub use mine::{MineOptions, MineReport, Proposal, mine};
pub use read::{RECORDING, ReadError, from_folder, from_run};
pub use trajectory::{Act, Element, Ending, Page, Trajectory, normalize};
