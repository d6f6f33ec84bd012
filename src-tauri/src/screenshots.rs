//! The `shot:` protocol: screenshots from the runs folder's `screens/` (content-addressed
//! files written by the run store), and nothing else, so the window needs no file-system
//! permission to show them.

use std::path::{Component, Path};

use tauri::http::{Request, Response, StatusCode};
use tauri::{Manager, UriSchemeContext};

use crate::AppState;

/// `%2F` → `/` and so on (`convertFileSrc` encodes the whole path as one component).
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file under `runs_dir` that a request path names, if it is a screenshot there.
pub fn resolve(runs_dir: &Path, request_path: &str) -> Option<std::path::PathBuf> {
    let decoded = percent_decode(request_path)?;
    let relative = Path::new(decoded.trim_start_matches('/'));
    let plain = relative.components().all(|c| matches!(c, Component::Normal(_)));
    let allowed = relative.starts_with("screens")
        && matches!(relative.extension().and_then(|e| e.to_str()), Some("png" | "jpg" | "jpeg"));
    (plain && allowed).then(|| runs_dir.join(relative))
}

pub fn serve<R: tauri::Runtime>(ctx: UriSchemeContext<'_, R>, request: Request<Vec<u8>>) -> Response<Vec<u8>> {
    let state = ctx.app_handle().state::<AppState>();
    let path = resolve(&state.runs_dir, request.uri().path());
    respond(path)
}

/// The screenshot at `path` (the one a request named), or not found: a named pipe or a
/// device put there is not found either, rather than waited on or read without end.
fn respond(path: Option<std::path::PathBuf>) -> Response<Vec<u8>> {
    let found = path.and_then(|p| {
        let bytes = statewright_workflow::read_input_bytes(&p, "screenshot", statewright_workflow::MAX_WRITTEN_BYTES);
        bytes.ok().map(|bytes| (p, bytes))
    });
    match found {
        Some((p, bytes)) => {
            let mime = if p.extension().is_some_and(|e| e == "png") { "image/png" } else { "image/jpeg" };
            Response::builder()
                .header("Content-Type", mime)
                .header("Cache-Control", "max-age=31536000, immutable")
                .body(bytes)
                .expect("a static response")
        }
        None => Response::builder().status(StatusCode::NOT_FOUND).body(Vec::new()).expect("a static response"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serves_only_screenshots_inside_the_runs_folder() {
        let runs = Path::new("/r");
        assert_eq!(resolve(runs, "/screens/ab/abc.png"), Some("/r/screens/ab/abc.png".into()));
        assert_eq!(resolve(runs, "/screens/../statewright.db"), None, "no climbing out");
        assert_eq!(resolve(runs, "/statewright.db"), None, "only screens/");
        assert_eq!(resolve(runs, "/screens/ab/notes.txt"), None, "only images");
        assert_eq!(resolve(runs, "//etc/passwd.png"), None, "no absolute paths");
        assert_eq!(
            resolve(runs, "/screens%2Fab%2Fabc.png"),
            Some("/r/screens/ab/abc.png".into()),
            "as convertFileSrc encodes it"
        );
        assert_eq!(resolve(runs, "/screens%2F..%2F..%2Fx.png"), None, "encoded climbing too");
    }

    #[test]
    fn a_pipe_or_a_device_in_place_of_a_screenshot_is_not_found_at_once() {
        let runs = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(runs.path().join("screens/ab")).unwrap();
        let pipe = runs.path().join("screens/ab/pipe.png");
        assert!(std::process::Command::new("mkfifo").arg(&pipe).status().unwrap().success());
        std::os::unix::fs::symlink("/dev/zero", runs.path().join("screens/ab/zero.png")).unwrap();
        std::fs::write(runs.path().join("screens/ab/shot.png"), b"png").unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let root = runs.path().to_owned();
        std::thread::spawn(move || {
            let status = |name: &str| respond(resolve(&root, &format!("/screens/ab/{name}"))).status();
            tx.send([status("pipe.png"), status("zero.png"), status("shot.png")])
        });
        // Before, the pipe was waited on for ever.
        let statuses = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("answered within 20 s");
        assert_eq!(statuses, [StatusCode::NOT_FOUND, StatusCode::NOT_FOUND, StatusCode::OK]);
    }
}
