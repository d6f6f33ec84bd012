//! Reading an input file's text (a workflow, batch data, a pool of browsers): only a
//! regular file, and only so much of it. A named pipe would block `validate` or a batch for
//! ever and `/dev/zero` would be read until memory runs out; a path given by mistake gets
//! a clear error instead.

use std::io::Read;
use std::path::Path;

/// The largest input file read (64 MiB): far beyond any workflow written by hand or
/// recorded (the bundled ones are a few KiB), batch data, a settings file or a skill, and
/// small enough to read at once.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The largest file this program wrote that it reads back (1 GiB): a batch's results table
/// (a row per row of data of up to [`MAX_INPUT_BYTES`], with what each run read), an
/// export's `timeline.json` (the workflow as run, every step and action), a screenshot or
/// an artifact (a page's HTML, a download) kept in the runs folder.
pub const MAX_WRITTEN_BYTES: u64 = 1 << 30;

/// Why an input file's text could not be read, with what to do about it.
pub struct Unreadable {
    pub message: String,
    pub help: String,
    /// Nothing is at the path (a caller may take that as "none yet").
    pub missing: bool,
    /// The line and column of the problem, when it is at one place in the file (where the
    /// text stops being UTF-8; the message says it too).
    pub place: Option<(usize, usize)>,
}

/// Where a text stops being UTF-8, and how: at its start for UTF-16 (no column then), else
/// at the first byte that is not.
#[derive(Debug, PartialEq)]
pub struct NotUtf8 {
    pub line: usize,
    pub column: Option<usize>,
    /// `UTF-16 text, not UTF-8`, or `not UTF-8 text (the byte E9)`.
    pub what: String,
}

/// The text of `bytes`, or where it stops being UTF-8. Windows tools save "Unicode" text as
/// UTF-16 (PowerShell's `>` does) and spreadsheets their "CSV" in the system's code page
/// (Windows-1252): one accented name deep in a file is otherwise hard to find.
pub fn utf8_text(bytes: &[u8]) -> Result<&str, NotUtf8> {
    std::str::from_utf8(bytes).map_err(|e| not_utf8(bytes, e))
}

/// Where `bytes`, which `e` says are not UTF-8, stop being so. A UTF-16 mark (FF FE, FE FF)
/// is never UTF-8, so every UTF-16 file with one comes here.
fn not_utf8(bytes: &[u8], e: std::str::Utf8Error) -> NotUtf8 {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return NotUtf8 { line: 1, column: None, what: "UTF-16 text, not UTF-8".into() };
    }
    let read = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
    // Lines end with `\n`, `\r\n` or a lone `\r`.
    let breaks = read.matches('\n').count() + read.matches('\r').count() - read.matches("\r\n").count();
    let column = read.rsplit(['\n', '\r']).next().unwrap_or_default().chars().count() + 1;
    let what = format!("not UTF-8 text (the byte {:02X})", bytes[e.valid_up_to()]);
    NotUtf8 { line: breaks + 1, column: Some(column), what }
}

/// The text of the regular file at `path` (symbolic links followed), up to
/// [`MAX_INPUT_BYTES`]. The CLI and the app's workflows folder read every workflow
/// file through this.
pub fn read_workflow_text(path: &Path) -> Result<String, Unreadable> {
    read_input_text(path, "workflow file")
}

/// The text of a file a person names as input (`what`: "workflow file", "data file"…):
/// only a regular file, symbolic links followed, up to [`MAX_INPUT_BYTES`] (any input
/// file larger than the largest workflow is a wrong path, not data to read).
pub fn read_input_text(path: &Path, what: &str) -> Result<String, Unreadable> {
    let bytes = read_input_bytes(path, what, MAX_INPUT_BYTES)?;
    // Checked once: the error keeps the bytes, for saying where they stop being UTF-8.
    String::from_utf8(bytes).map_err(|e| {
        let e = not_utf8(e.as_bytes(), e.utf8_error());
        let at = e.column.map(|column| format!(" at line {}, column {column}", e.line)).unwrap_or_default();
        Unreadable {
            message: format!("the {what} is {}{at}", e.what),
            help: "save the file as UTF-8".into(),
            missing: false,
            place: Some((e.line, e.column.unwrap_or(1))),
        }
    })
}

