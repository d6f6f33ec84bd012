//! The run store: every run in one SQLite database (default `runs/statewright.db`), with
//! its workflow, steps, actions, page snapshots and screenshots.
//!
//! - WAL, `synchronous=NORMAL`, `foreign_keys=ON`, a busy timeout; every write is one short
//!   `BEGIN IMMEDIATE` transaction, so several processes can record runs at once and
//!   readers never block the writer.
//! - Forward-only migrations embedded in the binary, tracked by `PRAGMA user_version`; the
//!   file is marked with `PRAGMA application_id`, so another application's database is
//!   refused before anything is written to it.
//! - Screenshots and action artifacts are files named by their content hash under
//!   `<root>/screens/ab/abcdef….png` (identical frames are stored once), referenced from the
//!   rows; [`Store::prune`] deletes runs, their run folders and the files nothing references
//!   any more.
//! - A running run holds an exclusive `flock` on `<root>/locks/<run_id>.lock`; when a store is
//!   opened, running runs whose lock can be taken (their process died, even by SIGKILL) are
//!   marked `interrupted`.
//!
//! A `Store` is a blocking handle over one connection: use it from a blocking thread, never
//! across an `.await`.

mod error;
mod prune;
mod read;
mod review;
mod review_list;
mod reviewer;
mod visits;
mod write;

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

pub use error::{Error, Result};
pub use prune::{PruneBy, PruneReport};
pub use read::{
    ActionRecord, ModelCallRecord, PageRecord, RetryRecord, RunDetail, RunFilter, RunSummary, StepRecord,
    TabOpenedRecord,
};
pub use review::{Healed, HealedCheck, ReviewItem};
pub use review_list::{ReviewList, ReviewSummary};
pub use reviewer::StoreReviewer;
pub use visits::{MAX_EVIDENCE_RUNS, StateVisit};
pub use write::{NewRun, RunHandle, blob_path, image_ext, screenshot_path};

/// `PRAGMA application_id` of Statewright databases ("STWR").
pub const APPLICATION_ID: i32 = 0x5354_5752;

/// Forward-only migrations; migration `i` takes `user_version` from `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/0001_init.sql"),
    include_str!("migrations/0002_review.sql"),
    include_str!("migrations/0003_review_ids.sql"),
    include_str!("migrations/0004_step_matches.sql"),
    include_str!("migrations/0005_model_calls.sql"),
    include_str!("migrations/0006_proposals.sql"),
    include_str!("migrations/0007_action_alternatives.sql"),
    include_str!("migrations/0008_outputs.sql"),
    include_str!("migrations/0009_check_locators.sql"),
    include_str!("migrations/0010_heal_steps.sql"),
    include_str!("migrations/0011_retries.sql"),
    include_str!("migrations/0012_drag_to.sql"),
    include_str!("migrations/0013_tabs_opened.sql"),
    include_str!("migrations/0014_review_failure.sql"),
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The statuses a run can have.
pub const STATUSES: &[&str] =
    &["pending", "running", "needs_human_review", "succeeded", "failed", "cancelled", "interrupted"];

/// How long opening waits for other processes setting up the same database.
const OPEN_PATIENCE: Duration = Duration::from_secs(30);

/// A few milliseconds of jitter, so processes retrying together do not collide again.
fn jitter_ms() -> u64 {
    u64::from(std::process::id() % 17) + (now_ms() % 13) as u64
}

/// The database file name inside a runs folder.
pub const DB_FILE: &str = "statewright.db";

pub struct Store {
    conn: Connection,
    /// Where screenshots and locks live (the database's folder); `None` in memory.
    root: Option<PathBuf>,
    path: PathBuf,
    /// Screenshot files of an in-memory store, by relative path.
    blobs: Mutex<HashMap<String, Vec<u8>>>,
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

impl Store {
    /// The default database of a runs folder: `<runs_dir>/statewright.db`.
    pub fn default_path(runs_dir: &Path) -> PathBuf {
        runs_dir.join(DB_FILE)
    }

    /// Opens (creating it if needed) the database at `path`, migrates it, and marks runs
    /// whose process died as `interrupted`. A file that is not a Statewright database, or is
    /// corrupt, is refused without being changed.
    pub fn open(path: &Path) -> Result<Store> {
        let root = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let misplaced = |path: &Path, wanted| Error::NotWhatItShouldBe {
            path: path.to_owned(),
            what: statewright_workflow::what_is_at(path),
            wanted,
        };
        if std::fs::metadata(&root).is_ok_and(|m| !m.is_dir()) {
            return Err(misplaced(&root, "a folder to keep runs in"));
        }
        std::fs::create_dir_all(&root).map_err(|e| Error::io(&root, e))?;
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(misplaced(path, "a run store's database file"));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| Error::sqlite(path, e))?;
        let store = Store { conn, root: Some(root), path: path.to_path_buf(), blobs: Mutex::default() };
        // Processes opening a new database together race to create and migrate it; some of
        // those steps (switching to WAL) answer "busy" at once instead of waiting.
        let started = std::time::Instant::now();
        loop {
            match store.setup().and_then(|()| store.recover_interrupted()) {
                Err(Error::Sqlite { source, .. })
                    if source.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                        && started.elapsed() < OPEN_PATIENCE =>
                {
                    std::thread::sleep(Duration::from_millis(20 + jitter_ms()));
                }
                result => return result.map(|()| store),
            }
        }
    }

