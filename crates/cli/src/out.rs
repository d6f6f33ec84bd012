//! Everything the command line prints goes through here.
//!
//! Standard output: a closed pipe (`statewright convert BIG - | head -c1`) ends the process
//! quietly, as it ends other Unix tools: exit status 141 (128 + SIGPIPE), no panic.
//!
//! Standard error: a write that fails (a closed pipe, `statewright batch … 2>&1 | head -1`)
//! is dropped; the work goes on and is recorded. Nothing written to stderr can panic.
//!
//! On both, text from data (URLs, parameter values, page titles, messages) cannot drive the
//! terminal: its control characters and bidirectional overrides are shown escaped, as JSON
//! spells them (`\u001b`, `\u202e`), the way extracted values (printed as JSON) always were.
//! Everything printed goes through [`safe`], which keeps line breaks; a field that is one
//! line (a title, a name, a message in a progress line) is put in through [`one_line`], so
//! that a line break in it cannot forge a line of its own (`\n✓ succeeded`).

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

/// `text` with its control characters (ESC, BEL, CR, DEL, the C1 range…) and bidirectional
/// controls escaped as JSON escapes them (`\u001b`, `\u202e`), so that text from data cannot
/// move the cursor, recolour the terminal, set its title or show itself reversed (an
/// override reorders what a person reads: "Trojan Source"). Line breaks and tabs stay: for
/// text that has lines of its own (a trace, diagnostics, JSON); a field of one line goes
/// through [`one_line`]. JSON's spelling keeps `--json` output JSON, its values unchanged.
pub fn safe(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c == '\n' || c == '\t')
}

/// [`safe`], and its line breaks and tabs escaped too (`\n`, `\t`): for a field shown on one
/// line, which must not be able to start a line (or a column) of its own.
pub fn one_line(text: &str) -> Cow<'_, str> {
    escaped(text, |_| false)
}

/// `text` with its control and bidirectional characters escaped, but for those `kept`.
fn escaped(text: &str, kept: impl Fn(char) -> bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() || is_bidi(c)) && !kept(c);
    if !text.contains(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            _ if !unsafe_char(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            _ => out.push_str(&format!("\\u{:04x}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// The characters that change the order text is shown in: the embeddings and overrides
/// (U+202A–U+202E), the isolates (U+2066–U+2069) and the marks (LRM, RLM, ALM).
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

#[cfg(test)]
mod tests {
    use super::{one_line, safe};

    #[test]
    fn control_characters_are_escaped_as_json_escapes_them() {
        assert_eq!(safe("A\x1b]0;PWNED\x07\x1b[31mRED\r\u{9b}"), "A\\u001b]0;PWNED\\u0007\\u001b[31mRED\\u000d\\u009b");
        assert_eq!(safe("two\nlines\tand ☃"), "two\nlines\tand ☃");
        // The same spelling as an extracted value's, printed as JSON.
        assert_eq!(serde_json::to_string("\x1b").unwrap(), format!("\"{}\"", safe("\x1b")));
    }

    #[test]
    fn bidirectional_controls_are_escaped_everywhere_and_line_breaks_in_one_line_fields() {
        let title =
            "Invoice\n✓ run succeeded\t\u{202e}gnp.exe\u{202c} \u{2066}\u{2067}\u{2068}\u{2069}\u{200e}\u{200f}\u{61c}";
        let marks = "\\u202egnp.exe\\u202c \\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c";
        assert_eq!(safe(title), format!("Invoice\n✓ run succeeded\t{marks}"));
        assert_eq!(one_line(title), format!("Invoice\\n✓ run succeeded\\t{marks}"));
        assert_eq!(one_line("A\x1b[31m\r"), "A\\u001b[31m\\u000d");
        // Escaped once, it stays as it is: a field made one line, then the whole line safe.
        assert_eq!(safe(&one_line(title)), one_line(title));
        // Text in other scripts, right-to-left ones included, is not touched.
        assert_eq!(one_line("שלום ☃ مرحبا"), "שלום ☃ مرحبا");
        // In JSON, the escape is JSON's own: the value read back is the value.
        let json = serde_json::to_string(&serde_json::json!({ "title": title })).unwrap();
        let shown: serde_json::Value = serde_json::from_str(&safe(&json)).unwrap();
        assert_eq!(shown["title"], title);
    }
}
