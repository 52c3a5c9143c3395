//! Who may do what through the state API: the role rules and session-id pinning the host-side
//! forwarder enforces before anything reaches the server (which checks the same role header again).
//!
//! Every role may read (`GET /health`, `GET /go`, `GET /state`, `GET /files/<sid>/<name>`): a golden
//! patch needs the current state to patch it, and a setup script may verify what it wrote. Writes are
//! per role: `setup` may `POST /post` with `set|reset|set_current|merge` and `POST /upload`; `golden`
//! may `POST /post` with `set_current|merge` and `POST /upload`; `reader` (reward scripts and anything
//! on the Discriminator's side) may not write at all. Everything else (`DELETE /session`, unknown
//! paths) is refused for every role. Every request that names a session must name only the
//! environment's own sid.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The role a script runs in; decides what it may do through the state API and to the home dir.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// `initial_setup.py`: injects the initial state (`set`, `reset`, ...); home writable.
    Setup,
    /// `golden_patch.py`: moves the current state (`set_current`, `merge`); home writable.
    Golden,
    /// `reward.py` and the Discriminator side: read only (API reads; home bound read-only).
    Reader,
}

impl Role {
    /// The value of the `X-Tuplewright-Role` header.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Setup => "setup",
            Role::Golden => "golden",
            Role::Reader => "reader",
        }
    }

    /// Whether the role may write files in the environment's home directory.
    pub fn writes_home(self) -> bool {
        !matches!(self, Role::Reader)
    }

    /// The `POST /post` actions the role may send.
    pub fn allowed_actions(self) -> &'static [&'static str] {
        match self {
            Role::Setup => &["set", "reset", "set_current", "merge"],
            Role::Golden => &["set_current", "merge"],
            Role::Reader => &[],
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "setup" => Ok(Role::Setup),
            "golden" => Ok(Role::Golden),
            "reader" => Ok(Role::Reader),
            other => Err(format!(
                "unknown role `{other}` (expected setup, golden or reader)"
            )),
        }
    }
}

/// The name of the header carrying the role to the server.
pub const ROLE_HEADER: &str = "x-tuplewright-role";

/// One request as the policy sees it.
#[derive(Debug, Clone, Copy)]
pub struct RequestView<'a> {
    /// HTTP method, upper case.
    pub method: &'a str,
    /// Raw path (no query).
    pub path: &'a str,
    /// Every `sid` value in the query string, in order.
    pub query_sids: &'a [String],
    /// For `POST /post`: the `action` of the JSON body, if it has one.
    pub action: Option<&'a str>,
}

/// Decide whether `role` may send `req` for the environment whose session id is `env_sid`.
/// `Err` carries the human-readable reason the request is refused.
pub fn check(role: Role, env_sid: &str, req: &RequestView<'_>) -> Result<(), String> {
    let method = req.method;
    let path = req.path;
    if method == "GET" && path == "/health" {
        return Ok(());
    }
    let is_read = method == "GET" && (path == "/go" || path == "/state");
    let file_sid = if method == "GET" {
        files_path_sid(path)?
    } else {
        None
    };
    let is_write = method == "POST" && (path == "/post" || path == "/upload");
    if !is_read && !is_write && file_sid.is_none() {
        return Err(format!(
            "{method} {path} is not part of the state API a sandboxed script may use"
        ));
    }
    if let Some(sid) = file_sid {
        return pin(env_sid, std::iter::once(sid));
    }
    pin(env_sid, req.query_sids.iter().map(String::as_str))?;
    if is_read {
        return Ok(());
    }
    if role == Role::Reader {
        return Err(format!(
            "role `reader` is read-only: {method} {path} is a write"
        ));
    }
    if path == "/upload" {
        return Ok(());
    }
    match req.action {
        Some(action) if role.allowed_actions().contains(&action) => Ok(()),
        Some(action) => Err(format!(
            "role `{role}` may not send action `{action}` (allowed: {})",
            role.allowed_actions().join(", ")
        )),
        None => Err("POST /post body has no string `action`".to_string()),
    }
}

fn pin<'a>(env_sid: &str, mut sids: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = false;
    for sid in sids.by_ref() {
        if sid != env_sid {
            return Err(format!(
                "this sandbox is pinned to sid `{env_sid}`; refused sid `{sid}`"
            ));
        }
        seen = true;
    }
    if seen {
        Ok(())
    } else {
        Err(format!(
            "missing `sid` query parameter (this sandbox is pinned to sid `{env_sid}`)"
        ))
    }
}

