//! One chat-completions call over the OpenAI-compatible wire format (OpenAI, OpenRouter,
//! Ollama, llama.cpp's server, vLLM, LM Studio, Gemini's OpenAI endpoint): a system and a
//! user message, the image as a data-URL content part, structured output through
//! `response_format` where the server takes it. Bounded in time, retried with backoff on
//! 429 and 5xx (honouring `Retry-After`), and accounted: tokens, latency and cost.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use base64::Engine;
use serde::Serialize;
use serde_json::{Value, json};

use crate::config::{LlmConfig, authorities};
use crate::wire;

/// What to ask.
#[derive(Debug, Clone)]
pub struct ChatRequest {
    pub system: String,
    pub user: String,
    /// Images shown with the user message, in order (JPEG, PNG or WebP).
    pub images: Vec<Vec<u8>>,
    /// A JSON Schema for the answer (`response_format: json_schema`), where supported.
    pub schema: Option<(String, Value)>,
}

/// What came back, and what it cost.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ChatReply {
    pub content: String,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub latency_ms: u64,
    /// US dollars, from the configured prices.
    pub cost: f64,
    /// Attempts made (1 = no retry).
    pub attempts: u32,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("the model at {url} cannot be reached: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("the model at {url} did not answer within {seconds} s")]
    Timeout { url: String, seconds: f64 },
    /// 401 or 403, with the server's reason: a 403 is as often a model the key may not use
    /// or a region refused as a wrong key.
    #[error("the model at {url} refused the key (HTTP {status}: {body}): check STATEWRIGHT_LLM_API_KEY")]
    Auth { url: String, status: u16, body: String },
    /// A model the server does not have, or a base URL without its `/v1` (Ollama's own
    /// API is at the root).
    #[error(
        "the model server at {url} answered HTTP 404 (not found): {body} (check the model's name, and that the URL \
         is the OpenAI-compatible base, usually ending in /v1, e.g. http://127.0.0.1:11434/v1)"
    )]
    NotFound { url: String, body: String },
    #[error("the model at {url} answered HTTP {status}: {body}")]
    Http { url: String, status: u16, body: String },
    /// 429 until the retries or the call's time ran out.
    #[error("the model at {url} is rate limiting the calls (HTTP 429: {body}); {why}")]
    RateLimited { url: String, body: String, why: String },
    #[error("the model at {url} answered something that is not a chat completion: {reason}")]
    BadReply { url: String, reason: String },
    /// The secure connection failed: an untrusted or mismatched certificate, or a server
    /// that does not speak TLS. Not retried: it would fail the same way.
    #[error(
        "the TLS connection to the model at {url} failed: {reason} (a server behind a private certificate \
         authority needs its PEM file in STATEWRIGHT_LLM_CA_CERT or `ca_cert` in llm.json)"
    )]
    Tls { url: String, reason: String },
    #[error("{0}")]
    CaCert(String),
}

/// The longest `Retry-After` honoured; a server asking for more is treated as failing (its
/// error is the call's at once, rather than a retry that would be refused again).
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);
/// The largest reply read: a chat completion is a few KB, a long one with reasoning a few
/// hundred.
const MAX_REPLY_BYTES: usize = 16 << 20;
/// The most of an error body kept for the message.
const MAX_BODY_CHARS: usize = 300;

pub struct Client {
    config: LlmConfig,
    http: reqwest::Client,
    /// The optional fields the endpoint has not refused. A refusal is remembered for every
    /// later call of this client: asking with the field first would cost a request each time.
    accepted: Mutex<Optional>,
}

