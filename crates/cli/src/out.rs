//! Everything the command line prints goes through here.
//!
//! Standard output: a closed pipe (`statewright convert BIG - | head -c1`) ends the process
//! quietly, as it ends other Unix tools: exit status 141 (128 + SIGPIPE), no panic.
//!
//! Standard error: a write that fails (a closed pipe, `statewright batch … 2>&1 | head -1`)
//! is dropped; the work goes on and is recorded. Nothing written to stderr can panic.
//!
//! On both, text from data (URLs, parameter values, page titles, messages) cannot drive the
//! terminal: its control characters are shown escaped, as JSON spells them (`\u001b`), the
//! way extracted values (printed as JSON) always were. See [`safe`].

use std::borrow::Cow;
use std::io::{self, Write};

/// The status a closed stdout ends the process with.
pub const CLOSED_PIPE: i32 = 141;

pub fn write(args: std::fmt::Arguments) {
    let text = args.to_string();
    if let Err(e) = io::stdout().lock().write_all(safe(&text).as_bytes()) {
        closed(&e);
    }
}

pub fn write_line(args: std::fmt::Arguments) {
    let text = args.to_string();
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_all(safe(&text).as_bytes()).and_then(|()| out.write_all(b"\n")) {
        closed(&e);
    }
}

fn closed(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(CLOSED_PIPE);
    }
    error_line(format_args!("statewright: cannot write to standard output: {e}"));
    std::process::exit(1)
}

/// `err!`, made safe: see the module's comment (the `err!` macro).
pub fn error(args: std::fmt::Arguments) {
    error_raw(&safe(&args.to_string()));
}

/// `errln!`, made safe (the `errln!` macro).
pub fn error_line(args: std::fmt::Arguments) {
    let mut text = safe(&args.to_string()).into_owned();
    text.push('\n');
    error_raw(&text);
}

/// Text written to stderr as it is: for the live progress, whose colours are its own escapes
/// and whose values from data are made [`safe`] one by one.
pub fn error_raw(text: &str) {
    // A failed write (a closed pipe, a full disk) is not a reason to stop the work.
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `text` with its control characters (ESC, BEL, CR, DEL, the C1 range…) escaped as JSON
/// escapes them (`\u001b`), so that text from data cannot move the cursor, recolour the
/// terminal or set its title. Line breaks and tabs stay.
pub fn safe(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.contains(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::safe;

    #[test]
    fn control_characters_are_escaped_as_json_escapes_them() {
        assert_eq!(safe("A\x1b]0;PWNED\x07\x1b[31mRED\r\u{9b}"), "A\\u001b]0;PWNED\\u0007\\u001b[31mRED\\u000d\\u009b");
        assert_eq!(safe("two\nlines\tand ☃"), "two\nlines\tand ☃");
        // The same spelling as an extracted value's, printed as JSON.
        assert_eq!(serde_json::to_string("\x1b").unwrap(), format!("\"{}\"", safe("\x1b")));
    }
}
