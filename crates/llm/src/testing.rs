//! A scripted OpenAI-compatible server on loopback, for tests: replies chosen by rules over
//! the request, every request recorded; it can be slow, answer 429 with `Retry-After`, 500,
//! truncated JSON, prose around JSON, any raw body, or one that never ends. Over plain
//! HTTP, or over TLS with a given certificate (a hosted API, a private certificate
//! authority).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

/// What the server answers.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A chat completion whose message content is this text (usage: 100 + 20 tokens).
    Content(String),
    /// An HTTP error, with `Retry-After` seconds when given.
    Status { code: u16, retry_after: Option<u64>, body: String },
    /// The reply after a delay.
    Slow(Duration, Box<Reply>),
    /// This body, as is, with status 200 (wire-format fixtures, garbage).
    Raw(String),
    /// Status 200 and a body that never ends, sent as fast as the client reads it.
    Endless,
    /// Any status, headers and body (a `Retry-After` date, a compressed or streamed body).
    With { code: u16, headers: Vec<(&'static str, String)>, body: String },
}

impl Reply {
    pub fn content(text: impl Into<String>) -> Self {
        Self::Content(text.into())
    }

    pub fn json(value: Value) -> Self {
        Self::Content(value.to_string())
    }
}

type Matcher = Box<dyn Fn(&Value) -> bool + Send + Sync>;
type Responder = Box<dyn Fn(&Value) -> Reply + Send + Sync>;

/// One rule: when `matches` the request, answer with `reply` of it, at most `times` times.
pub struct Rule {
    matches: Matcher,
    reply: Responder,
    times: Option<usize>,
}

impl Rule {
    pub fn always(reply: Reply) -> Self {
        Self { matches: Box::new(|_| true), reply: Box::new(move |_| reply.clone()), times: None }
    }

    /// When the request's text (all messages) contains `needle`.
    pub fn when_text(needle: &str, reply: Reply) -> Self {
        Self::respond(needle, move |_| reply.clone())
    }

    /// When the request's text contains `needle`, the reply `answer` makes of the request.
    pub fn respond(needle: &str, answer: impl Fn(&Value) -> Reply + Send + Sync + 'static) -> Self {
        let needle = needle.to_owned();
        Self { matches: Box::new(move |r| request_text(r).contains(&needle)), reply: Box::new(answer), times: None }
    }

    /// At most `n` times, then the next rule.
    pub fn times(mut self, n: usize) -> Self {
        self.times = Some(n);
        self
    }
}

/// The text of every message of a request, joined.
pub fn request_text(request: &Value) -> String {
    let mut text = String::new();
    for m in request["messages"].as_array().into_iter().flatten() {
        match &m["content"] {
            Value::String(s) => text.push_str(s),
            Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).for_each(|t| text.push_str(t)),
            _ => {}
        }
        text.push('\n');
    }
    text
}

struct Shared {
    rules: Mutex<Vec<Rule>>,
    requests: Mutex<Vec<Value>>,
}

pub struct ScriptedModel {
    addr: SocketAddr,
    scheme: &'static str,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl ScriptedModel {
    pub async fn start(rules: Vec<Rule>) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
        Self::serve(listener, "http", rules)
    }

    /// The same over TLS, with this certificate chain and PKCS#8 key (PEM).
    pub async fn start_tls(rules: Vec<Rule>, chain_pem: &[u8], key_pem: &[u8]) -> Self {
        use tokio_rustls::rustls::pki_types::pem::PemObject;
        use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let chain = CertificateDer::pem_slice_iter(chain_pem).collect::<Result<Vec<_>, _>>().expect("certificates");
        let key = PrivateKeyDer::from_pem_slice(key_pem).expect("a private key");
        let provider = Arc::new(tokio_rustls::rustls::crypto::aws_lc_rs::default_provider());
        let config = tokio_rustls::rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("protocol versions")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("certificate and key");
        let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
        Self::serve(TlsListener { tcp, acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(config)) }, "https", rules)
    }

    fn serve<L>(listener: L, scheme: &'static str, rules: Vec<Rule>) -> Self
    where
        L: axum::serve::Listener<Addr = SocketAddr>,
    {
        let shared = Arc::new(Shared { rules: Mutex::new(rules), requests: Mutex::new(Vec::new()) });
        let app = Router::new().route("/v1/chat/completions", post(answer)).with_state(shared.clone());
        let addr = listener.local_addr().expect("local address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { addr, scheme, shared, task }
    }

    /// The base URL to configure (`…/v1`).
    pub fn url(&self) -> String {
        format!("{}://{}/v1", self.scheme, self.addr)
    }

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.shared.requests.lock().expect("requests lock").clone()
    }
}

impl Drop for ScriptedModel {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Connections that have completed a TLS handshake; one that fails (the client refused the
/// certificate) or stalls is dropped and the next accepted.
struct TlsListener {
    tcp: tokio::net::TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.tcp.accept().await else { continue };
            let handshake = tokio::time::timeout(Duration::from_secs(5), self.acceptor.accept(tcp)).await;
            if let Ok(Ok(tls)) = handshake {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

async fn answer(State(shared): State<Arc<Shared>>, body: String) -> Response {
    let request: Value = serde_json::from_str(&body).unwrap_or(Value::String(body));
    shared.requests.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(request.clone());
    // A rule that panics answers 500 and leaves the server serving: it must not poison the
    // lock, or every later call would find its connection closed and the test hang instead.
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut rules = shared.rules.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let found = rules.iter_mut().find(|r| r.times != Some(0) && (r.matches)(&request));
        match found {
            Some(rule) => {
                if let Some(n) = rule.times.as_mut() {
                    *n -= 1;
                }
                (rule.reply)(&request)
            }
            None => Reply::Status { code: 500, retry_after: None, body: "no rule matched".into() },
        }
    }))
    .unwrap_or_else(|_| Reply::Status { code: 500, retry_after: None, body: "a scripted rule panicked".into() });
    respond(reply).await
}

async fn respond(mut reply: Reply) -> Response {
    loop {
        match reply {
            Reply::Slow(delay, inner) => {
                tokio::time::sleep(delay).await;
                reply = *inner;
            }
            Reply::Content(text) => {
                let body = json!({
                    "id": "chatcmpl-scripted",
                    "object": "chat.completion",
                    "model": "scripted",
                    "choices": [{ "index": 0, "message": { "role": "assistant", "content": text }, "finish_reason": "stop" }],
                    "usage": { "prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120 }
                });
                return (StatusCode::OK, [("content-type", "application/json")], body.to_string()).into_response();
            }
            Reply::Raw(body) => return (StatusCode::OK, [("content-type", "application/json")], body).into_response(),
            Reply::Endless => {
                let chunk = axum::body::Bytes::from(vec![b' '; 64 * 1024]);
                let body = axum::body::Body::from_stream(futures::stream::repeat_with(move || {
                    Ok::<_, std::io::Error>(chunk.clone())
                }));
                return (StatusCode::OK, [("content-type", "application/json")], body).into_response();
            }
            Reply::With { code, headers, body } => {
                let mut response = (StatusCode::from_u16(code).expect("a status"), body).into_response();
                for (name, value) in headers {
                    response.headers_mut().insert(name, value.parse().expect("a header value"));
                }
                return response;
            }
            Reply::Status { code, retry_after, body } => {
                let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                let mut response = (status, body).into_response();
                if let Some(seconds) = retry_after {
                    response.headers_mut().insert("retry-after", seconds.to_string().parse().expect("a number"));
                }
                return response;
            }
        }
    }
}
