//! The client against servers that bend the wire format: a key echoed back, a call's time
//! budget shared by its attempts, rate limits and `Retry-After` in both forms, optional
//! fields refused once and remembered, reasoning parts, tool calls, float token counts,
//! compressed and streamed bodies.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;
use statewright_llm::testing::{Reply, Rule, ScriptedModel};
use statewright_llm::{ChatRequest, Client, LlmConfig, LlmError, Settings};

const KEY: &str = "sk-live-0123456789abcdefghij";

fn client(url: &str, settings: Settings) -> Client {
    Client::new(LlmConfig::new(url, "test-model", Some(KEY.into()), &settings).unwrap()).unwrap()
}

fn ask() -> ChatRequest {
    ChatRequest {
        system: "be brief".into(),
        user: "what now?".into(),
        images: vec![],
        schema: Some(("next_step".into(), json!({"type": "object"}))),
    }
}

fn status(code: u16, body: &str) -> Reply {
    Reply::Status { code, retry_after: None, body: body.into() }
}

#[tokio::test]
async fn a_key_the_server_echoes_is_masked_in_every_message() {
    let echoes = [
        status(500, &format!("bad header Authorization: Bearer {KEY}")),
        status(403, &format!("key {KEY} may not use this model")),
        status(400, &format!("{}{KEY}", "x".repeat(290))),
        Reply::Raw(json!({"error": {"message": format!("invalid key {KEY}")}}).to_string()),
        Reply::Raw(format!("not json, Bearer {KEY}")),
    ];
    for echo in echoes {
        let server = ScriptedModel::start(vec![Rule::always(echo.clone())]).await;
        let e = client(&server.url(), Settings { retries: Some(0), ..Settings::default() }).chat(&ask()).await;
        let said = e.unwrap_err().to_string();
        // Not even the part of it before a cut.
        assert!(!said.contains(&KEY[..12]), "{echo:?}: {said}");
        assert!(said.contains("••••••"), "{echo:?}: {said}");
    }
}

#[tokio::test]
async fn a_403_keeps_the_servers_reason() {
    let server =
        ScriptedModel::start(vec![Rule::always(status(403, "Project does not have access to model o3"))]).await;
    let e = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap_err();
    assert!(matches!(e, LlmError::Auth { status: 403, .. }), "{e}");
    assert!(e.to_string().contains("does not have access to model o3"), "{e}");
}

