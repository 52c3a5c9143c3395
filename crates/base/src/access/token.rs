//! The access token of a served face: read from a file or an environment variable, or generated;
//! compared in constant time (SHA-256 of both sides, so not even the length leaks).

use std::net::IpAddr;
use std::path::Path;

use axum::http::{header, HeaderMap};
use base64::Engine as _;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::AccessError;

/// The header a client may send the token in instead of `Authorization`.
pub const TOKEN_HEADER: &str = "x-tuplewright-token";

/// Shortest accepted token (characters).
pub const MIN_LEN: usize = 16;
/// Longest accepted token (characters).
pub const MAX_LEN: usize = 1024;

/// A secret token (its digest is what is kept and compared).
pub struct Token {
    digest: [u8; 32],
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

impl Token {
    /// A token from its text; `source` names where the text came from, for errors.
    pub fn parse(text: &str, source: &str) -> Result<Token, AccessError> {
        let bad = |why: String| AccessError::BadToken {
            origin: source.to_string(),
            why,
        };
        let t = text.strip_suffix('\n').unwrap_or(text);
        let t = t.strip_suffix('\r').unwrap_or(t);
        if t.is_empty() {
            return Err(bad("it is empty".into()));
        }
        if let Some((i, c)) = t.char_indices().find(|(_, c)| !c.is_ascii_graphic()) {
            let line = t[..i].matches('\n').count() + 1;
            return Err(bad(format!(
                "character {c:?} at byte {i} (line {line}): a token is one line of printable \
                 ASCII without spaces"
            )));
        }
        if !(MIN_LEN..=MAX_LEN).contains(&t.len()) {
            return Err(bad(format!(
                "it has {} characters; a token has {MIN_LEN} to {MAX_LEN}",
                t.len()
            )));
        }
        Ok(Token {
            digest: Sha256::digest(t.as_bytes()).into(),
        })
    }

    /// The token held by the file at `path` (one line).
    pub fn from_file(path: &Path) -> Result<Token, AccessError> {
        let source = format!("token file {}", path.display());
        let bytes = std::fs::read(path).map_err(|e| AccessError::BadToken {
            origin: source.clone(),
            why: format!("cannot be read: {e}"),
        })?;
        if let Ok(meta) = std::fs::metadata(path) {
            use std::os::unix::fs::PermissionsExt as _;
            if meta.permissions().mode() & 0o077 != 0 {
                tracing::warn!(
                    path = %path.display(),
                    mode = format!("{:o}", meta.permissions().mode() & 0o777),
                    "the token file is readable by other users; chmod 600 it"
                );
            }
        }
        let text = String::from_utf8(bytes).map_err(|e| AccessError::BadToken {
            origin: source.clone(),
            why: format!("is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        })?;
        Token::parse(&text, &source)
    }

    /// The token held by environment variable `var`.
    pub fn from_env(var: &str) -> Result<Token, AccessError> {
        let source = format!("environment variable {var}");
        match std::env::var(var) {
            Ok(v) => Token::parse(&v, &source),
            Err(e) => Err(AccessError::BadToken {
                origin: source,
                why: e.to_string(),
            }),
        }
    }

    /// A fresh random token (64 hex digits) and its text, to be shown once.
    pub fn generate() -> (Token, String) {
        let text = hex::encode(rand::random::<[u8; 32]>());
        let digest = Sha256::digest(text.as_bytes()).into();
        (Token { digest }, text)
    }

    /// Whether `candidate` is this token (constant time).
    pub fn matches(&self, candidate: &str) -> bool {
        let d: [u8; 32] = Sha256::digest(candidate.as_bytes()).into();
        bool::from(self.digest.ct_eq(&d))
    }

    /// Whether the request carries this token: `Authorization: Bearer T`, `Authorization: Basic`
    /// with password T (what a client sends for a URL `http://user:T@host/`), or
    /// `X-Tuplewright-Token: T`. `Err` says what was missing or wrong.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), &'static str> {
        let mut offered = false;
        for v in headers.get_all(header::AUTHORIZATION) {
            let Ok(v) = v.to_str() else { continue };
            offered = true;
            if let Some(candidate) = presented(v) {
                if self.matches(&candidate) {
                    return Ok(());
                }
            }
        }
        for v in headers.get_all(TOKEN_HEADER) {
            offered = true;
            if v.to_str().is_ok_and(|v| self.matches(v.trim())) {
                return Ok(());
            }
        }
        Err(if offered {
            "wrong token"
        } else {
            "no token (send Authorization: Bearer TOKEN or X-Tuplewright-Token: TOKEN)"
        })
    }
}

/// The token an `Authorization` value presents (Bearer, or Basic's password).
fn presented(value: &str) -> Option<String> {
    let (scheme, rest) = value.trim().split_once(' ')?;
    let rest = rest.trim();
    if scheme.eq_ignore_ascii_case("bearer") {
        return Some(rest.to_string());
    }
    if scheme.eq_ignore_ascii_case("basic") {
        let raw = base64::engine::general_purpose::STANDARD
            .decode(rest)
            .ok()?;
        let text = String::from_utf8(raw).ok()?;
        return text.split_once(':').map(|(_, pass)| pass.to_string());
    }
    None
}

/// Whether `ip` is a loopback address (`127.0.0.0/8`, `::1`, `::ffff:127.x.y.z`).
pub fn is_loopback(ip: IpAddr) -> bool {
    super::cidr::canonical(ip).is_loopback()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn bearer_basic_password_and_own_header_are_accepted_and_nothing_else() {
        let t = Token::parse("s3cret-token-0123456789\n", "test").unwrap();
        let basic = base64::engine::general_purpose::STANDARD.encode("tw:s3cret-token-0123456789");
        assert!(t
            .check(&headers(&[(
                "authorization",
                "Bearer s3cret-token-0123456789"
            )]))
            .is_ok());
        assert!(t
            .check(&headers(&[("authorization", &format!("Basic {basic}"))]))
            .is_ok());
        assert!(t
            .check(&headers(&[(
                "x-tuplewright-token",
                "s3cret-token-0123456789"
            )]))
            .is_ok());
        assert_eq!(
            t.check(&HeaderMap::new()).unwrap_err().split(' ').next(),
            Some("no")
        );
        assert_eq!(
            t.check(&headers(&[(
                "authorization",
                "Bearer s3cret-token-012345678"
            )])),
            Err("wrong token")
        );
        assert!(t
            .check(&headers(&[("authorization", "s3cret-token-0123456789")]))
            .is_err());
        let (g, text) = Token::generate();
        assert_eq!(text.len(), 64);
        assert!(g.matches(&text) && !t.matches(&text));
    }

    #[test]
    fn malformed_tokens_say_where_and_what() {
        for (text, why) in [
            ("", "empty"),
            ("short", "5 characters"),
            ("two words here, long enough", "' ' at byte 3"),
            (
                "line-one-long-enough\nline-two",
                "'\\n' at byte 20 (line 1)",
            ),
        ] {
            let e = Token::parse(text, "token file /x").unwrap_err().to_string();
            assert!(
                e.contains("token file /x") && e.contains(why),
                "{text:?}: {e}"
            );
        }
        assert!(is_loopback("::ffff:127.0.0.2".parse().unwrap()));
        assert!(!is_loopback("0.0.0.0".parse().unwrap()));
    }
}
