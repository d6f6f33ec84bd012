//! The client against a scripted OpenAI-compatible server on loopback: the request it
//! sends, usage and cost, retries (429 with Retry-After, 5xx), time limits, refused keys,
//! servers without structured output, and the reply shapes of OpenAI, Ollama (a reasoning
//! model's too) and llama.cpp.

use std::time::{Duration, Instant};

use statewright_llm::testing::{Reply, Rule, ScriptedModel};
use statewright_llm::{ChatRequest, Client, LlmConfig, LlmError, Settings};

fn client(url: &str, settings: Settings) -> Client {
    Client::new(LlmConfig::new(url, "test-model", Some("sk-test".into()), &settings).unwrap()).unwrap()
}

fn ask() -> ChatRequest {
    ChatRequest {
        system: "be brief".into(),
        user: "what now?".into(),
        images: vec![vec![0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]],
        schema: Some(("next_step".into(), serde_json::json!({"type": "object"}))),
    }
}

#[tokio::test]
async fn a_call_sends_the_wire_format_and_counts_tokens_and_cost() {
    let server = ScriptedModel::start(vec![Rule::always(Reply::content("{\"kind\": \"retry\"}"))]).await;
    let prices = Settings { input_price: Some(2.0), output_price: Some(10.0), ..Settings::default() };
    let reply = client(&server.url(), prices).chat(&ask()).await.unwrap();
    assert_eq!(reply.content, "{\"kind\": \"retry\"}");
    assert_eq!((reply.prompt_tokens, reply.completion_tokens, reply.attempts), (100, 20, 1));
    assert!((reply.cost - (100.0 * 2.0 + 20.0 * 10.0) / 1e6).abs() < 1e-12, "{}", reply.cost);
    let sent = &server.requests()[0];
    assert_eq!(sent["model"], "test-model");
    assert_eq!(sent["messages"][0]["role"], "system");
    let parts = sent["messages"][1]["content"].as_array().unwrap();
    assert_eq!(parts[0]["text"], "what now?");
    assert!(parts[1]["image_url"]["url"].as_str().unwrap().starts_with("data:image/jpeg;base64,/9j/"));
    assert_eq!(sent["response_format"]["type"], "json_schema");
}

