//! Starting programs. We resolve the program on `PATH` ourselves before spawning, so a
//! missing program is reported with where we looked rather than as a bare ENOENT.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::process::{Child, Command};

use crate::error::{DesktopError, DesktopResult};
use crate::types::LaunchSpec;

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The program's full path: as given if it contains a `/`, else the first executable
/// match on `PATH`.
pub(crate) fn resolve(program: &str) -> DesktopResult<PathBuf> {
    if program.is_empty() {
        return Err(DesktopError::Invalid("launch: the program name is empty".into()));
    }
    if program.contains('/') {
        let p = PathBuf::from(program);
        return if is_executable(&p) {
            Ok(p)
        } else {
            Err(DesktopError::ProgramNotFound { program: program.into(), searched: vec![p] })
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path).filter(|d| !d.as_os_str().is_empty()).collect();
    dirs.iter()
        .map(|d| d.join(program))
        .find(|p| is_executable(p))
        .ok_or(DesktopError::ProgramNotFound { program: program.into(), searched: dirs })
}

/// Names, comma-separated, of the environment variables this process set for itself (the
/// app's WebKit settings, see `src-tauri/src/main.rs`): programs it launches get the
/// environment as the user had it, without them.
pub const OWN_ENV: &str = "STATEWRIGHT_OWN_ENV";

/// Spawns the program detached from our terminal: stdin, stdout and stderr go to
/// /dev/null (a GUI program must not scribble over the CLI's output or read its input),
/// and it gets its own process group, so a Ctrl-C meant for us does not reach it.
pub(crate) fn spawn(spec: &LaunchSpec) -> DesktopResult<(u32, Child)> {
    let path = resolve(&spec.program)?;
    let own = std::env::var(OWN_ENV).ok();
    let child = command(&path, spec, own.as_deref())
        .spawn()
        .map_err(|e| DesktopError::Launch { program: path.display().to_string(), message: e.to_string() })?;
    let pid = child
        .id()
        .ok_or_else(|| DesktopError::Launch { program: spec.program.clone(), message: "exited at once".into() })?;
    Ok((pid, child))
}

/// The command for `spec`, with the variables named in `own` (this process's own settings)
/// taken out of what it inherits; the spec's own variables still apply.
fn command(path: &Path, spec: &LaunchSpec, own: Option<&str>) -> Command {
    let mut cmd = Command::new(path);
    if let Some(own) = own {
        for name in own.split(',').filter(|n| !n.is_empty()).chain([OWN_ENV]) {
            cmd.env_remove(name);
        }
    }
    cmd.args(&spec.args)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .kill_on_drop(spec.kill_on_drop);
    if let Some(cwd) = &spec.cwd {
        cmd.current_dir(cwd);
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn a_launched_program_does_not_inherit_the_apps_own_settings() {
        let spec = LaunchSpec::new("sh").env("GDK_GL", "always");
        let cmd = command(Path::new("/bin/sh"), &spec, Some("JSC_useDFGJIT,GDK_GL"));
        let envs: Vec<(&OsStr, Option<&OsStr>)> = cmd.as_std().get_envs().collect();
        assert!(envs.contains(&(OsStr::new("JSC_useDFGJIT"), None)), "{envs:?}");
        assert!(envs.contains(&(OsStr::new(OWN_ENV), None)), "{envs:?}");
        // What the workflow sets for the program wins.
        assert!(envs.contains(&(OsStr::new("GDK_GL"), Some(OsStr::new("always")))), "{envs:?}");
        let plain = command(Path::new("/bin/sh"), &LaunchSpec::new("sh"), None);
        assert_eq!(plain.as_std().get_envs().count(), 0);
    }

    #[test]
    fn finds_programs_on_path_and_reports_where_it_looked() {
        assert!(resolve("sh").is_ok());
        match resolve("statewright-no-such-program") {
            Err(DesktopError::ProgramNotFound { program, searched }) => {
                assert_eq!(program, "statewright-no-such-program");
                assert!(!searched.is_empty());
            }
            other => panic!("expected ProgramNotFound, got {other:?}"),
        }
        let err = resolve("/nonexistent/bin/tool").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/bin/tool"), "{err}");
    }
}
