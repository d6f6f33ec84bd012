//! TLS to a hosted browser (`wss://`, `https://`), which chromiumoxide is built without: the
//! system's certificate authorities are trusted, and those in the PEM file named by
//! `$STATEWRIGHT_CDP_CA_CERT` besides (a private grid's, a company proxy's).

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{self, CertificateError, ClientConfig, RootCertStore, crypto};

use crate::refusal::Refusal;

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

/// The refusal of a TLS failure `e` (a certificate refused may be anywhere in its sources):
/// one signed by an authority not known says what to do about it.
pub(crate) fn refusal(host: &str, e: &(dyn std::error::Error + 'static)) -> Refusal {
    let mut at = Some(e);
    while let Some(e) = at {
        match e.downcast_ref::<rustls::Error>() {
            Some(rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer)) => {
                return Refusal::Untrusted(format!(
                    "the certificate of {host} is signed by an authority not trusted here; if it is a private \
                     one (a grid's, a company proxy's), name its PEM file in ${CA_CERT_VAR}"
                ));
            }
            Some(rustls::Error::InvalidCertificate(why)) => {
                return Refusal::Untrusted(format!("the certificate of {host} is refused: {why}"));
            }
            _ => {}
        }
        // An I/O error's `source` skips the error it wraps (rustls' own, for tokio-rustls).
        at = match e.downcast_ref::<std::io::Error>().and_then(|io| io.get_ref()) {
            Some(wrapped) => Some(wrapped as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    Refusal::Other(format!("TLS with {host} failed: {e}"))
}

/// The system's authorities, read once: there are a few hundred, and a pool attaches often.
fn system_authorities() -> &'static [CertificateDer<'static>] {
    static SYSTEM: OnceLock<Vec<CertificateDer<'static>>> = OnceLock::new();
    SYSTEM.get_or_init(|| rustls_native_certs::load_native_certs().certs)
}

/// TLS over `tcp` with `host` (a name, or an address as in a URL: `[::1]`), its certificate
/// checked against the authorities trusted. The extra authorities' file is read each time,
/// so that a file put right is taken without a restart.
pub(crate) async fn connect(tcp: TcpStream, host: &str) -> Result<TlsStream<TcpStream>, Refusal> {
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(system_authorities().iter().cloned());
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
    connector.connect(name, tcp).await.map_err(|e| refusal(host, &e))
}