#[tokio::test]
async fn each_attempt_gets_only_what_is_left_of_the_budget() {
    // The first attempt fails late; the second must not get a whole timeout of its own.
    let server = ScriptedModel::start(vec![
        Rule::always(Reply::Slow(Duration::from_millis(1500), Box::new(status(503, "busy")))).times(1),
        Rule::always(Reply::Slow(Duration::from_secs(20), Box::new(Reply::content("late")))),
    ])
    .await;
    let began = Instant::now();
    let e =
        client(&server.url(), Settings { timeout: Some(2.5), ..Settings::default() }).chat(&ask()).await.unwrap_err();
    assert!(matches!(e, LlmError::Timeout { .. }), "{e}");
    assert!(began.elapsed() < Duration::from_millis(3200), "within the budget: {:?}", began.elapsed());
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_rate_limit_that_outlasts_the_budget_says_so() {
    let limited = Reply::Status { code: 429, retry_after: Some(5), body: "Rate limit reached for gpt-4o".into() };
    let server = ScriptedModel::start(vec![Rule::always(limited)]).await;
    let began = Instant::now();
    let e =
        client(&server.url(), Settings { timeout: Some(2.0), ..Settings::default() }).chat(&ask()).await.unwrap_err();
    assert!(matches!(e, LlmError::RateLimited { .. }), "{e}");
    let said = e.to_string();
    assert!(said.contains("429") && said.contains("Rate limit reached") && said.contains("rate limiting"), "{said}");
    assert!(began.elapsed() < Duration::from_secs(1), "no wait that cannot end in time: {:?}", began.elapsed());
}

#[tokio::test]
async fn a_retry_after_beyond_the_limit_is_a_failure_at_once() {
    let server = ScriptedModel::start(vec![Rule::always(Reply::Status {
        code: 429,
        retry_after: Some(3600),
        body: "quota exhausted".into(),
    })])
    .await;
    let e = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap_err();
    assert!(matches!(e, LlmError::RateLimited { .. }), "{e}");
    assert!(e.to_string().contains("quota exhausted") && e.to_string().contains("3600"), "{e}");
    assert_eq!(server.requests().len(), 1, "not asked again");
}

/// `Sun, 06 Nov 1994 08:49:37 GMT` for a time.
fn http_date(at: SystemTime) -> String {
    let secs = at.duration_since(UNIX_EPOCH).unwrap().as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil from days (Howard Hinnant), for the test's own dates.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    format!(
        "{}, {day:02} {} {year} {:02}:{:02}:{:02} GMT",
        weekdays[(days % 7) as usize],
        months[month as usize - 1],
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[tokio::test]
async fn a_retry_after_date_is_honoured() {
    let server = ScriptedModel::start(vec![
        Rule::respond("what now?", |_| Reply::With {
            code: 429,
            headers: vec![("retry-after", http_date(SystemTime::now() + Duration::from_secs(3)))],
            body: "slow down".into(),
        })
        .times(1),
        Rule::always(Reply::content("fine")),
    ])
    .await;
    let began = Instant::now();
    let reply = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap();
    assert_eq!(reply.content, "fine");
    assert!(began.elapsed() >= Duration::from_millis(1900), "waited till the date: {:?}", began.elapsed());
}

#[tokio::test]
async fn optional_fields_a_server_refused_are_not_sent_again() {
    // As OpenAI's o-series or Groq answer: each optional field refused, every time it is sent.
    let server = ScriptedModel::start(vec![Rule::respond("", |request| {
        if request.get("response_format").is_some() {
            status(400, "'response_format' is not supported with this model")
        } else if request.get("temperature").is_some() {
            status(400, "Unsupported value: 'temperature' does not support 0")
        } else {
            Reply::content("{\"kind\":\"retry\"}")
        }
    })])
    .await;
    let client = client(&server.url(), Settings::default());
    for _ in 0..3 {
        assert_eq!(client.chat(&ask()).await.unwrap().content, "{\"kind\":\"retry\"}");
    }
    assert_eq!(server.requests().len(), 3 + 1 + 1, "each refusal once, then one request a call");
}

#[tokio::test]
async fn reasoning_parts_tool_calls_and_float_token_counts_are_read() {
    let cases = [
        (
            json!({"choices":[{"message":{"content":[
                {"type":"reasoning","text":"{\"kind\":\"abort\"}"},
                {"type":"thinking","thinking":"hmm","text":"{\"kind\":\"abort\"}"},
                {"type":"text","text":"{\"kind\":\"retry\"}"}]}}],
                "usage":{"prompt_tokens":100.0,"completion_tokens":20.0}}),
            "{\"kind\":\"retry\"}",
        ),
        (
            json!({"choices":[{"message":{"content":null,"tool_calls":[{"type":"function",
                "function":{"name":"next_step","arguments":"{\"kind\":\"skip\"}"}}]}}],
                "usage":{"prompt_tokens":100,"completion_tokens":20}}),
            "{\"kind\":\"skip\"}",
        ),
    ];
    for (body, content) in cases {
        let server = ScriptedModel::start(vec![Rule::always(Reply::Raw(body.to_string()))]).await;
        let reply = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap();
        assert_eq!(reply.content, content, "{body}");
        assert_eq!((reply.prompt_tokens, reply.completion_tokens), (100, 20), "{body}");
    }
}

#[tokio::test]
async fn compressed_and_streamed_bodies_are_said_or_read() {
    let gzip = Reply::With {
        code: 200,
        headers: vec![("content-encoding", "gzip".into()), ("content-type", "application/json".into())],
        body: "\u{1f}\u{7f}garbled".into(),
    };
    let server = ScriptedModel::start(vec![Rule::always(gzip)]).await;
    let e = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap_err();
    assert!(matches!(&e, LlmError::BadReply { reason, .. } if reason.contains("compressed (gzip)")), "{e}");

    let chunk = |text: &str| json!({"choices":[{"index":0,"delta":{"content":text}}]}).to_string();
    let stream = format!(
        "data: {}\n\ndata: {}\n\ndata: {}\n\ndata: [DONE]\n\n",
        chunk("{\"kind\":"),
        chunk("\"retry\"}"),
        json!({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3}})
    );
    let sse = Reply::With { code: 200, headers: vec![("content-type", "text/event-stream".into())], body: stream };
    let server = ScriptedModel::start(vec![Rule::always(sse)]).await;
    let reply = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap();
    assert_eq!((reply.content.as_str(), reply.prompt_tokens, reply.completion_tokens), ("{\"kind\":\"retry\"}", 7, 3));
}
