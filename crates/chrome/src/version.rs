//! The WebSocket URL of a DevTools endpoint given as `http(s)://host:port`: its
//! `/json/version` reply names it. Read here rather than by chromiumoxide, which reads the
//! whole reply whatever its size: an endpoint that never stops sending filled the memory.

use std::net::IpAddr;

use serde::Deserialize;

use crate::refusal::Refusal;

/// The largest `/json/version` reply read; Chromium's is about 500 bytes.
const MAX_VERSION_BYTES: usize = 64 * 1024;

#[derive(Deserialize)]
struct Version {
    #[serde(rename = "webSocketDebuggerUrl", default)]
    web_socket_debugger_url: String,
}

/// The browser's WebSocket URL from `url`'s `/json/version`. An endpoint behind a proxy
/// answers with its own loopback address, so `127.0.0.1` in it becomes the address that
/// answered, as chromiumoxide has it (bracketed when it is IPv6). The error says what was
/// wrong, without the URL.
pub(crate) async fn websocket_url(url: &str) -> Result<String, Refusal> {
    // A hosted browser's token stays in the query, after the path.
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let mut version = match base.trim_end_matches('/') {
        b if b.ends_with("/json/version") => b.to_owned(),
        b => format!("{b}/json/version"),
    };
    if let Some(query) = query {
        version = format!("{version}?{query}");
    }
    // Errors leave the URL out: it may carry a credential.
    let extra = match crate::tls::extra_authorities()? {
        Some(pem) => {
            reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| format!("no HTTP client: {}", cause(e)))?
        }
        None => Vec::new(),
    };
    let http = reqwest::Client::builder()
        .tls_certs_merge(extra)
        .build()
        .map_err(|e| format!("no HTTP client: {}", cause(e)))?;
    let mut response = http.get(version).send().await.map_err(|e| not_answered(url, e))?;
    if !response.status().is_success() {
        return Err(format!("its /json/version answered {}", response.status()).into());
    }
    let answered: Option<IpAddr> = response.remote_addr().map(|a| a.ip());
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| format!("the version reply broke off: {}", cause(e)))? {
        if body.len() + chunk.len() > MAX_VERSION_BYTES {
            return Err(format!("its /json/version reply is larger than {} KiB", MAX_VERSION_BYTES / 1024).into());
        }
        body.extend_from_slice(&chunk);
    }
    let version: Version =
        serde_json::from_slice(&body).map_err(|e| format!("its /json/version reply is not DevTools JSON: {e}"))?;
    let ws = match (version.web_socket_debugger_url, answered) {
        (ws, _) if ws.is_empty() => {
            return Err("its /json/version reply names no webSocketDebuggerUrl".to_owned().into());
        }
        (ws, Some(IpAddr::V4(ip))) => ws.replace("127.0.0.1", &ip.to_string()),
        (ws, Some(IpAddr::V6(ip))) => ws.replace("127.0.0.1", &format!("[{ip}]")),
        (ws, None) => ws,
    };
    Ok(over_tls_as_asked(url, ws))
}

/// `ws` as `wss://` when the version was asked over https of the same host and port: a
/// Chromium behind a TLS front names its WebSocket from the `Host` it was asked with, in
/// its own plain scheme, and the front speaks only TLS.
fn over_tls_as_asked(url: &str, ws: String) -> String {
    let same_place = crate::endpoint_address(url).ok() == crate::endpoint_address(&ws).ok();
    match ws.strip_prefix("ws://") {
        Some(rest) if same_place && url.get(..8).is_some_and(|s| s.eq_ignore_ascii_case("https://")) => {
            format!("wss://{rest}")
        }
        _ => ws,
    }
}

/// Why the version query had no answer: a certificate refused is a refusal of its own.
fn not_answered(url: &str, e: reqwest::Error) -> Refusal {
    let address = crate::endpoint_address(url).ok();
    let host = address.as_deref().map_or("the endpoint", crate::address::host_of);
    match crate::tls::refusal(host, &e) {
        untrusted @ Refusal::Untrusted(_) => untrusted,
        Refusal::Other(_) => Refusal::Other(format!("no version reply: {}", cause(e))),
    }
}

/// What went wrong at the bottom (a reset connection, a reply that is not HTTP), without
/// the URL reqwest's own message names.
fn cause(e: reqwest::Error) -> String {
    let e = e.without_url();
    let mut last: &dyn std::error::Error = &e;
    while let Some(source) = last.source() {
        last = source;
    }
    last.to_string()
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Write};

    use super::websocket_url;

    /// A loopback HTTP server that answers every request with `reply` (status line,
    /// headers and body, as sent); an empty `reply` means a body that never ends.
    fn serve(reply: &'static str) -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                std::thread::spawn(move || {
                    let mut line = String::new();
                    let mut reader = BufReader::new(&stream);
                    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                        line.clear();
                    }
                    let mut stream = &stream;
                    if reply.is_empty() {
                        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\n\r\n");
                        while stream.write_all(&[b' '; 8192]).is_ok() {}
                    } else {
                        let _ = stream.write_all(reply.as_bytes());
                    }
                });
            }
        });
        url
    }

    fn ok(body: &str) -> &'static str {
        format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len()).leak()
    }

    #[tokio::test]
    async fn the_websocket_url_comes_from_json_version() {
        let url =
            serve(ok(r#"{"Browser": "Chrome/140", "webSocketDebuggerUrl": "ws://127.0.0.1:9/devtools/browser/x"}"#));
        assert_eq!(websocket_url(&url).await.unwrap(), "ws://127.0.0.1:9/devtools/browser/x");
        let token = format!("{url}/?token=s3cret");
        assert_eq!(websocket_url(&token).await.unwrap(), "ws://127.0.0.1:9/devtools/browser/x");
    }

    #[tokio::test]
    async fn a_reply_that_is_not_a_devtools_version_says_what_is_wrong() {
        let cases = [
            (serve("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"), "answered 404"),
            (serve(ok("<html>hello</html>")), "not DevTools JSON"),
            (serve(ok(r#"{"Browser": "x"}"#)), "names no webSocketDebuggerUrl"),
            (serve("SSH-2.0-OpenSSH_9.2\r\n"), "no version reply"),
            (serve(""), "larger than 64 KiB"),
        ];
        for (url, expected) in cases {
            let with_token = format!("{url}?token=s3cret");
            let e = websocket_url(&with_token).await.unwrap_err().to_string();
            assert!(e.contains(expected), "{url}: {e}");
            assert!(!e.contains("s3cret"), "the token is not in the message: {e}");
        }
    }

    #[test]
    fn a_plain_websocket_named_by_a_tls_front_is_reached_over_tls() {
        use super::over_tls_as_asked as tls;
        let ws = || "ws://127.0.0.1:9443/devtools/browser/x".to_owned();
        assert_eq!(tls("https://127.0.0.1:9443", ws()), "wss://127.0.0.1:9443/devtools/browser/x");
        assert_eq!(tls("HTTPS://127.0.0.1:9443/json/version", ws()), "wss://127.0.0.1:9443/devtools/browser/x");
        // Asked in the clear, or named elsewhere, or already wss: as named.
        assert_eq!(tls("http://127.0.0.1:9443", ws()), ws());
        assert_eq!(tls("https://127.0.0.1:443", ws()), ws());
        let wss = "wss://grid.example/session/1?token=x".to_owned();
        assert_eq!(tls("https://grid.example", wss.clone()), wss);
    }
}