/// For `/files/<sid>/<name>`, the sid segment; `Err` for a traversal attempt.
fn files_path_sid(path: &str) -> Result<Option<&str>, String> {
    let Some(rest) = path.strip_prefix("/files/") else {
        return Ok(None);
    };
    let lower = rest.to_ascii_lowercase();
    if lower.contains("%2e")
        || lower.contains("%2f")
        || lower.contains("%5c")
        || rest.contains('\\')
    {
        return Err(format!("encoded path separators are refused in {path}"));
    }
    let mut parts = rest.split('/');
    let sid = parts.next().unwrap_or("");
    let name: Vec<&str> = parts.collect();
    if sid.is_empty()
        || name.is_empty()
        || name.iter().any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return Err(format!(
            "malformed file path {path} (expected /files/<sid>/<name>)"
        ));
    }
    Ok(Some(sid))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req<'a>(
        method: &'a str,
        path: &'a str,
        sids: &'a [String],
        action: Option<&'a str>,
    ) -> RequestView<'a> {
        RequestView {
            method,
            path,
            query_sids: sids,
            action,
        }
    }

    #[test]
    fn write_actions_follow_the_role_matrix() {
        let s = vec!["e1".to_string()];
        for (role, action, ok) in [
            (Role::Setup, "set", true),
            (Role::Setup, "reset", true),
            (Role::Setup, "set_current", true),
            (Role::Setup, "merge", true),
            (Role::Golden, "set", false),
            (Role::Golden, "reset", false),
            (Role::Golden, "set_current", true),
            (Role::Golden, "merge", true),
            (Role::Reader, "merge", false),
            (Role::Setup, "drop_tables", false),
        ] {
            let got = check(role, "e1", &req("POST", "/post", &s, Some(action)));
            assert_eq!(got.is_ok(), ok, "{role} {action}: {got:?}");
        }
        assert!(check(Role::Setup, "e1", &req("POST", "/post", &s, None)).is_err());
        assert!(check(Role::Reader, "e1", &req("POST", "/upload", &s, None)).is_err());
        assert!(check(Role::Golden, "e1", &req("POST", "/upload", &s, None)).is_ok());
    }

    #[test]
    fn reads_need_the_pinned_sid_except_health() {
        let mine = vec!["e1".to_string()];
        let other = vec!["e2".to_string()];
        let both = vec!["e1".to_string(), "e2".to_string()];
        assert!(check(Role::Reader, "e1", &req("GET", "/health", &[], None)).is_ok());
        assert!(check(Role::Reader, "e1", &req("GET", "/go", &mine, None)).is_ok());
        assert!(check(Role::Reader, "e1", &req("GET", "/go", &other, None)).is_err());
        assert!(check(Role::Reader, "e1", &req("GET", "/go", &both, None)).is_err());
        assert!(check(Role::Reader, "e1", &req("GET", "/state", &[], None)).is_err());
        assert!(check(
            Role::Reader,
            "e1",
            &req("GET", "/files/e1/a.csv", &[], None)
        )
        .is_ok());
        assert!(check(
            Role::Reader,
            "e1",
            &req("GET", "/files/e2/a.csv", &[], None)
        )
        .is_err());
        assert!(check(
            Role::Reader,
            "e1",
            &req("GET", "/files/e1/../e2/a", &[], None)
        )
        .is_err());
        assert!(check(
            Role::Reader,
            "e1",
            &req("GET", "/files/e1/%2E%2E", &[], None)
        )
        .is_err());
        assert!(check(Role::Reader, "e1", &req("GET", "/files/e1/", &[], None)).is_err());
    }

    #[test]
    fn other_endpoints_and_methods_are_refused() {
        let s = vec!["e1".to_string()];
        assert!(check(Role::Setup, "e1", &req("DELETE", "/session", &s, None)).is_err());
        assert!(check(Role::Setup, "e1", &req("GET", "/post", &s, None)).is_err());
        assert!(check(Role::Setup, "e1", &req("POST", "/go", &s, None)).is_err());
        assert!(check(Role::Setup, "e1", &req("GET", "/go/", &s, None)).is_err());
        assert!(check(Role::Setup, "e1", &req("GET", "//go", &s, None)).is_err());
        assert_eq!("golden".parse::<Role>(), Ok(Role::Golden));
        assert!("admin".parse::<Role>().is_err());
    }
}
