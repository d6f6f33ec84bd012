//! Serves Statewright's bundled demo site (embedded at build time), or any folder, over
//! HTTP on loopback, optionally with text rewrites applied (a drifted copy, for healing and
//! review tests). The demo workflow, the integration tests and the benchmark all run
//! against it, with no network.

use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, Response, StatusCode, Uri, header};
use statewright_workflow::{MAX_INPUT_BYTES, read_input_bytes};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/site.rs"));
}
mod rewrite;

pub use rewrite::{Rewrite, SiteError, load_rules};

/// What to serve.
#[derive(Debug, Clone)]
pub enum Site {
    /// The demo site compiled into the binary.
    Demo,
    /// A folder on disk (test fixtures).
    Dir(PathBuf),
    /// Another site with text rewrites applied to its html, js and css; built by
    /// [`Site::rewritten`] or [`Site::drifted`], which check every rule matches.
    Rewritten(Rewritten),
}

/// A site seen through rewrites. The base is never itself rewritten (rules are merged).
#[derive(Debug, Clone)]
pub struct Rewritten {
    base: Box<Site>,
    rules: Vec<Rewrite>,
}

impl Site {
    /// `base` with `rules` applied in order to its html, js and css. Fails if a rule matches
    /// nothing (after the rules before it), so a drift cannot silently stop applying.
    pub fn rewritten(base: Site, rules: Vec<Rewrite>) -> Result<Site, SiteError> {
        let (base, rules) = match base {
            Site::Rewritten(inner) => (*inner.base, [inner.rules, rules].concat()),
            plain => (plain, rules),
        };
        rewrite::check(&rules, base.text_files()?)?;
        Ok(Site::Rewritten(Rewritten { base: Box::new(base), rules }))
    }

    /// The folder at `path` (links followed), served as it is: what is not a folder (a file
    /// given by mistake, a path with nothing at it) is refused here, where it would
    /// otherwise answer every page with 404.
    pub fn folder(path: &Path) -> Result<Site, SiteError> {
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Ok(Site::Dir(path.to_owned()));
        }
        let message = match statewright_workflow::what_is_at(path) {
            nothing if nothing == "nothing" => format!("{}: there is no folder here to serve", path.display()),
            what => format!("{} is {what}, not a folder to serve", path.display()),
        };
        Err(SiteError::Read { path: path.to_owned(), message })
    }

    /// `base` with the rules of the drift file at `path` applied.
    pub fn drifted(base: Site, path: &Path) -> Result<Site, SiteError> {
        Site::rewritten(base, load_rules(path)?)
    }

    /// The text of every file that rewrites apply to.
    fn text_files(&self) -> Result<Vec<String>, SiteError> {
        match self {
            Site::Demo => Ok(embedded::FILES
                .iter()
                .filter(|(path, _)| rewrite::is_rewritten(path))
                .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
                .collect()),
            Site::Dir(root) => {
                let mut files = Vec::new();
                collect_text_files(root, &mut files)?;
                Ok(files)
            }
            Site::Rewritten(r) => Ok(r.base.text_files()?.iter().map(|text| rewrite::apply(&r.rules, text)).collect()),
        }
    }
}

fn collect_text_files(dir: &Path, files: &mut Vec<String>) -> Result<(), SiteError> {
    let read_error = |e: std::io::Error| SiteError::Read {
        path: dir.to_owned(),
        message: format!("cannot read {}: {e}", dir.display()),
    };
    for entry in std::fs::read_dir(dir).map_err(read_error)? {
        let path = entry.map_err(read_error)?.path();
        if path.is_dir() {
            collect_text_files(&path, files)?;
        } else if rewrite::is_rewritten(&path.to_string_lossy()) {
            // Bounded as every input file is read: a pipe in the folder is refused, not waited on.
            let bytes = read_input_bytes(&path, "site file", MAX_INPUT_BYTES).map_err(|e| SiteError::Read {
                message: format!("{}: {}", path.display(), e.message),
                path: path.clone(),
            })?;
            files.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    Ok(())
}

/// A running server; it stops when dropped.
pub struct SiteServer {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl SiteServer {
    /// Serves `site` on 127.0.0.1:`port` (0 picks a free port).
    pub async fn start(site: Site, port: u16) -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
        let app = Router::new().fallback(serve).with_state(site);
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let server = axum::serve(listener, app).with_graceful_shutdown(async {
                let _ = stopped.await;
            });
            if let Err(e) = server.await {
                tracing::warn!("site server stopped: {e}");
            }
        });
        Ok(Self { addr, stop: Some(stop), task })
    }

    /// The base URL, without a trailing slash: `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Serves until the process is stopped.
    pub async fn wait(mut self) {
        let task = std::mem::replace(&mut self.task, tokio::spawn(async {}));
        let _ = task.await;
    }
}

impl Drop for SiteServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn serve(State(site): State<Site>, uri: Uri) -> Response<Body> {
    let mut path = uri.path().to_owned();
    if path.ends_with('/') {
        path.push_str("index.html");
    }
    match read(&site, &path).await {
        Some(bytes) => {
            let mut response = Response::new(Body::from(bytes));
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type(&path)));
            // Every visit should see the site's randomness afresh, never a cached copy.
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        None => {
            let mut response = Response::new(Body::from("not found"));
            *response.status_mut() = StatusCode::NOT_FOUND;
            response
        }
    }
}

/// The bytes served for `path`.
async fn read(site: &Site, path: &str) -> Option<Vec<u8>> {
    match site {
        Site::Demo => embedded::FILES.iter().find(|(p, _)| *p == path).map(|(_, bytes)| bytes.to_vec()),
        // A pipe or a device in the folder is not found, rather than a request that never
        // ends or a read without end.
        Site::Dir(root) => match safe_join(root, path) {
            Some(file) => {
                tokio::task::spawn_blocking(move || read_input_bytes(&file, "site file", MAX_INPUT_BYTES).ok())
                    .await
                    .ok()
                    .flatten()
            }
            None => None,
        },
        Site::Rewritten(r) => {
            // Box::pin: the base is one level down at most, but async recursion needs a box.
            let bytes = Box::pin(read(&r.base, path)).await?;
            if !rewrite::is_rewritten(path) {
                return Some(bytes);
            }
            match String::from_utf8(bytes) {
                Ok(text) => Some(rewrite::apply(&r.rules, &text).into_bytes()),
                Err(e) => Some(e.into_bytes()),
            }
        }
    }
}

/// Joins a URL path onto `root`, refusing anything that would leave it.
fn safe_join(root: &Path, path: &str) -> Option<PathBuf> {
    let mut out = root.to_path_buf();
    for component in Path::new(path.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_cannot_escape_the_root() {
        let root = Path::new("/srv/site");
        assert_eq!(safe_join(root, "/a/b.html"), Some(PathBuf::from("/srv/site/a/b.html")));
        assert_eq!(safe_join(root, "/../etc/passwd"), None);
        assert_eq!(safe_join(root, "/a/../../x"), None);
    }

    #[test]
    fn the_demo_site_is_embedded() {
        assert!(
            embedded::FILES.iter().any(|(p, _)| *p == "/index.html"),
            "assets/demo-site/index.html must be embedded"
        );
    }
}
