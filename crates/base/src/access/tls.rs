//! Optional TLS of a served face: a certificate chain and its private key (PEM files the user
//! gives), loaded with rustls on the ring provider.

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::AccessError;

fn read(path: &Path, what: &'static str) -> Result<Vec<u8>, AccessError> {
    std::fs::read(path).map_err(|e| AccessError::Tls {
        path: path.to_path_buf(),
        what,
        why: format!("cannot be read: {e}"),
    })
}

/// The server config presenting the chain in `cert` (PEM) with the key in `key` (PEM: PKCS#8,
/// PKCS#1 or SEC1), speaking HTTP/1.1.
pub fn load(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, AccessError> {
    let bad = |path: &Path, what: &'static str, why: String| AccessError::Tls {
        path: path.to_path_buf(),
        what,
        why,
    };
    let pem = read(cert, "certificate")?;
    let chain = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad(cert, "certificate", format!("is not PEM: {e}")))?;
    if chain.is_empty() {
        return Err(bad(
            cert,
            "certificate",
            "holds no CERTIFICATE block".into(),
        ));
    }
    let pem = read(key, "private key")?;
    let private = PrivateKeyDer::from_pem_slice(&pem)
        .map_err(|e| bad(key, "private key", format!("holds no usable key: {e}")))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad(cert, "certificate", format!("TLS versions: {e}")))?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            bad(
                key,
                "private key",
                format!("does not fit the certificate: {e}"),
            )
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}
