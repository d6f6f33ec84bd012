//! Statewright's deterministic engine: it recognises which state of a workflow the page is
//! in, runs that state's actions, and repeats until a terminal state, emitting typed events.
//!
//! The engine talks to the world only through [`Driver`], so its semantics are tested with
//! the scripted driver in [`scripted`] under paused tokio time, and against real Chromium by
//! the driver crates.

mod act;
mod breakers;
mod cancel;
mod check_heal;
mod correct;
pub mod driver;
mod escalate;
pub mod event;
mod executor;
pub mod explain;
mod goal;
pub mod heal;
pub mod matcher;
mod recorded;
pub mod review;
pub mod scripted;
mod skill;
mod variables;
mod verify;

pub use cancel::Cancel;
pub use driver::{
    Artifact, Capture, Driver, DriverError, DriverResult, LocateFuture, Observation, ObserveFuture, OpenTab, Outcome,
    Probe, Signals, WindowProbe,
};
pub use event::{CheckResult, Diagnosis, Event, Failure, LocatedCheck, RunStatus};
pub use executor::{CORRECTION, RunOptions, RunReport, Skills, run};
pub use goal::Goal;
pub use heal::LocatorMemory;
pub use recorded::OBSERVED_TEXT_CHARS;
pub use review::{
    Advice, Advisor, EscalationRequest, ModelCall, ModelUse, Resolution, ReviewError, Reviewer, Unresolved,
};
