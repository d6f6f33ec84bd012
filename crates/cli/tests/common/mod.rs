//! Running the real `statewright` binary from the repository root, with its own runs folder.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn command(args: &[&str], runs: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_statewright"));
    cmd.args(args)
        .current_dir(repo())
        .env("STATEWRIGHT_RUNS_DIR", runs)
        .env_remove("STATEWRIGHT_DB")
        .env("NO_COLOR", "1");
    cmd
}

pub fn statewright(args: &[&str], runs: &Path) -> Output {
    command(args, runs).output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