#[tokio::test]
async fn a_text_only_model_gets_no_image() {
    let server = ScriptedModel::start(vec![Rule::always(Reply::content("ok"))]).await;
    client(&server.url(), Settings { vision: Some(false), ..Settings::default() }).chat(&ask()).await.unwrap();
    assert_eq!(server.requests()[0]["messages"][1]["content"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn busy_and_failing_servers_are_retried_honouring_retry_after() {
    let server = ScriptedModel::start(vec![
        Rule::always(Reply::Status { code: 429, retry_after: Some(1), body: "slow down".into() }).times(1),
        Rule::always(Reply::Status { code: 503, retry_after: None, body: "overloaded".into() }).times(1),
        Rule::always(Reply::content("fine")),
    ])
    .await;
    let began = Instant::now();
    let reply = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap();
    assert_eq!((reply.content.as_str(), reply.attempts), ("fine", 3));
    assert!(began.elapsed() >= Duration::from_secs(1), "Retry-After was honoured");
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn a_server_that_keeps_failing_is_an_error_after_the_retries() {
    let server =
        ScriptedModel::start(vec![Rule::always(Reply::Status { code: 500, retry_after: None, body: "boom".into() })])
            .await;
    let e = client(&server.url(), Settings { retries: Some(1), ..Settings::default() }).chat(&ask()).await.unwrap_err();
    assert!(matches!(&e, LlmError::Http { status: 500, body, .. } if body == "boom"), "{e}");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_slow_model_is_cut_off_at_the_timeout() {
    let slow = Reply::Slow(Duration::from_secs(20), Box::new(Reply::content("late")));
    let server = ScriptedModel::start(vec![Rule::always(slow)]).await;
    let began = Instant::now();
    let e =
        client(&server.url(), Settings { timeout: Some(1.0), ..Settings::default() }).chat(&ask()).await.unwrap_err();
    assert!(matches!(e, LlmError::Timeout { .. }), "{e}");
    assert!(began.elapsed() < Duration::from_secs(5), "bounded: {:?}", began.elapsed());
}

/// A reply is a few KB; a server that never stops sending must not fill the memory until
/// the timeout, nor make the run wait for it.
#[tokio::test]
async fn a_reply_that_never_ends_is_cut_off_at_its_size_limit() {
    let server = ScriptedModel::start(vec![Rule::always(Reply::Endless)]).await;
    let began = Instant::now();
    let e =
        client(&server.url(), Settings { timeout: Some(120.0), ..Settings::default() }).chat(&ask()).await.unwrap_err();
    assert!(matches!(&e, LlmError::BadReply { reason, .. } if reason.contains("MiB")), "{e}");
    assert!(began.elapsed() < Duration::from_secs(30), "not the timeout: {:?}", began.elapsed());
    assert_eq!(server.requests().len(), 1, "an oversized reply is not asked for again");
}

#[tokio::test]
async fn nothing_listening_a_refused_key_and_an_unknown_model_are_clear_errors() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let began = Instant::now();
    let e = client(&format!("http://127.0.0.1:{port}/v1"), Settings { retries: Some(1), ..Settings::default() })
        .chat(&ask())
        .await
        .unwrap_err();
    assert!(matches!(&e, LlmError::Unreachable { reason, .. } if reason.to_lowercase().contains("refused")), "{e}");
    assert!(began.elapsed() < Duration::from_secs(5));

    let server = ScriptedModel::start(vec![Rule::always(Reply::Status {
        code: 401,
        retry_after: None,
        body: "bad key".into(),
    })])
    .await;
    let e = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap_err();
    assert!(matches!(e, LlmError::Auth { status: 401, .. }), "{e}");
    assert!(!e.to_string().contains("sk-test"), "the key is never in a message");
    assert_eq!(server.requests().len(), 1, "a refused key is not retried");

    // Ollama's answer for a model it has not pulled; a URL without /v1 gets a bare 404.
    let server = ScriptedModel::start(vec![Rule::always(Reply::Status {
        code: 404,
        retry_after: None,
        body: r#"{"error":"model \"qwen9\" not found, try pulling it first"}"#.into(),
    })])
    .await;
    let e = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap_err();
    assert!(matches!(e, LlmError::NotFound { .. }), "{e}");
    assert!(e.to_string().contains("try pulling it") && e.to_string().contains("/v1"), "{e}");
    assert_eq!(server.requests().len(), 1, "not found is not retried");
}

#[tokio::test]
async fn a_server_without_structured_output_is_asked_again_without_it() {
    let server = ScriptedModel::start(vec![
        Rule::always(Reply::Status { code: 400, retry_after: None, body: "unknown field response_format".into() })
            .times(1),
        Rule::always(Reply::content("{\"kind\":\"skip\"}")),
    ])
    .await;
    let reply = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap();
    assert_eq!(reply.content, "{\"kind\":\"skip\"}");
    let requests = server.requests();
    assert!(requests[0].get("response_format").is_some() && requests[1].get("response_format").is_none());
}

#[tokio::test]
async fn a_reasoning_model_that_refuses_temperature_is_asked_again_without_it() {
    // OpenAI's answer when an o-series model is sent `temperature: 0`.
    let refusal = r#"{"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}"#;
    let server = ScriptedModel::start(vec![
        Rule::always(Reply::Status { code: 400, retry_after: None, body: refusal.into() }).times(1),
        Rule::always(Reply::content("{\"kind\":\"retry\"}")),
    ])
    .await;
    let reply = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap();
    assert_eq!(reply.content, "{\"kind\":\"retry\"}");
    let requests = server.requests();
    assert_eq!(requests[0]["temperature"], 0);
    assert!(requests[1].get("temperature").is_none(), "{}", requests[1]);
    assert!(requests[1].get("response_format").is_some(), "only the refused field is dropped");

    // A 400 for another reason is an error at once, not a loop.
    let server = ScriptedModel::start(vec![Rule::always(Reply::Status {
        code: 400,
        retry_after: None,
        body: "context length exceeded".into(),
    })])
    .await;
    let e = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap_err();
    assert!(matches!(&e, LlmError::Http { status: 400, .. }), "{e}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn openai_ollama_and_llama_cpp_replies_are_all_read() {
    for (file, tokens) in [
        ("openai.json", (1234, 21)),
        ("ollama.json", (987, 30)),
        ("llamacpp.json", (1500, 40)),
        ("ollama-reasoning.json", (1010, 88)),
    ] {
        let body = std::fs::read_to_string(format!(
            "{}/tests/fixtures/{file}",
            std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")
        ))
        .unwrap();
        let server = ScriptedModel::start(vec![Rule::always(Reply::Raw(body))]).await;
        let reply = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap();
        assert_eq!((reply.prompt_tokens, reply.completion_tokens), tokens, "{file}");
        let object = statewright_llm::parse::extract_object(&reply.content, "kind").unwrap();
        assert_eq!((object["kind"].as_str(), object["element"].as_u64()), (Some("click"), Some(3)), "{file}");
    }
    // Content as a list of parts, and bodies that are not chat completions.
    let parts = r#"{"choices":[{"message":{"content":[{"type":"text","text":"{\"kind\":"},{"type":"text","text":"\"retry\"}"}]}}]}"#;
    let server = ScriptedModel::start(vec![Rule::always(Reply::Raw(parts.into()))]).await;
    assert_eq!(client(&server.url(), Settings::default()).chat(&ask()).await.unwrap().content, "{\"kind\":\"retry\"}");
    for garbage in
        ["<html>oops</html>", "{\"choices\": []}", "{\"choices\":[{\"message\":{\"refusal\":\"no\"}}]}", "{\"trunc"]
    {
        let server = ScriptedModel::start(vec![Rule::always(Reply::Raw(garbage.into()))]).await;
        let e = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap_err();
        assert!(matches!(e, LlmError::BadReply { .. }), "{garbage}: {e}");
    }
}

#[tokio::test]
async fn a_reply_without_an_answer_says_why() {
    let cases = [
        (r#"{"error": {"message": "model 'gpt-x' is overloaded", "type": "server_error"}}"#, "overloaded"),
        (
            r#"{"choices":[{"message":{"content":null,"reasoning_content":"Let me think..."},"finish_reason":"length"}]}"#,
            "spent its token limit reasoning",
        ),
        (r#"{"choices":[{"message":{"content":null},"finish_reason":"length"}]}"#, "cut off at the token limit"),
        (r#"{"choices":[{"message":{"role":"assistant"},"finish_reason":"stop"}]}"#, "has no content"),
    ];
    for (body, why) in cases {
        let server = ScriptedModel::start(vec![Rule::always(Reply::Raw(body.into()))]).await;
        let e = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap_err();
        assert!(matches!(&e, LlmError::BadReply { reason, .. } if reason.contains(why)), "{body}: {e}");
    }
}

#[tokio::test]
async fn a_scripted_rule_that_panics_is_a_500_and_the_server_keeps_serving() {
    let server = ScriptedModel::start(vec![
        Rule::respond("what now?", |_| panic!("a test's model misread the page")).times(1),
        Rule::always(Reply::content("fine")),
    ])
    .await;
    // Before, the panic poisoned the rules and closed every later connection too.
    let reply = client(&server.url(), Settings::default()).chat(&ask()).await.unwrap();
    assert_eq!((reply.content.as_str(), reply.attempts), ("fine", 2));
}
