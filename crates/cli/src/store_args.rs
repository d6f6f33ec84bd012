//! `--runs-dir` and `--db`: where runs are kept, the same two flags for every command that
//! reads or writes them.

use std::path::PathBuf;

use clap::Args;
use statewright_store::Store;

#[derive(Args, Clone)]
pub struct StoreArgs {
    /// Where run folders go; its statewright.db is the run store unless --db says otherwise.
    // `global` lets `runs` and `review` take the flags after their subcommand too; on a
    // command without subcommands it changes nothing.
    #[arg(long, env = "STATEWRIGHT_RUNS_DIR", default_value = "runs", global = true)]
    pub runs_dir: PathBuf,
    /// The run store (default: statewright.db in the runs folder).
    #[arg(long, env = "STATEWRIGHT_DB", value_name = "FILE", global = true)]
    pub db: Option<PathBuf>,
}

impl StoreArgs {
    /// The store's file, whether or not it exists yet.
    pub fn db_path(&self) -> PathBuf {
        self.db.clone().unwrap_or_else(|| Store::default_path(&self.runs_dir))
    }

    /// The store, if there is one, for commands that only consult it: they never create a
    /// database, and one that cannot be opened is a warning, not an error.
    pub fn existing(&self) -> Option<Store> {
        let path = self.db_path();
        if !path.exists() {
            return None;
        }
        match Store::open(&path) {
            Ok(store) => Some(store),
            Err(e) => {
                errln!("warning: {}: {e}; going on without the stored runs", path.display());
                None
            }
        }
    }
}
