//! One batch at a time on a results table. Two at once (a cron job that overlaps the one
//! before, a second terminal) would each find the rows not done and run every one of them
//! twice — twice the purchases — and overwrite each other's table. A batch holds an
//! exclusive `flock` on `<results>.lock` (with its pid inside, for the message) while it
//! runs; the other is refused at once. The kernel lets go of the lock when its process
//! dies, however it dies, so a crash leaves no lock behind (only the file, which the next
//! batch takes over).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use crate::error::RunError;

/// Held for the batch's lifetime; the lock file goes when it is dropped.
pub(super) struct ResultsLock {
    file: File,
    path: PathBuf,
}

impl ResultsLock {
    /// The lock beside the results `csv`, or an error saying which batch holds it.
    pub fn take(csv: &Path) -> Result<ResultsLock, RunError> {
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
                let pid = holder.trim().parse::<u32>().map(|pid| format!(" (pid {pid})")).unwrap_or_default();
                return Err(RunError::invalid(
                    "results_busy",
                    format!(
                        "another batch{pid} is writing the results {}: two at once would run every row twice; \
                         wait for it to end, or give this one results of its own (--out)",
                        csv.display()
                    ),
                ));
            }
            // The batch before may have removed the file as it let go, after we opened it:
            // a lock on a file no longer at `path` keeps out no one. Then again, afresh.
            if is_at(&file, &path) {
                file.set_len(0).and_then(|()| file.rewind()).map_err(cannot)?;
                file.write_all(format!("{}\n", std::process::id()).as_bytes()).map_err(cannot)?;
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
        let first = ResultsLock::take(&csv).unwrap();
        let lock_file = dir.path().join("orders.results.lock");
        assert_eq!(std::fs::read_to_string(&lock_file).unwrap(), format!("{}\n", std::process::id()));
        let refused = ResultsLock::take(&csv).err().expect("the first holds it");
        assert!(
            refused.message.starts_with(&format!("another batch (pid {}) is writing the results", std::process::id())),
            "{}",
            refused.message
        );
        drop(first);
        assert!(!lock_file.exists(), "the lock file goes with the batch");
        drop(ResultsLock::take(&csv).unwrap());
    }

    #[test]
    fn a_lock_file_left_by_a_crashed_batch_locks_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("orders.results.csv");
        // What a killed batch leaves: the file with its pid, and no lock (the kernel's went
        // with the process).
        std::fs::write(csv.with_extension("lock"), "999999999\n").unwrap();
        let lock = ResultsLock::take(&csv).unwrap();
        assert_eq!(std::fs::read_to_string(csv.with_extension("lock")).unwrap(), format!("{}\n", std::process::id()));
        drop(lock);
    }
}
