//! One writer at a time on a results table. Two batches at once (a cron job that overlaps
//! the one before, a second terminal) would each find the rows not done and run every one
//! of them twice — twice the purchases — and overwrite each other's table; a `judge`
//! rewriting the table while a batch runs would drop the rows the batch wrote meanwhile (or
//! the batch the verdicts). Each holds an exclusive `flock` on `<results>.lock` (with its
//! pid and what it is inside, for the message) while it writes; the other is refused at once. The kernel lets go of the lock when its process
//! dies, however it dies, so a crash leaves no lock behind (only the file, which the next
//! batch takes over).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use crate::error::RunError;

/// What holds a results table: a batch (`batch`, `agent --tasks`) or `judge`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    Batch,
    Judge,
}

impl Writer {
    fn name(self) -> &'static str {
        match self {
            Writer::Batch => "batch",
            Writer::Judge => "judge",
        }
    }

    /// Why this writer waits for the other.
    fn why(self) -> &'static str {
        match self {
            Writer::Batch => {
                "two batches at once would run every row twice; wait for it to end, or give this one results \
                 of its own (--out)"
            }
            Writer::Judge => "judging now would lose the rows it writes meanwhile; judge once it has ended",
        }
    }
}

/// Held for the writer's lifetime; the lock file goes when it is dropped.
pub struct ResultsLock {
    file: File,
    path: PathBuf,
}

impl ResultsLock {
    /// The lock beside the results `csv` for `writer`, or an error saying who holds it.
    pub fn take(csv: &Path, writer: Writer) -> Result<ResultsLock, RunError> {
        let path = csv.with_extension("lock");
        let cannot = |e: std::io::Error| {
            RunError::environment("results", format!("cannot lock the results {}: {e}", path.display()))
        };
        loop {
            let mut file =
                OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(cannot)?;
            if !try_lock(&file) {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                // "<pid> <writer>"; a batch before judges took the lock too wrote the pid alone.
                let mut words = holder.split_whitespace();
                let pid = words.next().and_then(|p| p.parse::<u32>().ok()).map(|p| format!(" (pid {p})"));
                let holder = if words.next() == Some("judge") { Writer::Judge } else { Writer::Batch };
                let who = if holder == writer { "another" } else { "a" };
                return Err(RunError::invalid(
                    "results_busy",
                    format!(
                        "{who} {}{} is writing the results {}: {}",
                        holder.name(),
                        pid.unwrap_or_default(),
                        csv.display(),
                        writer.why()
                    ),
                ));
            }
            // The batch before may have removed the file as it let go, after we opened it:
            // a lock on a file no longer at `path` keeps out no one. Then again, afresh.
            if is_at(&file, &path) {
                file.set_len(0).and_then(|()| file.rewind()).map_err(cannot)?;
                file.write_all(format!("{} {}\n", std::process::id(), writer.name()).as_bytes()).map_err(cannot)?;
                return Ok(ResultsLock { file, path });
            }
        }
    }
}

impl Drop for ResultsLock {
    /// Removed while still locked (the lock goes with the file's closing, just after): a
    /// batch that opened it in between finds it gone and takes a new one.
    fn drop(&mut self) {
        if is_at(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `file` is still the file at `path`.
fn is_at(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(open), Ok(there)) => (open.dev(), open.ino()) == (there.dev(), there.ino()),
        _ => false,
    }
}

/// An exclusive `flock`, without waiting; it lasts as long as the file is open.
fn try_lock(file: &File) -> bool {
    // SAFETY: flock on a valid, open file descriptor.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_batch_on_the_same_results_is_refused_until_the_first_ends() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("orders.results.csv");
        let first = ResultsLock::take(&csv, Writer::Batch).unwrap();
        let lock_file = dir.path().join("orders.results.lock");
        assert_eq!(std::fs::read_to_string(&lock_file).unwrap(), format!("{} batch\n", std::process::id()));
        let refused = ResultsLock::take(&csv, Writer::Batch).err().expect("the first holds it");
        assert!(
            refused.message.starts_with(&format!("another batch (pid {}) is writing the results", std::process::id())),
            "{}",
            refused.message
        );
        let judge = ResultsLock::take(&csv, Writer::Judge).err().expect("nor may a judge write it");
        assert!(judge.message.starts_with(&format!("a batch (pid {}) is writing", std::process::id())), "{judge:?}");
        assert!(judge.message.ends_with("judge once it has ended"), "{judge:?}");
        drop(first);
        assert!(!lock_file.exists(), "the lock file goes with the batch");
        let judging = ResultsLock::take(&csv, Writer::Judge).unwrap();
        let refused = ResultsLock::take(&csv, Writer::Batch).err().expect("the judge holds it");
        assert!(
            refused.message.starts_with(&format!("a judge (pid {}) is writing", std::process::id())),
            "{refused:?}"
        );
        drop(judging);
        drop(ResultsLock::take(&csv, Writer::Batch).unwrap());
    }

    #[test]
    fn a_lock_file_left_by_a_crashed_batch_locks_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("orders.results.csv");
        // What a killed batch leaves: the file with its pid, and no lock (the kernel's went
        // with the process).
        std::fs::write(csv.with_extension("lock"), "999999999\n").unwrap();
        let lock = ResultsLock::take(&csv, Writer::Judge).unwrap();
        let held = std::fs::read_to_string(csv.with_extension("lock")).unwrap();
        assert_eq!(held, format!("{} judge\n", std::process::id()));
        drop(lock);
    }
}
