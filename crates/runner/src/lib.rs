//! One way to run a workflow, for every front end (the CLI's `run`, the app's *Run…*,
//! `agent`, `record`, `batch`, `goto`): [`prepare`] loads the workflow, binds its
//! parameters (serving the demo site when asked), opens the run store and records the run
//! as started; [`PreparedRun::execute`] starts the drivers the workflow needs, runs the
//! engine, and for every event persists it in the store first and then hands it to the
//! caller's observer; at the end the run folder is exported from the store.
//!
//! Invariants: the shells depend on this crate, never on the drivers or the demo site; an
//! event reaches an observer only once it is in the store (persist, then notify); a store
//! write that fails fails the run, loudly; the run folder has one writer ([`export`]).

pub mod agent;
pub mod batch;
mod book;
pub mod demonstration;
mod error;
pub mod export;
pub mod graph;
pub mod judge;
pub mod pool;
mod prepare;
mod record;
mod request;
pub mod rows;
mod summary;
pub mod synthesis;
pub mod tasks;

pub use book::Listener;
pub use error::{RunError, RunErrorKind};
pub use prepare::{PreparedRun, prepare};
pub use request::{Browser, DemoSite, ReviewPolicy, RunRequest, WorkflowSource};
/// What the shells' logs leave out unless `RUST_LOG` asks: chromiumoxide warns about every
/// DevTools event newer than its protocol schema, and its handler's one error is the
/// browser's connection breaking, which the run's failure says (with why, when the guard
/// closed it): said twice, the second reads as a crash.
pub const LIBRARY_NOISE: &str = "chromiumoxide=error,chromiumoxide::handler=off";
/// For the app, which sets variables for its own WebKit that launched programs must not get.
pub use statewright_desktop::OWN_ENV;
pub use summary::RunSummary;

pub use statewright_engine::{Cancel, Event, Failure, RunStatus};