/// The bytes of an input file (a certificate may be binary), as [`read_input_text`] reads
/// text, up to `max` bytes (a file this program wrote, such as a batch's results table,
/// may be larger than one a person writes).
pub fn read_input_bytes(path: &Path, what: &str, max: u64) -> Result<Vec<u8>, Unreadable> {
    let file = open_input(path, what, max)?;
    // Read with the cap too: a file may grow after it was looked at.
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(|e| cannot(what, e))?;
    if bytes.len() as u64 > max {
        return Err(too_big(what, max, bytes.len() as u64));
    }
    Ok(bytes)
}

/// The regular file at `path` opened to read, as [`read_input_bytes`] reads it: for a file
/// read as it is parsed rather than whole (a batch's results table of a million rows is
/// hundreds of MB); the reader reads no more than `max` of it (the file may grow).
pub fn open_input(path: &Path, what: &str, max: u64) -> Result<std::fs::File, Unreadable> {
    let cannot = |e| cannot(what, e);
    // Looked at before it is opened, so what is plainly not a file (a device, a socket) is
    // never opened at all.
    let metadata = std::fs::metadata(path).map_err(cannot)?;
    regular_within(&metadata, what, max)?;
    // The path may lead elsewhere by the time it is opened (a file swapped for a named
    // pipe): what was opened is looked at again, and opening does not wait for a writer.
    let file = open_without_waiting(path).map_err(cannot)?;
    opened_regular_within(&file, what, max)?;
    Ok(file)
}

/// Opens `path` to read without waiting: opening a named pipe for reading would wait for a
/// writer, and a terminal opened so would become the program's own.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Refuses what `file`, opened by [`open_without_waiting`], is if it is not a regular file
/// of at most `max` bytes (the path may have led elsewhere when it was looked at); a regular
/// one is then read as any file is.
fn opened_regular_within(file: &std::fs::File, what: &str, max: u64) -> Result<(), Unreadable> {
    regular_within(&file.metadata().map_err(|e| cannot(what, e))?, what, max)?;
    reading_may_wait(file).map_err(|e| cannot(what, e))
}

