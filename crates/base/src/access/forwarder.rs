//! Where a role may come from. The state API honours `X-Tuplewright-Role` only on a request that
//! also carries this process's forwarder secret (`X-Tuplewright-Forwarder`): the sandbox's
//! forwarder and the host-side engine add it; a network client cannot know it, so a role header it
//! sends is dropped (and counted) before any handler sees it. The secret is random per process and
//! never leaves it (scripts reach the state API only through the forwarder, which overwrites both
//! headers).

use std::sync::OnceLock;

use axum::http::HeaderMap;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The header carrying the forwarder secret.
pub const FORWARDER_HEADER: &str = "x-tuplewright-forwarder";

/// The header carrying the role (as in `env::role` and `sandbox::policy`).
pub const ROLE_HEADER: &str = "x-tuplewright-role";

fn secret() -> &'static str {
    static SECRET: OnceLock<String> = OnceLock::new();
    SECRET.get_or_init(|| hex::encode(rand::random::<[u8; 32]>()))
}

/// The forwarder secret as a header, for requests to this process's own state API only (the
/// forwarder adds it to a built-in app's requests, never to an external app's).
pub fn secret_header() -> (&'static str, String) {
    (FORWARDER_HEADER, secret().to_string())
}

/// The headers a trusted in-process caller sends a built-in app to act in `role`: the role and
/// the forwarder secret.
pub fn role_headers(role: &str) -> [(&'static str, String); 2] {
    [(ROLE_HEADER, role.to_string()), secret_header()]
}

/// The headers of a read in `role` by the engine itself: the role, and the secret when the app is
/// this process's own (`builtin`).
pub fn header_map(role: &str, builtin: bool) -> HeaderMap {
    let mut map = HeaderMap::new();
    let [role, secret] = role_headers(role);
    for (k, v) in std::iter::once(role).chain(builtin.then_some(secret)) {
        if let Ok(v) = axum::http::HeaderValue::from_str(&v) {
            map.insert(k, v);
        }
    }
    map
}

/// Whether `headers` carry this process's forwarder secret (constant time).
pub fn trusted(headers: &HeaderMap) -> bool {
    let want: [u8; 32] = Sha256::digest(secret().as_bytes()).into();
    headers.get_all(FORWARDER_HEADER).iter().any(|v| {
        let got: [u8; 32] = Sha256::digest(v.as_bytes()).into();
        bool::from(want.ct_eq(&got))
    })
}

/// Drops the role header from a request that does not carry the forwarder secret; removes the
/// secret itself either way (handlers never see it). Returns whether a role header was dropped.
pub fn strip_untrusted_role(headers: &mut HeaderMap) -> bool {
    let ok = trusted(headers);
    headers.remove(FORWARDER_HEADER);
    !ok && headers.remove(ROLE_HEADER).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn a_role_header_stays_only_with_the_secret() {
        let mut h = HeaderMap::new();
        h.insert(ROLE_HEADER, HeaderValue::from_static("setup"));
        h.insert(FORWARDER_HEADER, HeaderValue::from_static("guessed"));
        assert!(strip_untrusted_role(&mut h));
        assert!(h.get(ROLE_HEADER).is_none() && h.get(FORWARDER_HEADER).is_none());
        let mut h = HeaderMap::new();
        for (k, v) in role_headers("reader") {
            h.insert(k, HeaderValue::from_str(&v).unwrap());
        }
        assert!(!strip_untrusted_role(&mut h));
        assert_eq!(h.get(ROLE_HEADER).unwrap(), "reader");
        assert!(h.get(FORWARDER_HEADER).is_none());
    }
}
