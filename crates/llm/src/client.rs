//! One chat-completions call over the OpenAI-compatible wire format (OpenAI, OpenRouter,
//! Ollama, llama.cpp's server, vLLM, LM Studio, Gemini's OpenAI endpoint): a system and a
//! user message, the image as a data-URL content part, structured output through
//! `response_format` where the server takes it. Bounded in time, retried with backoff on
//! 429 and 5xx (honouring `Retry-After`), and accounted: tokens, latency and cost.

use std::time::{Duration, Instant};

use base64::Engine;
use serde::Serialize;
use serde_json::{Value, json};

use crate::config::{LlmConfig, authorities};

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
    #[error("the model at {url} refused the key (HTTP {status}): check STATEWRIGHT_LLM_API_KEY")]
    Auth { url: String, status: u16 },
    /// A model the server does not have, or a base URL without its `/v1` (Ollama's own
    /// API is at the root).
    #[error(
        "the model server at {url} answered HTTP 404 (not found): {body} (check the model's name, and that the URL \
         is the OpenAI-compatible base, usually ending in /v1, e.g. http://127.0.0.1:11434/v1)"
    )]
    NotFound { url: String, body: String },
    #[error("the model at {url} answered HTTP {status}: {body}")]
    Http { url: String, status: u16, body: String },
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

/// The longest `Retry-After` honoured; a server asking for more is treated as failing.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);
/// The largest reply read: a chat completion is a few KB, a long one with reasoning a few
/// hundred.
const MAX_REPLY_BYTES: usize = 16 << 20;
/// The most of an error body kept for the message.
const MAX_BODY_CHARS: usize = 300;

pub struct Client {
    config: LlmConfig,
    http: reqwest::Client,
}

impl Client {
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        let extra = match &config.ca_cert {
            Some(path) => authorities(path).map_err(|e| LlmError::CaCert(e.to_string()))?,
            None => Vec::new(),
        };
        let http = reqwest::Client::builder()
            .tls_certs_merge(extra)
            .connect_timeout(Duration::from_secs(10).min(config.timeout))
            .timeout(config.timeout)
            .build()
            .map_err(|e| LlmError::Unreachable { url: config.url.clone(), reason: e.to_string() })?;
        Ok(Self { config, http })
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
    /// OpenAI's o-series only take at its default) is asked again without it.
    pub async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        let url = format!("{}/chat/completions", self.config.url);
        let began = Instant::now();
        let mut sent = Optional { structured: request.schema.is_some(), temperature: true };
        let mut attempts = 0;
        let mut retries_left = self.config.retries;
        loop {
            attempts += 1;
            let outcome = self.attempt(&url, &self.body(request, sent)).await;
            let wait = match outcome {
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
                        sent = fewer;
                        continue;
                    }
                    None => return Err(e),
                },
                Err(Attempt::Retry(e, after)) => {
                    if retries_left == 0 {
                        return Err(e);
                    }
                    after.unwrap_or_else(|| backoff(attempts))
                }
            };
            retries_left -= 1;
            // Never past the call's own time budget.
            let left = self.config.timeout.saturating_sub(began.elapsed());
            if wait >= left {
                return Err(LlmError::Timeout {
                    url: self.config.url.clone(),
                    seconds: self.config.timeout.as_secs_f64(),
                });
            }
            tracing::info!("the model is busy or failing; trying again in {wait:?}");
            tokio::time::sleep(wait).await;
        }
    }

    async fn attempt(&self, url: &str, body: &Value) -> Result<Value, Attempt> {
        let base = || self.config.url.clone();
        let mut post = self.http.post(url).json(body);
        if let Some(key) = &self.config.api_key {
            post = post.bearer_auth(key);
        }
        let response = match post.send().await {
            Ok(r) => r,
            Err(e) if e.is_timeout() => {
                return Err(Attempt::Fatal(LlmError::Timeout {
                    url: base(),
                    seconds: self.config.timeout.as_secs_f64(),
                }));
            }
            Err(e) if causes(&e).any(|c| c.is::<rustls::Error>()) => {
                return Err(Attempt::Fatal(LlmError::Tls { url: base(), reason: root_cause(&e) }));
            }
            Err(e) => return Err(Attempt::Retry(LlmError::Unreachable { url: base(), reason: root_cause(&e) }, None)),
        };
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .and_then(|s| Duration::try_from_secs_f64(s).ok());
        let text = self.read_capped(response).await?;
        let body: String = text.chars().take(MAX_BODY_CHARS).collect();
        match status {
            200..=299 => serde_json::from_str(&text).map_err(|e| {
                Attempt::Fatal(LlmError::BadReply { url: base(), reason: format!("invalid JSON ({e}): {body:?}") })
            }),
            401 | 403 => Err(Attempt::Fatal(LlmError::Auth { url: base(), status })),
            404 => Err(Attempt::Fatal(LlmError::NotFound { url: base(), body })),
            400 | 422 => Err(Attempt::Refused(LlmError::Http { url: base(), status, body: body.clone() }, text)),
            429 | 500..=599 => {
                let after = retry_after.filter(|d| *d <= MAX_RETRY_AFTER);
                Err(Attempt::Retry(LlmError::Http { url: base(), status, body }, after))
            }
            _ => Err(Attempt::Fatal(LlmError::Http { url: base(), status, body })),
        }
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
                Err(e) if e.is_timeout() => {
                    return Err(Attempt::Fatal(LlmError::Timeout {
                        url: base(),
                        seconds: self.config.timeout.as_secs_f64(),
                    }));
                }
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
        let content = match message.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(parts)) => {
                parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("")
            }
            // Some servers put a structured answer in `tool_calls` or `refusal`.
            _ => match message.get("refusal").and_then(Value::as_str) {
                Some(refusal) => return Err(bad(&format!("the model refused: {refusal}"))),
                None => return Err(bad(&no_content(value, message))),
            },
        };
        let usage = |k: &str| value.pointer(&format!("/usage/{k}")).and_then(Value::as_u64).unwrap_or(0);
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
