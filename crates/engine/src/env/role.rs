//! Access by role, set by the sandboxed script runner in the `X-Tuplewright-Role` header
//! (overwriting whatever the script sent). The header reaches the handlers only with the
//! process's forwarder secret (`engine::access::forwarder`; the access guard drops it otherwise),
//! so a network client never picks its role. No header means the host-side engine (or the token
//! holder off loopback): full access.

use std::fmt;

/// The header the script runner sets on every forwarded request.
pub const ROLE_HEADER: &str = "x-tuplewright-role";

/// The role of the script whose request this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `initial_setup.py`: `set`, `reset`, `set_current`, `merge`, uploads, reads.
    Setup,
    /// `golden_patch.py`: `set_current`, `merge`, uploads, reads.
    Golden,
    /// `reward.py` and the Discriminator's side: reads only.
    Reader,
    /// The host-side engine (no header): everything.
    Engine,
}

impl Role {
    /// Parses the header value; `None` for an unknown value (which is refused, fail closed).
    pub fn from_header(value: Option<&str>) -> Option<Role> {
        match value.map(str::trim) {
            None => Some(Role::Engine),
            Some(v) if v.eq_ignore_ascii_case("setup") => Some(Role::Setup),
            Some(v) if v.eq_ignore_ascii_case("golden") => Some(Role::Golden),
            Some(v) if v.eq_ignore_ascii_case("reader") => Some(Role::Reader),
            Some(_) => None,
        }
    }

    /// Whether this role may perform `POST /post` with the given action.
    pub fn may_post(self, action: &str) -> bool {
        match self {
            Role::Engine => true,
            Role::Setup => matches!(action, "set" | "reset" | "set_current" | "merge"),
            Role::Golden => matches!(action, "set_current" | "merge"),
            Role::Reader => false,
        }
    }

    /// Whether this role may upload files.
    pub fn may_upload(self) -> bool {
        !matches!(self, Role::Reader)
    }

    /// Whether this role may delete a whole session.
    pub fn may_delete(self) -> bool {
        matches!(self, Role::Engine)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Setup => "setup",
            Role::Golden => "golden",
            Role::Reader => "reader",
            Role::Engine => "engine",
        })
    }
}