impl Client {
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        let extra = match &config.ca_cert {
            Some(path) => authorities(path).map_err(|e| LlmError::CaCert(e.to_string()))?,
            None => Vec::new(),
        };
        // No overall timeout here: each attempt gets what is left of the call's budget.
        let http = reqwest::Client::builder()
            .tls_certs_merge(extra)
            .connect_timeout(Duration::from_secs(10).min(config.timeout))
            .build()
            .map_err(|e| LlmError::Unreachable { url: config.url.clone(), reason: e.to_string() })?;
        let accepted = Mutex::new(Optional { structured: true, temperature: true });
        Ok(Self { config, http, accepted })
    }

    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// The request body, as sent (the image inline), with the optional fields in `sent`.
    fn body(&self, request: &ChatRequest, sent: Optional) -> Value {
        let mut user: Vec<Value> = vec![json!({ "type": "text", "text": request.user })];
        for image in request.images.iter().filter(|_| self.config.vision) {
            let mime = match image.as_slice() {
                [0x89, b'P', b'N', b'G', ..] => "image/png",
                [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => "image/webp",
                _ => "image/jpeg",
            };
            let data = base64::engine::general_purpose::STANDARD.encode(image);
            user.push(json!({ "type": "image_url", "image_url": { "url": format!("data:{mime};base64,{data}") } }));
        }
        let mut body = json!({
            "model": self.config.model,
            "messages": [
                { "role": "system", "content": request.system },
                { "role": "user", "content": user },
            ],
            "stream": false,
        });
        if sent.temperature {
            body["temperature"] = json!(0);
        }
        if sent.structured
            && let Some((name, schema)) = &request.schema
        {
            body["response_format"] =
                json!({ "type": "json_schema", "json_schema": { "name": name, "schema": schema, "strict": false } });
        }
        body
    }

    /// One call, retried on 429, 5xx and dropped connections; a server that rejects an
    /// optional field (`response_format`; `temperature`, which reasoning models such as
    /// OpenAI's o-series only take at its default) is asked again without it, and not sent
    /// it again. The whole call, retries and waits included, stays within `timeout`.
    pub async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        self.call(request).await.map_err(|e| e.masked(self.config.api_key.as_deref()))
    }

    async fn call(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        let url = format!("{}/chat/completions", self.config.url);
        let began = Instant::now();
        let accepted = *self.accepted.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut sent =
            Optional { structured: request.schema.is_some() && accepted.structured, temperature: accepted.temperature };
        let mut attempts = 0;
        let mut retries_left = self.config.retries;
        loop {
            // Each attempt gets only what is left of the budget.
            let left = self.config.timeout.saturating_sub(began.elapsed());
            if left.is_zero() {
                return Err(self.timed_out());
            }
            attempts += 1;
            let outcome = self.attempt(&url, &self.body(request, sent), left).await;
            let (error, wait) = match outcome {
                Ok(value) => {
                    let mut reply = self.reply(&value)?;
                    reply.latency_ms = began.elapsed().as_millis() as u64;
                    reply.attempts = attempts;
                    return Ok(reply);
                }
                Err(Attempt::Fatal(e)) => return Err(e),
                Err(Attempt::Refused(e, body)) => match sent.without_refused(&body) {
                    Some(fewer) => {
                        tracing::info!("the model server refused an optional field; asking again without it: {body}");
                        self.remember_refused(sent, fewer);
                        sent = fewer;
                        continue;
                    }
                    None => return Err(e),
                },
                Err(Attempt::Retry(e, after)) => {
                    let wait = after.unwrap_or_else(|| backoff(attempts));
                    (e, wait)
                }
            };
            if retries_left == 0 {
                return Err(gave_up(error, format!("still so after {attempts} attempts")));
            }
            retries_left -= 1;
            // Never past the call's own time budget: the last answer is the call's error (a
            // rate limit says so, rather than passing for a model too slow to answer).
            let left = self.config.timeout.saturating_sub(began.elapsed());
            if wait >= left {
                let seconds = self.config.timeout.as_secs_f64();
                return Err(gave_up(error, format!("waiting {wait:.1?} more would outlast the call's {seconds} s")));
            }
            tracing::info!("the model is busy or failing; trying again in {wait:?}");
            tokio::time::sleep(wait).await;
        }
    }

    fn timed_out(&self) -> LlmError {
        LlmError::Timeout { url: self.config.url.clone(), seconds: self.config.timeout.as_secs_f64() }
    }

    /// Keeps for later calls that the endpoint refused what `sent` had and `fewer` drops.
    fn remember_refused(&self, sent: Optional, fewer: Optional) {
        let mut accepted = self.accepted.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // What was sent and is dropped now was refused.
        accepted.structured &= !sent.structured || fewer.structured;
        accepted.temperature &= !sent.temperature || fewer.temperature;
    }

    async fn attempt(&self, url: &str, body: &Value, left: Duration) -> Result<Value, Attempt> {
        let base = || self.config.url.clone();
        let mut post = self.http.post(url).json(body).timeout(left);
        if let Some(key) = &self.config.api_key {
            post = post.bearer_auth(key);
        }
        let response = match post.send().await {
            Ok(r) => r,
            Err(e) if e.is_timeout() => return Err(Attempt::Fatal(self.timed_out())),
            Err(e) if causes(&e).any(|c| c.is::<rustls::Error>()) => {
                return Err(Attempt::Fatal(LlmError::Tls { url: base(), reason: root_cause(&e) }));
            }
            Err(e) => return Err(Attempt::Retry(LlmError::Unreachable { url: base(), reason: root_cause(&e) }, None)),
        };
        let status = response.status().as_u16();
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let retry_after = header("retry-after").and_then(|v| wire::retry_after(&v, SystemTime::now()));
        let (encoding, kind) = (header("content-encoding"), header("content-type").unwrap_or_default());
        // Masked before anything is cut from it or quoted: a key cut in half is still half a key.
        let text = wire::mask(&self.read_capped(response).await?, self.config.api_key.as_deref());
        let body: String = text.chars().take(MAX_BODY_CHARS).collect();
        match status {
            200..=299 => self.completion(&text, encoding.as_deref(), &kind).map_err(Attempt::Fatal),
            401 | 403 => Err(Attempt::Fatal(LlmError::Auth { url: base(), status, body })),
            404 => Err(Attempt::Fatal(LlmError::NotFound { url: base(), body })),
            400 | 422 => Err(Attempt::Refused(LlmError::Http { url: base(), status, body: body.clone() }, text)),
            429 | 500..=599 => {
                let error = match status {
                    429 => LlmError::RateLimited { url: base(), body, why: String::new() },
                    _ => LlmError::Http { url: base(), status, body },
                };
                match retry_after {
                    Some(after) if after > MAX_RETRY_AFTER => Err(Attempt::Fatal(gave_up(
                        error,
                        format!("it asks to wait {after:.0?}, longer than the {MAX_RETRY_AFTER:?} honoured"),
                    ))),
                    after => Err(Attempt::Retry(error, after)),
                }
            }
            _ => Err(Attempt::Fatal(LlmError::Http { url: base(), status, body })),
        }
    }

    /// A 2xx body as a chat completion: JSON, or the event stream of a server that streams
    /// although `stream: false` was asked (its deltas joined); a compressed body (none is
    /// asked for) or anything else is a bad reply saying what was sent.
    fn completion(&self, text: &str, encoding: Option<&str>, kind: &str) -> Result<Value, LlmError> {
        let bad = |reason: String| LlmError::BadReply { url: self.config.url.clone(), reason };
        let encoding = encoding.map(str::trim).filter(|e| !e.is_empty() && !e.eq_ignore_ascii_case("identity"));
        if encoding.is_some() || text.starts_with('\u{1f}') {
            let said = encoding.unwrap_or("gzip");
            return Err(bad(format!(
                "the body is compressed ({said}) though no compression was asked for: turn it off in the server \
                 or proxy"
            )));
        }
        if let Ok(value) = serde_json::from_str(text) {
            return Ok(value);
        }
        if kind.contains("text/event-stream") || text.trim_start().starts_with("data:") {
            return wire::from_event_stream(text).ok_or_else(|| {
                bad("an event stream (as for `stream: true`) whose events are not chat-completion chunks".into())
            });
        }
        let shown: String = text.chars().take(MAX_BODY_CHARS).collect();
        let e = serde_json::from_str::<Value>(text).err().map(|e| e.to_string()).unwrap_or_default();
        Err(bad(format!("invalid JSON ({e}): {shown:?}")))
    }

    /// The reply's body, up to `MAX_REPLY_BYTES`: a server that sends more (one that never
    /// stops) is cut off there rather than filling the memory until the timeout.
    async fn read_capped(&self, mut response: reqwest::Response) -> Result<String, Attempt> {
        let base = || self.config.url.clone();
        let too_large = || {
            Attempt::Fatal(LlmError::BadReply {
                url: base(),
                reason: format!(
                    "the reply is larger than {} MiB; a chat completion is a few KB",
                    MAX_REPLY_BYTES >> 20
                ),
            })
        };
        if response.content_length().is_some_and(|n| n > MAX_REPLY_BYTES as u64) {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) if bytes.len() + chunk.len() > MAX_REPLY_BYTES => return Err(too_large()),
                Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
                Ok(None) => return Ok(String::from_utf8_lossy(&bytes).into_owned()),
                Err(e) if e.is_timeout() => return Err(Attempt::Fatal(self.timed_out())),
                Err(e) => {
                    return Err(Attempt::Retry(LlmError::Unreachable { url: base(), reason: root_cause(&e) }, None));
                }
            }
        }
    }

    /// The content and usage of a chat completion (OpenAI, Ollama and llama.cpp agree on
    /// `choices[0].message.content` and `usage`; some put content in parts).
    fn reply(&self, value: &Value) -> Result<ChatReply, LlmError> {
        let bad = |reason: &str| LlmError::BadReply { url: self.config.url.clone(), reason: reason.to_owned() };
        // A proxy or gateway may say what went wrong with a 200.
        if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
            let said = error.get("message").and_then(Value::as_str).map_or_else(|| error.to_string(), str::to_owned);
            let said: String = said.chars().take(MAX_BODY_CHARS).collect();
            return Err(bad(&format!("the server answered with an error: {said}")));
        }
        let message = value.pointer("/choices/0/message").ok_or_else(|| bad("no choices[0].message"))?;
        // Some servers put a structured answer in `tool_calls`, or say no in `refusal`.
        let content = match wire::answer_of(message) {
            Some(content) => content,
            None => match message.get("refusal").and_then(Value::as_str) {
                Some(refusal) => return Err(bad(&format!("the model refused: {refusal}"))),
                None => return Err(bad(&no_content(value, message))),
            },
        };
        let usage = |k: &str| wire::tokens(value.pointer(&format!("/usage/{k}")));
        let (prompt_tokens, completion_tokens) = (usage("prompt_tokens"), usage("completion_tokens"));
        let cost = (prompt_tokens as f64 * self.config.input_price
            + completion_tokens as f64 * self.config.output_price)
            / 1_000_000.0;
        Ok(ChatReply { content, prompt_tokens, completion_tokens, latency_ms: 0, cost, attempts: 1 })
    }
}

