//! The WebSocket URL of a DevTools endpoint given as `http(s)://host:port`: its
//! `/json/version` reply names it. Read here rather than by chromiumoxide, which reads the
//! whole reply whatever its size: an endpoint that never stops sending filled the memory.

use std::net::IpAddr;

use serde::Deserialize;

/// The largest `/json/version` reply read; Chromium's is about 500 bytes.
const MAX_VERSION_BYTES: usize = 64 * 1024;

#[derive(Deserialize)]
struct Version {
    #[serde(rename = "webSocketDebuggerUrl", default)]
    web_socket_debugger_url: String,
}

/// The browser's WebSocket URL from `url`'s `/json/version`. An endpoint behind a proxy
/// answers with its own loopback address, so `127.0.0.1` in it becomes the address that
/// answered, as chromiumoxide has it. The error says what was wrong, without the URL.
pub(crate) async fn websocket_url(url: &str) -> Result<String, String> {
    // A hosted browser's token stays in the query, after the path.
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let mut version = match base.trim_end_matches('/') {
        b if b.ends_with("/json/version") => b.to_owned(),
        b => format!("{b}/json/version"),
    };
    if let Some(query) = query {
        version = format!("{version}?{query}");
    }
    let mut response =
        reqwest::Client::new().get(version).send().await.map_err(|e| format!("no version reply: {e}"))?;
    if !response.status().is_success() {
        return Err(format!("its /json/version answered {}", response.status()));
    }
    let answered: Option<IpAddr> = response.remote_addr().map(|a| a.ip());
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| format!("the version reply broke off: {e}"))? {
        if body.len() + chunk.len() > MAX_VERSION_BYTES {
            return Err(format!("its /json/version reply is larger than {} KiB", MAX_VERSION_BYTES / 1024));
        }
        body.extend_from_slice(&chunk);
    }
    let version: Version =
        serde_json::from_slice(&body).map_err(|e| format!("its /json/version reply is not DevTools JSON: {e}"))?;
    match (version.web_socket_debugger_url, answered) {
        (ws, _) if ws.is_empty() => Err("its /json/version reply names no webSocketDebuggerUrl".to_owned()),
        (ws, Some(ip)) => Ok(ws.replace("127.0.0.1", &ip.to_string())),
        (ws, None) => Ok(ws),
    }
}
