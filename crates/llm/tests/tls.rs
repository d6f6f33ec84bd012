//! The client over real TLS on loopback: a server behind a private certificate authority is
//! refused until that authority's file is configured, then answers; a plain-HTTP server at
//! an https URL and an unusable authority file are clear errors, not retried.

use std::path::PathBuf;

use statewright_llm::testing::{Reply, Rule, ScriptedModel};
use statewright_llm::{ChatRequest, Client, ConfigError, LlmConfig, LlmError, Settings};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("tests/fixtures/tls").join(name)
}

async fn tls_server() -> ScriptedModel {
    let chain = std::fs::read(fixture("server.pem")).unwrap();
    let key = std::fs::read(fixture("server.key")).unwrap();
    ScriptedModel::start_tls(vec![Rule::always(Reply::content("over TLS"))], &chain, &key).await
}

fn ask() -> ChatRequest {
    ChatRequest { system: "be brief".into(), user: "hello".into(), images: Vec::new(), schema: None }
}

fn client(url: &str, ca_cert: Option<PathBuf>) -> Client {
    let settings = Settings { ca_cert, retries: Some(2), ..Settings::default() };
    Client::new(LlmConfig::new(url, "m", Some("sk-test".into()), &settings).unwrap()).unwrap()
}

#[tokio::test]
async fn a_private_authority_is_refused_until_its_file_is_configured() {
    let server = tls_server().await;
    assert!(server.url().starts_with("https://127.0.0.1:"), "{}", server.url());

    let e = client(&server.url(), None).chat(&ask()).await.unwrap_err();
    assert!(matches!(&e, LlmError::Tls { .. }), "{e:?}");
    assert!(e.to_string().contains("STATEWRIGHT_LLM_CA_CERT"), "{e}");
    assert!(server.requests().is_empty(), "nothing was sent over an untrusted connection");

    let reply = client(&server.url(), Some(fixture("ca.pem"))).chat(&ask()).await.unwrap();
    assert_eq!((reply.content.as_str(), reply.attempts), ("over TLS", 1));
    assert_eq!(server.requests()[0]["messages"][1]["content"][0]["text"], "hello");
}

#[tokio::test]
async fn a_plain_http_server_at_an_https_url_fails_at_once() {
    let plain = ScriptedModel::start(vec![Rule::always(Reply::content("plain"))]).await;
    let url = plain.url().replacen("http://", "https://", 1);
    let e = client(&url, Some(fixture("ca.pem"))).chat(&ask()).await.unwrap_err();
    assert!(matches!(&e, LlmError::Tls { .. }), "{e:?}");
    assert!(plain.requests().is_empty());
}

#[test]
fn an_unusable_authority_file_is_a_configuration_error() {
    let dir = tempfile::tempdir().unwrap();
    let not_pem = dir.path().join("ca.pem");
    std::fs::write(&not_pem, "not a certificate").unwrap();
    for path in [dir.path().join("missing.pem"), not_pem] {
        let settings = Settings { ca_cert: Some(path.clone()), ..Settings::default() };
        let e = LlmConfig::new("https://h/v1", "m", None, &settings).unwrap_err();
        assert!(matches!(&e, ConfigError::CaCert { .. }), "{e:?}");
        assert!(e.to_string().contains(&path.display().to_string()), "{e}");
    }
}