/// Why a message has no content, as far as the reply tells: a reasoning model (vLLM's and
/// DeepSeek's `reasoning_content`) that spent its tokens thinking says so.
fn no_content(value: &Value, message: &Value) -> String {
    let cut = value.pointer("/choices/0/finish_reason").and_then(Value::as_str) == Some("length");
    let reasoned = ["reasoning_content", "reasoning"].iter().any(|k| message.get(*k).is_some_and(|r| !r.is_null()));
    match (cut, reasoned) {
        (true, true) => "the model spent its token limit reasoning and gave no answer: raise its token limit".into(),
        (true, false) => "the reply was cut off at the token limit before any answer: raise its token limit".into(),
        (false, true) => "the model reasoned but gave no answer".into(),
        (false, false) => "the message has no content".into(),
    }
}

/// The last answer of a call given up on, saying why it was not tried again.
fn gave_up(error: LlmError, why: String) -> LlmError {
    match error {
        LlmError::RateLimited { url, body, .. } => LlmError::RateLimited { url, body, why },
        other => other,
    }
}

impl LlmError {
    /// The same error with the key masked wherever a server's words quote it.
    fn masked(self, key: Option<&str>) -> Self {
        let m = |text: String| wire::mask(&text, key);
        match self {
            Self::Unreachable { url, reason } => Self::Unreachable { url, reason: m(reason) },
            Self::Auth { url, status, body } => Self::Auth { url, status, body: m(body) },
            Self::NotFound { url, body } => Self::NotFound { url, body: m(body) },
            Self::Http { url, status, body } => Self::Http { url, status, body: m(body) },
            Self::RateLimited { url, body, why } => Self::RateLimited { url, body: m(body), why },
            Self::BadReply { url, reason } => Self::BadReply { url, reason: m(reason) },
            Self::Tls { url, reason } => Self::Tls { url, reason: m(reason) },
            other @ (Self::Timeout { .. } | Self::CaCert(_)) => other,
        }
    }
}

