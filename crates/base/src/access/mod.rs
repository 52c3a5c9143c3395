//! Access control of every served face (the state API of `env serve`, the OSWorld face of
//! `env serve --osworld`): loopback needs none; any other address refuses to start unless a
//! token ([`token`]) and/or an `--allow-from` list ([`cidr`]) is configured. Requests without the
//! token get 401, from outside the list 403; both are logged and counted (`/health`). A role
//! header is honoured only from this process's own forwarder ([`forwarder`]). Optional TLS with
//! a given certificate ([`tls`]); [`listener`] serves a router behind all of it.

pub mod cidr;
pub mod forwarder;
pub mod listener;
pub mod tls;
pub mod token;
pub mod vnc;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use ipnet::IpNet;
use serde::Serialize;

pub use listener::{guard, GuardedListener, Peer};
pub use token::{is_loopback, Token, TOKEN_HEADER};

/// Where the docs explain serving beyond this machine.
pub const DOCS: &str = "docs/state-server.md#serving-beyond-this-machine";

/// Errors of configuring access control (all at start-up).
#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    /// A non-loopback address with neither a token nor an allow list.
    #[error(
        "refusing to serve {face} on {host}, which is not a loopback address, without access \
         control: configure a token (--generate-token, --token-file FILE or --token-env VAR; \
         [env] generate_token / token_file / token_env) and/or the client addresses \
         (--allow-from CIDR…; [env] allow_from), or listen on 127.0.0.1 and reach it through \
         an SSH tunnel (see {DOCS})"
    )]
    Unprotected {
        /// Which face.
        face: String,
        /// The address asked for.
        host: IpAddr,
    },
    /// A malformed or unreadable token.
    #[error("the access token from {origin} is unusable: {why}")]
    BadToken {
        /// Where the token came from (file path, variable).
        origin: String,
        /// What is wrong.
        why: String,
    },
    /// An entry of an allow list that is not a CIDR block or address.
    #[error("{origin}: {value:?} is not a CIDR block or address: {why}")]
    BadCidr {
        /// The entry.
        value: String,
        /// The flag or key it came from.
        origin: String,
        /// What is wrong.
        why: String,
    },
    /// Settings that contradict each other.
    #[error("access settings conflict: {0}")]
    Conflict(String),
    /// An unusable TLS certificate or key file.
    #[error("TLS {what} {}: {why}", path.display())]
    Tls {
        /// The file.
        path: PathBuf,
        /// `certificate` or `private key`.
        what: &'static str,
        /// What is wrong.
        why: String,
    },
}

/// The access settings of a face (the `[env]` keys and their flags).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AccessSettings {
    /// A file holding the token (one line).
    pub token_file: Option<PathBuf>,
    /// An environment variable holding the token.
    pub token_env: Option<String>,
    /// Make a fresh token at start (shown once).
    pub generate_token: bool,
    /// CIDR blocks clients must come from (empty = any).
    pub allow_from: Vec<String>,
    /// TLS certificate chain (PEM).
    pub tls_cert: Option<PathBuf>,
    /// TLS private key (PEM).
    pub tls_key: Option<PathBuf>,
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denied {
    /// No token or a wrong one (401).
    Token(&'static str),
    /// The client's address is outside the allow list (403).
    Address,
}

/// The access counters `/health` reports.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct AccessReport {
    /// Whether a token is required.
    pub token: bool,
    /// The allow list in force (empty = any address).
    pub allow_from: Vec<String>,
    /// Whether connections are TLS.
    pub tls: bool,
    /// Requests refused with 401 (no or wrong token).
    pub unauthorized: u64,
    /// Requests refused with 403 (address outside the allow list).
    pub not_allowed: u64,
    /// Role headers dropped because they did not come from the forwarder.
    pub ignored_role_headers: u64,
}

/// The resolved access control of one face, with its counters.
#[derive(Debug, Default)]
pub struct Access {
    token: Option<Token>,
    allow: Vec<IpNet>,
    tls: Option<Arc<rustls::ServerConfig>>,
    unauthorized: AtomicU64,
    not_allowed: AtomicU64,
    ignored_roles: AtomicU64,
}

impl Access {
    /// No access control (the engine's own loopback servers).
    pub fn open() -> Arc<Access> {
        Arc::new(Access::default())
    }