/// Clears the no-waiting flag [`open_without_waiting`] set: Linux ignores it when reading a
/// regular file, but POSIX lets a read of a file under a mandatory lock fail with "would
/// block" instead of waiting.
fn reading_may_wait(file: &std::fs::File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor `file` owns and keeps open for the call.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// Refuses what is not a regular file of at most `max` bytes, by its metadata (the path's
/// or the opened file's).
fn regular_within(metadata: &std::fs::Metadata, what: &str, max: u64) -> Result<(), Unreadable> {
    if !metadata.is_file() {
        return Err(Unreadable {
            message: format!("the {what} is {}, not a regular file", kind(&metadata.file_type())),
            help: format!("give the path of the {what} itself"),
            missing: false,
            place: None,
        });
    }
    if metadata.len() > max {
        return Err(too_big(what, max, metadata.len()));
    }
    Ok(())
}

fn cannot(what: &str, e: std::io::Error) -> Unreadable {
    Unreadable {
        message: format!("cannot read the {what}: {e}"),
        help: "check the path and that the file can be read".into(),
        missing: e.kind() == std::io::ErrorKind::NotFound,
        place: None,
    }
}

fn too_big(what: &str, max: u64, bytes: u64) -> Unreadable {
    Unreadable {
        message: format!("the {what} is larger than {} MiB ({bytes} bytes)", max >> 20),
        help: format!("a {what} this large is not one; check the path"),
        missing: false,
        place: None,
    }
}

/// What a path that is not a regular file is, in words.
pub(crate) fn kind(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() { "a folder" } else { "not a file" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(path: &Path) -> String {
        match read_workflow_text(path) {
            Ok(text) => panic!("{} was read: {} bytes", path.display(), text.len()),
            Err(e) => e.message,
        }
    }

    #[test]
    fn only_a_regular_file_is_read() {
        let dir = std::env::temp_dir().join(format!("sw-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(refusal(&dir), "the workflow file is a folder, not a regular file");
        #[cfg(unix)]
        {
            assert_eq!(refusal(Path::new("/dev/zero")), "the workflow file is a device, not a regular file");
            let fifo = dir.join("f.json");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
            if made {
                // Before, this read blocked for ever, waiting for a writer.
                assert_eq!(refusal(&fifo), "the workflow file is a named pipe (FIFO), not a regular file");
            }
        }
        let file = dir.join("w.json");
        std::fs::write(&file, "{}").unwrap();
        assert_eq!(read_workflow_text(&file).ok().as_deref(), Some("{}"));
        std::fs::write(&file, b"\xff").unwrap();
        assert_eq!(refusal(&file), "the workflow file is not UTF-8 text (the byte FF) at line 1, column 1");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `f` in a thread of its own, which must end within 20 seconds (the test fails then,
    /// rather than waiting for ever on a named pipe).
    #[cfg(unix)]
    fn in_time<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(f()));
        rx.recv_timeout(std::time::Duration::from_secs(20)).expect("still waiting after 20 s")
    }

    #[cfg(unix)]
    fn fifo(path: &Path) {
        assert!(std::process::Command::new("mkfifo").arg(path).status().unwrap().success());
    }

    #[cfg(unix)]
    #[test]
    fn what_was_opened_is_refused_when_it_is_a_pipe_and_opening_it_does_not_wait() {
        let dir = std::env::temp_dir().join(format!("sw-source-opened-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pipe = dir.join("p.json");
        fifo(&pipe);
        let refused = in_time(move || {
            let opened = open_without_waiting(&pipe).expect("opened without a writer");
            opened_regular_within(&opened, "workflow file", MAX_INPUT_BYTES).err().map(|e| e.message)
        });
        assert_eq!(refused.as_deref(), Some("the workflow file is a named pipe (FIFO), not a regular file"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The path is a link that another thread keeps turning from a file to a named pipe and
    /// back: a read that looked at the file and then opened the pipe waited for ever.
    #[cfg(unix)]
    #[test]
    fn a_file_swapped_for_a_pipe_between_look_and_open_is_not_waited_on() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let dir = std::env::temp_dir().join(format!("sw-source-swap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("file.json"), "{}").unwrap();
        fifo(&dir.join("pipe.json"));
        let path = dir.join("w.json");
        std::os::unix::fs::symlink("file.json", &path).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let swapper = {
            let (dir, path, stop) = (dir.clone(), path.clone(), stop.clone());
            std::thread::spawn(move || {
                for to in ["pipe.json", "file.json"].iter().cycle() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let next = dir.join("next");
                    std::os::unix::fs::symlink(to, &next).unwrap();
                    std::fs::rename(&next, &path).unwrap();
                }
            })
        };
        let pipe = "the workflow file is a named pipe (FIFO), not a regular file";
        let other = in_time(move || {
            (0..5000).filter_map(|_| read_workflow_text(&path).err()).find(|e| e.message != pipe).map(|e| e.message)
        });
        stop.store(true, Ordering::Relaxed);
        swapper.join().unwrap();
        assert_eq!(other, None, "each read was the file's text or the pipe refused");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_over_the_cap_is_refused_without_reading_it() {
        let dir = std::env::temp_dir().join(format!("sw-source-big-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.json");
        // A sparse file: no disk space, but its length is over the cap.
        std::fs::File::create(&big).unwrap().set_len(MAX_INPUT_BYTES + 1).unwrap();
        assert_eq!(refusal(&big), "the workflow file is larger than 64 MiB (67108865 bytes)");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
