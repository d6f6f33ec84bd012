//! `validate`, `convert` and `demo-site`: the commands that need no browser.

use std::path::{Path, PathBuf};

use statewright_demo::{Site, SiteServer};
use statewright_workflow::{Diagnostics, SourceFormat, Unwritable, load_file, to_native_json, write_workflow_text};

use crate::exit;
use crate::graph_cmds::{graph_diagnostics, runs_of};
use crate::store_args::StoreArgs;

pub fn validate(files: &[PathBuf], json: bool, strict: bool, store: &StoreArgs) -> u8 {
    let mut all = Diagnostics::default();
    let mut failed = false;
    let store = store.existing();
    for file in files {
        match load_file(file) {
            Ok(mut loaded) => {
                let runs = runs_of(store.as_ref(), &loaded.workflow);
                loaded.warnings.0.extend(graph_diagnostics(file, &loaded, &runs, strict));
                if !loaded.workflow.skills_used().is_empty() {
                    let dir = statewright_workflow::skills::skills_dir_for(file);
                    if let Err(problems) =
                        statewright_workflow::skills::load_skills(&loaded.workflow, file, dir.as_deref())
                    {
                        loaded.warnings.0.extend(problems.0);
                    }
                }
                let refused = loaded.warnings.has_errors();
                failed |= refused;
                if !json && !refused {
                    for w in &loaded.warnings.0 {
                        errln!("{w}");
                    }
                    let format = match loaded.format {
                        SourceFormat::Native => "native",
                        SourceFormat::CliGent => "CliGent",
                    };
                    errln!("ok: {} ({format}, {} states)", file.display(), loaded.workflow.states.len());
                } else if !json {
                    errln!("{}", loaded.warnings);
                }
                all.0.extend(loaded.warnings.0);
            }
            Err(diagnostics) => {
                failed = true;
                if !json {
                    errln!("{diagnostics}");
                }
                all.0.extend(diagnostics.0);
            }
        }
    }
    if json {
        outln!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
    } else if failed {
        let errors = all.errors().count();
        errln!("{errors} error{} found", if errors == 1 { "" } else { "s" });
    }
    if failed { exit::INVALID } else { exit::SUCCEEDED }
}

pub fn convert(input: &Path, output: &Path, in_place: bool) -> u8 {
    if !in_place && output.as_os_str() != "-" && same_file(input, output) {
        errln!(
            "statewright: {} is the input file: give another output file, or --in-place to rewrite the input",
            output.display()
        );
        return exit::INVALID;
    }
    let loaded = match load_file(input) {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            errln!("{diagnostics}");
            return exit::INVALID;
        }
    };
    for w in &loaded.warnings.0 {
        errln!("{w}");
    }
    let text = to_native_json(&loaded.workflow);
    if output.as_os_str() == "-" {
        out!("{text}");
        return exit::SUCCEEDED;
    }
    // As every workflow file is written: whole or not at all (an in-place rewrite cut short
    // must not lose the input), through a link to where it leads, never into a pipe.
    match write_workflow_text(output, &text) {
        Ok(()) => {
            errln!("wrote {} ({} states)", output.display(), loaded.workflow.states.len());
            exit::SUCCEEDED
        }
        Err(e) => {
            errln!(
                "statewright: {e}{}",
                if matches!(e, Unwritable::NotAFile { .. }) { " (`-` writes to stdout)" } else { "" }
            );
            exit::unwritten(&e)
        }
    }
}

/// Whether `a` and `b` are one file: the same canonical path (links followed), or on Unix the
/// same inode (a hard link).
fn same_file(a: &Path, b: &Path) -> bool {
    if let (Ok(a), Ok(b)) = (a.canonicalize(), b.canonicalize())
        && a == b
    {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return (a.dev(), a.ino()) == (b.dev(), b.ino());
        }
    }
    false
}

pub async fn demo_site(port: u16, dir: Option<PathBuf>, drift: Option<PathBuf>) -> u8 {
    let site = match site(dir, drift.as_deref()) {
        Ok(site) => site,
        Err(e) => {
            errln!("statewright: {e}");
            return exit::INVALID;
        }
    };
    match SiteServer::start(site, port).await {
        Ok(server) => {
            errln!("serving on {}/ (Ctrl-C to stop)", server.url());
            tokio::select! {
                () = server.wait() => {}
                () = crate::interrupt::interrupted() => {}
            }
            exit::SUCCEEDED
        }
        Err(e) => {
            errln!("statewright: cannot listen on 127.0.0.1:{port}: {e}");
            exit::FAILED
        }
    }
}

/// The bundled demo site (or a folder), drifted when a drift file is given.
pub fn site(dir: Option<PathBuf>, drift: Option<&std::path::Path>) -> Result<Site, String> {
    let site = match dir {
        Some(dir) => Site::folder(&dir).map_err(|e| e.to_string())?,
        None => Site::Demo,
    };
    match drift {
        Some(path) => Site::drifted(site, path).map_err(|e| format!("{}: {e}", path.display())),
        None => Ok(site),
    }
}
