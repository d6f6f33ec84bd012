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

/// Why an input file's text could not be read, with what to do about it.
pub struct Unreadable {
    pub message: String,
    pub help: String,
    /// Nothing is at the path (a caller may take that as "none yet").
    pub missing: bool,
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
    String::from_utf8(bytes).map_err(|_| Unreadable {
        message: format!("cannot read the {what}: stream did not contain valid UTF-8"),
        help: "check the path and that the file is UTF-8 text".into(),
        missing: false,
    })
}

/// The bytes of an input file (a certificate may be binary), as [`read_input_text`] reads
/// text, up to `max` bytes (a file this program wrote, such as a batch's results table,
/// may be larger than one a person writes).
pub fn read_input_bytes(path: &Path, what: &str, max: u64) -> Result<Vec<u8>, Unreadable> {
    let cannot = |e: std::io::Error| Unreadable {
        message: format!("cannot read the {what}: {e}"),
        help: "check the path and that the file can be read".into(),
        missing: e.kind() == std::io::ErrorKind::NotFound,
    };
    // Looked at before it is opened: opening a named pipe waits for a writer.
    let metadata = std::fs::metadata(path).map_err(cannot)?;
    if !metadata.is_file() {
        return Err(Unreadable {
            message: format!("the {what} is {}, not a regular file", kind(&metadata.file_type())),
            help: format!("give the path of the {what} itself"),
            missing: false,
        });
    }
    let too_big = |bytes: u64| Unreadable {
        message: format!("the {what} is larger than {} MiB ({bytes} bytes)", max >> 20),
        help: format!("a {what} this large is not one; check the path"),
        missing: false,
    };
    if metadata.len() > max {
        return Err(too_big(metadata.len()));
    }
    // Read with the cap too: a file may grow after it was looked at.
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).map_err(cannot)?;
    file.take(max + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > max {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
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
        assert!(refusal(&file).contains("valid UTF-8"));
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
