//! The certificates behind HTTPS to the public Hub hosts: one certificate authority per process
//! (made with rcgen on first use; its key never leaves this process) and a leaf for `*.xlang.ai`
//! signed by it. The forwarder terminates TLS with the leaf on the host side; a sandboxed script
//! trusts the CA through `SSL_CERT_FILE` / `REQUESTS_CA_BUNDLE`, so `https://cua-gym-<app>.xlang.ai`
//! verifies as it would on the real site, and nothing else on the machine trusts it.

use std::sync::{Arc, OnceLock};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

use super::hints::HUB_DOMAIN;

/// The CA certificate (PEM, for the sandbox's trust store) and the forwarder's TLS config.
pub struct HubTls {
    /// The CA certificate in PEM.
    pub ca_pem: String,
    /// Server config presenting the `*.xlang.ai` leaf (HTTP/1.1).
    pub server: Arc<rustls::ServerConfig>,
}

fn make() -> Result<HubTls, String> {
    let err = |what: &'static str| move |e: rcgen::Error| format!("making the {what}: {e}");
    let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(err("CA parameters"))?;
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "tuplewright per-process Hub CA");
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca_key = KeyPair::generate().map_err(err("CA key"))?;
    let ca_cert = ca.self_signed(&ca_key).map_err(err("CA certificate"))?;
    let names = vec![
        format!("*.{HUB_DOMAIN}"),
        HUB_DOMAIN.to_string(),
        "localhost".to_string(),
    ];
    let mut leaf = CertificateParams::new(names).map_err(err("leaf parameters"))?;
    leaf.distinguished_name
        .push(DnType::CommonName, format!("*.{HUB_DOMAIN}"));
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    leaf.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    let leaf_key = KeyPair::generate().map_err(err("leaf key"))?;
    let leaf_cert = leaf
        .signed_by(&leaf_key, &ca_cert, &ca_key)
        .map_err(err("leaf certificate"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut server = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS protocol versions: {e}"))?
        .with_no_client_auth()
        .with_single_cert(
            vec![CertificateDer::from(leaf_cert.der().to_vec())],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der())),
        )
        .map_err(|e| format!("TLS server certificate: {e}"))?;
    server.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(HubTls {
        ca_pem: ca_cert.pem(),
        server: Arc::new(server),
    })
}

/// The process's Hub certificates, made on first use.
pub fn hub_tls() -> Result<&'static HubTls, String> {
    static TLS: OnceLock<Result<HubTls, String>> = OnceLock::new();
    TLS.get_or_init(make).as_ref().map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ca_is_made_once_and_is_pem() {
        let a = hub_tls().unwrap();
        let b = hub_tls().unwrap();
        assert!(std::ptr::eq(a, b));
        assert!(
            a.ca_pem.starts_with("-----BEGIN CERTIFICATE-----"),
            "{}",
            a.ca_pem
        );
    }
}