enum Attempt {
    Retry(LlmError, Option<Duration>),
    /// A 400 or 422, with the whole body: it may name an optional field the server refuses.
    Refused(LlmError, String),
    Fatal(LlmError),
}

/// The optional fields of a request, each sent until the server refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Optional {
    /// `response_format` with the answer's JSON Schema (where the request has one).
    structured: bool,
    /// `temperature: 0`, for answers as repeatable as the model allows.
    temperature: bool,
}

impl Optional {
    /// These fields less the one a refusal names, or `None` when it names none still sent
    /// (a refusal for another reason).
    fn without_refused(self, body: &str) -> Option<Self> {
        if self.structured && (body.contains("response_format") || body.contains("json_schema")) {
            return Some(Self { structured: false, ..self });
        }
        if self.temperature && body.contains("temperature") {
            return Some(Self { temperature: false, ..self });
        }
        None
    }
}

/// 0.5 s, 1 s, 2 s, … capped at 8 s.
fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(500u64 << attempt.saturating_sub(1).min(4)).min(Duration::from_secs(8))
}

type Cause<'a> = &'a (dyn std::error::Error + 'static);

/// An error and what caused it, outermost first. An `io::Error` wrapping another error is
/// looked into: its `source()` skips the wrapped error itself (where rustls puts its own).
fn causes(e: Cause<'_>) -> impl Iterator<Item = Cause<'_>> {
    std::iter::successors(Some(e), |&cause| match cause.downcast_ref::<std::io::Error>() {
        Some(io) => io.get_ref().map(|inner| inner as Cause<'_>),
        None => cause.source(),
    })
}

/// The innermost error's text: "connection refused" rather than "error sending request".
fn root_cause(e: Cause<'_>) -> String {
    causes(e).last().map(|c| c.to_string()).unwrap_or_default()
}
