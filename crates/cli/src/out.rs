//! Standard output that a closed pipe (`statewright convert BIG - | head -c1`) ends
//! quietly, as it ends other Unix tools: exit status 141 (128 + SIGPIPE), no panic.

use std::io::{self, Write};

/// The status a closed stdout ends the process with.
pub const CLOSED_PIPE: i32 = 141;

pub fn write(args: std::fmt::Arguments) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        closed(&e);
    }
}

pub fn write_line(args: std::fmt::Arguments) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        closed(&e);
    }
}

fn closed(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(CLOSED_PIPE);
    }
    eprintln!("statewright: cannot write to standard output: {e}");
    std::process::exit(1)
}
