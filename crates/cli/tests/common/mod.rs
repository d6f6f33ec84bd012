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
        // No model unless a test configures one: a developer's own settings stay out.
        .env_remove("STATEWRIGHT_LLM_URL")
        .env_remove("STATEWRIGHT_LLM_MODEL")
        .env_remove("STATEWRIGHT_LLM_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env("STATEWRIGHT_CONFIG_DIR", runs.join("no-config"))
        .env("NO_COLOR", "1");
    cmd
}

pub fn statewright(args: &[&str], runs: &Path) -> Output {
    command(args, runs).output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