    /// A private database in memory (screenshots are kept in memory too), for tests.
    pub fn open_in_memory() -> Result<Store> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| Error::sqlite(&path, e))?;
        let store = Store { conn, root: None, path, blobs: Mutex::default() };
        store.setup()?;
        Ok(store)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder holding the database, screenshots and locks (`None` in memory).
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// Every row `sql` selects with `params`, each read by `row`.
    pub(crate) fn rows<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        row: impl FnMut(&rusqlite::Row) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(|e| self.err(e))?;
        let rows = stmt.query_map(params, row).map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<Vec<T>>>().map_err(|e| self.err(e))
    }

    pub(crate) fn err(&self, e: rusqlite::Error) -> Error {
        // SQLite reports only ENOSPC as SQLITE_FULL; a file-size limit (EFBIG) or a quota
        // (EDQUOT) surfaces as a bare "disk I/O error": look at the OS error behind it.
        if e.sqlite_error_code() == Some(rusqlite::ErrorCode::SystemIoFailure) {
            // SAFETY: the handle is this store's open connection, used from this thread.
            let errno = unsafe { rusqlite::ffi::sqlite3_system_errno(self.conn.handle()) };
            if matches!(errno, libc::ENOSPC | libc::EDQUOT | libc::EFBIG) {
                return Error::DiskFull { path: self.path.clone() };
            }
        }
        Error::sqlite(&self.path, e)
    }

    fn setup(&self) -> Result<()> {
        let conn = &self.conn;
        conn.busy_timeout(Duration::from_secs(30)).map_err(|e| self.err(e))?;
        // Identify the file before writing anything to it, in one read transaction: another
        // process may be creating this database right now, and three separate reads could
        // straddle its first migration (no id yet, but tables) and take it for a stranger's.
        let (app_id, version, objects) = {
            let read = conn.unchecked_transaction().map_err(|e| self.err(e))?;
            let app_id: i32 = read.query_row("PRAGMA application_id", [], |r| r.get(0)).map_err(|e| self.err(e))?;
            let version: i64 = read.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(|e| self.err(e))?;
            let objects: i64 =
                read.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0)).map_err(|e| self.err(e))?;
            read.commit().map_err(|e| self.err(e))?;
            (app_id, version, objects)
        };
        if app_id != APPLICATION_ID && (app_id != 0 || version != 0 || objects != 0) {
            return Err(Error::NotStatewright { path: self.path.clone() });
        }
        if version > SCHEMA_VERSION {
            return Err(Error::TooNew { path: self.path.clone(), found: version, known: SCHEMA_VERSION });
        }
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).map_err(|e| self.err(e))?;
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;").map_err(|e| self.err(e))?;
        self.migrate()
    }

    /// Applies the migrations this file has not seen, in one transaction: a new database's
    /// pages are written once, as they end, not once per migration that touches them (its
    /// write-ahead log at creation was 354 KB, now 144 KB), and a migration that fails leaves
    /// the file as it was.
    fn migrate(&self) -> Result<()> {
        let tx = self.immediate()?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(|e| self.err(e))?;
        if version >= SCHEMA_VERSION {
            return Ok(());
        }
        for migration in &MIGRATIONS[version as usize..] {
            tx.execute_batch(migration).map_err(|e| self.err(e))?;
        }
        tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}; PRAGMA application_id = {APPLICATION_ID};"))
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))
    }

    /// A write transaction that takes the write lock at once (no deadlock on upgrade).
    pub(crate) fn immediate(&self) -> Result<rusqlite::Transaction<'_>> {
        rusqlite::Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate).map_err(|e| self.err(e))
    }

    /// Whether the process recording `run_id` is alive (holds the run's lock). An in-memory
    /// store has no other process to ask, so its runs are always live.
    pub fn is_recording(&self, run_id: &str) -> bool {
        self.lock_path(run_id).is_none_or(|lock| lock_is_held(&lock))
    }

    fn lock_path(&self, run_id: &str) -> Option<PathBuf> {
        self.root.as_ref().map(|r| r.join("locks").join(format!("{run_id}.lock")))
    }

    /// Marks as `interrupted` every running run whose lock nobody holds.
    fn recover_interrupted(&self) -> Result<()> {
        let ids: Vec<String> = {
            let mut stmt = self
                .conn
                .prepare("SELECT id FROM runs WHERE status IN ('running', 'needs_human_review')")
                .map_err(|e| self.err(e))?;
            stmt.query_map([], |r| r.get(0))
                .map_err(|e| self.err(e))?
                .collect::<rusqlite::Result<_>>()
                .map_err(|e| self.err(e))?
        };
        for id in ids {
            let Some(lock) = self.lock_path(&id) else { continue };
            if lock_is_held(&lock) {
                continue;
            }
            self.conn
                .execute(
                    "UPDATE runs SET status = 'interrupted',
                         message = 'the process recording this run stopped before the run finished (killed or crashed)',
                         finished_ms = coalesce((SELECT max(entered_ms) FROM steps WHERE run_id = ?1), started_ms),
                         duration_ms = coalesce((SELECT max(entered_ms) FROM steps WHERE run_id = ?1), started_ms)
                                       - started_ms,
                         step_count = (SELECT count(*) FROM steps WHERE run_id = ?1),
                         action_count = (SELECT count(*) FROM actions WHERE run_id = ?1 AND kind != 'preempted')
                     WHERE id = ?1 AND status IN ('running', 'needs_human_review')",
                    [&id],
                )
                .map_err(|e| self.err(e))?;
            self.cancel_reviews(&id)?;
            let _ = std::fs::remove_file(&lock);
        }
        Ok(())
    }
}

/// Whether a live process holds the exclusive lock at `path`.
fn lock_is_held(path: &Path) -> bool {
    let Ok(file) = File::options().read(true).write(true).open(path) else {
        return false;
    };
    !try_lock(&file)
}

/// Takes an exclusive `flock` without waiting; the lock lasts as long as the file is open.
pub(crate) fn try_lock(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a valid, open file descriptor.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}
