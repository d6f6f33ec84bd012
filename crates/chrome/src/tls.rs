//! TLS to a hosted browser (`wss://`, `https://`), which chromiumoxide is built without: the
//! system's certificate authorities are trusted, and those in the PEM file named by
//! `$STATEWRIGHT_CDP_CA_CERT` besides (a private grid's, a company proxy's).

use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore, crypto};

/// The variable naming a PEM file of authorities trusted besides the system's.
pub(crate) const CA_CERT_VAR: &str = "STATEWRIGHT_CDP_CA_CERT";

/// Whether `$STATEWRIGHT_CDP_CA_CERT`, when it is set, names a usable file: asked before a
/// run attaches, so that a wrong path is the caller's input, not a browser that failed.
pub fn check_authorities() -> Result<(), String> {
    extra_authorities().map(drop)
}

/// The extra authorities' PEM when the variable names one; a file that is not usable is an
/// error naming it.
pub(crate) fn extra_authorities() -> Result<Option<Vec<u8>>, String> {
    let Some(path) = std::env::var_os(CA_CERT_VAR).map(PathBuf::from) else { return Ok(None) };
    let unusable =
        |why: &str| format!("the certificate authority file {} (${CA_CERT_VAR}) is not usable: {why}", path.display());
    let pem = statewright_workflow::read_input_bytes(&path, "certificate file", statewright_workflow::MAX_INPUT_BYTES)
        .map_err(|e| unusable(&e.message))?;
    if CertificateDer::pem_slice_iter(&pem).next().is_none() {
        return Err(unusable("it holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
    }
    Ok(Some(pem))
}

/// TLS over `tcp` with `host` (a name, or an address as in a URL: `[::1]`), its certificate
/// checked against the authorities trusted.
pub(crate) async fn connect(tcp: TcpStream, host: &str) -> Result<TlsStream<TcpStream>, String> {
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    if let Some(pem) = extra_authorities()? {
        roots.add_parsable_certificates(CertificateDer::pem_slice_iter(&pem).flatten());
    }
    let provider = Arc::new(crypto::aws_lc_rs::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from(host.trim_start_matches('[').trim_end_matches(']').to_owned())
        .map_err(|e| format!("`{host}` is not a name a certificate can be checked against: {e}"))?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    connector.connect(name, tcp).await.map_err(|e| format!("TLS with {host} failed: {e}"))
}
