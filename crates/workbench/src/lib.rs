//! The Statewright workbench without its window: everything the app's commands do that
//! needs no Tauri, so it is tested here with plain `cargo test`.
//!
//! - [`Library`]: the workflows folder (list, open, create, duplicate, rename, save,
//!   validate), writing the native format with stable field order.
//! - [`Library::delete`], [`Library::list_trash`], [`Library::restore`]: the trash a deleted
//!   workflow goes to and comes back from (`trash.rs`).
//! - [`watch`]: a notify watcher on that folder whose handle stops it when dropped.
//! - [`fix`]: a reviewed fix applied to a workflow (shared with `statewright review`), and
//!   [`save_review_fix`], which previews or writes it.
//! - [`ipc::BatchRequest::pool`]: *Batch…*'s browser settings as the runner's pool
//!   (`batch.rs`).
//! - [`ipc`]: the types the front end sees, and [`bindings::typescript`], which generates
//!   their TypeScript from the Rust types (committed as `ui/src/bindings.ts`, checked for
//!   staleness by `tests/bindings.rs`).

mod batch;
pub mod bindings;
mod error;
pub mod fix;
pub mod ipc;
mod library;
mod review;
mod review_view;
mod trash;
pub mod watch;

pub use error::{Error, ErrorPayload, Result};
pub use library::Library;
pub use review::{
    SavedFix, approve_proposal, approve_run_proposals, save_fix, save_healed, save_review_fix, validate_resolution,
};
pub use review_view::{PageElement, Rect, ReviewView};
