//! Serves Statewright's bundled demo site (embedded at build time), or any folder, over
//! HTTP on loopback. The demo workflow, the integration tests and the benchmark all run
//! against it, with no network.

use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, Response, StatusCode, Uri, header};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/site.rs"));
}

/// What to serve.
#[derive(Debug, Clone)]
pub enum Site {
    /// The demo site compiled into the binary.
    Demo,
    /// A folder on disk (test fixtures).
    Dir(PathBuf),
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
    let body = match &site {
        Site::Demo => embedded::FILES.iter().find(|(p, _)| *p == path).map(|(_, bytes)| bytes.to_vec()),
        Site::Dir(root) => match safe_join(root, &path) {
            Some(file) => tokio::fs::read(file).await.ok(),
            None => None,
        },
    };
    match body {
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