    /// Resolves `settings` for a face (`face` names it in errors) listening on `host`. Returns the
    /// access and, with `generate_token`, the fresh token's text (to show once).
    pub fn resolve(
        face: &str,
        host: IpAddr,
        s: &AccessSettings,
    ) -> Result<(Arc<Access>, Option<String>), AccessError> {
        let allow = cidr::parse_allow_from(&s.allow_from, "allow_from (--allow-from)")?;
        let sources = [
            s.token_file.is_some(),
            s.token_env.is_some(),
            s.generate_token,
        ];
        if sources.iter().filter(|b| **b).count() > 1 {
            return Err(AccessError::Conflict(
                "give one of token_file (--token-file), token_env (--token-env) and \
                 generate_token (--generate-token)"
                    .into(),
            ));
        }
        let mut shown = None;
        let token = match (&s.token_file, &s.token_env) {
            (Some(path), _) => Some(Token::from_file(path)?),
            (_, Some(var)) => Some(Token::from_env(var)?),
            _ if s.generate_token => {
                let (t, text) = Token::generate();
                shown = Some(text);
                Some(t)
            }
            _ => None,
        };
        let tls = match (&s.tls_cert, &s.tls_key) {
            (Some(c), Some(k)) => Some(tls::load(c, k)?),
            (None, None) => None,
            _ => {
                return Err(AccessError::Conflict(
                    "tls_cert (--tls-cert) and tls_key (--tls-key) go together".into(),
                ))
            }
        };
        if !is_loopback(host) && token.is_none() && allow.is_empty() {
            return Err(AccessError::Unprotected {
                face: face.to_string(),
                host,
            });
        }
        let access = Access {
            token,
            allow,
            tls,
            ..Access::default()
        };
        Ok((Arc::new(access), shown))
    }

    /// The TLS config, when connections are TLS.
    pub fn tls(&self) -> Option<Arc<rustls::ServerConfig>> {
        self.tls.clone()
    }

    /// `https` with TLS, else `http`.
    pub fn scheme(&self) -> &'static str {
        if self.tls.is_some() {
            "https"
        } else {
            "http"
        }
    }

    /// Whether a request from `peer` with `headers` may pass.
    pub fn check(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> Result<(), Denied> {
        if !self.allow.is_empty() && !peer.is_some_and(|p| cidr::allowed(&self.allow, p.ip())) {
            return Err(Denied::Address);
        }
        match &self.token {
            Some(t) => t.check(headers).map_err(Denied::Token),
            None => Ok(()),
        }
    }

    /// Counts and logs a refusal, and the answer to send.
    pub fn refuse(
        &self,
        denied: Denied,
        peer: Option<SocketAddr>,
        method: &str,
        path: &str,
    ) -> Response {
        let peer = peer.map(|p| p.to_string()).unwrap_or_else(|| "?".into());
        let (status, error, detail) = match denied {
            Denied::Token(why) => {
                self.unauthorized.fetch_add(1, Ordering::Relaxed);
                (StatusCode::UNAUTHORIZED, "unauthorized", why.to_string())
            }
            Denied::Address => {
                self.not_allowed.fetch_add(1, Ordering::Relaxed);
                let why = format!("address {peer} is not in allow_from");
                (StatusCode::FORBIDDEN, "address_not_allowed", why)
            }
        };
        tracing::warn!(%peer, method, path, reason = %detail, "request refused: {error}");
        let body = serde_json::json!({"error": error, "detail": detail, "status": "error",
            "message": detail});
        let mut resp = (status, axum::Json(body)).into_response();
        if status == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"tuplewright\""),
            );
        }
        resp
    }

    /// Counts and logs a role header dropped because it did not come from the forwarder.
    pub fn role_header_ignored(&self, peer: Option<SocketAddr>, path: &str) {
        self.ignored_roles.fetch_add(1, Ordering::Relaxed);
        let peer = peer.map(|p| p.to_string()).unwrap_or_else(|| "?".into());
        tracing::warn!(%peer, path, "ignored a role header that did not come from the forwarder");
    }

    /// What `/health` reports.
    pub fn report(&self) -> AccessReport {
        AccessReport {
            token: self.token.is_some(),
            allow_from: self.allow.iter().map(|n| n.to_string()).collect(),
            tls: self.tls.is_some(),
            unauthorized: self.unauthorized.load(Ordering::Relaxed),
            not_allowed: self.not_allowed.load(Ordering::Relaxed),
            ignored_role_headers: self.ignored_roles.load(Ordering::Relaxed),
        }
    }
}
