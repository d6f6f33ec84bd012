//! A hosted browser behind TLS, as grids serve theirs (`wss://…`, `https://…`): a real
//! Chromium behind a TLS front on loopback whose certificate a private authority signed,
//! trusted through `$STATEWRIGHT_CDP_CA_CERT`. One test in this binary: it sets the variable.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use statewright_chrome::{ChromeDriver, LaunchOptions};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The test authority and the server certificate it signed for 127.0.0.1 (the LLM tests').
fn tls(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../llm/tests/fixtures/tls").join(name)
}

/// A TLS front on loopback for the plain TCP service at `behind`; its address.
async fn tls_front(behind: String) -> String {
    let chain = CertificateDer::pem_file_iter(tls("server.pem")).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    let key = PrivateKeyDer::from_pem_file(tls("server.key")).unwrap();
    let provider = Arc::new(tokio_rustls::rustls::crypto::aws_lc_rs::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let front = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let (acceptor, behind) = (acceptor.clone(), behind.clone());
            tokio::spawn(async move {
                let Ok(mut client) = acceptor.accept(client).await else { return };
                let Ok(mut browser) = TcpStream::connect(behind).await else { return };
                let _ = tokio::io::copy_bidirectional(&mut client, &mut browser).await;
            });
        }
    });
    front
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_behind_tls_is_attached_over_wss_and_its_version_over_https() {
    // SAFETY: the only test of this binary, setting it before anything here reads it.
    unsafe { std::env::set_var("STATEWRIGHT_CDP_CA_CERT", tls("ca.pem")) };
    let chromium = common::Chromium::start();
    let (address, path) = chromium.ws.trim_start_matches("ws://").split_once('/').unwrap();
    let front = tls_front(address.to_owned()).await;
    common::run_attached(&format!("wss://{front}/{path}"), common::click_once()).await.assert_succeeded();
    // The version query goes over TLS too (its answer names Chromium's own ws:// address).
    common::run_attached(&format!("https://{front}"), common::click_once()).await.assert_succeeded();

    // Without the authority, the endpoint's certificate is not trusted, and the attach says
    // so in its own words (the endpoint may well be a browser) and what to do, both ways.
    unsafe { std::env::remove_var("STATEWRIGHT_CDP_CA_CERT") };
    for url in [format!("wss://{front}/{path}"), format!("https://{front}")] {
        let options = LaunchOptions { cdp_url: Some(url.clone()), ..LaunchOptions::default() };
        let Err(untrusted) = ChromeDriver::start(&options).await else { panic!("attached without the authority") };
        let said = untrusted.to_string();
        assert!(said.contains("the certificate of 127.0.0.1 is signed by an authority not trusted here"), "{said}");
        assert!(said.contains("name its PEM file in $STATEWRIGHT_CDP_CA_CERT"), "{said}");
        assert!(!said.contains("not a DevTools endpoint"), "{said}");
    }
}
