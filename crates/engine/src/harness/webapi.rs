//! One web app of an environment and the sessions behind it: a built-in app's in-process session
//! store, or an external app ([`crate::openenv::external`]) reached over its own state-API
//! dialect. The harness reads and writes probe states, snapshots and teardown through this one
//! interface, with states in tuplewright's form either way.

use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::env::session::Action;
use crate::env::SessionStore;
use crate::openenv::{ExternalApp, StateSchema};

/// Where an app's sessions live.
#[derive(Clone)]
pub enum Backend {
    /// A built-in app served by the embedded state API.
    Builtin(Arc<SessionStore>),
    /// An `[[apps.external]]` app.
    External(Arc<ExternalApp>),
}

/// One web app reachable from an environment.
#[derive(Clone)]
pub struct WebApi {
    /// App name, e.g. `team-chat`.
    pub app: String,
    /// Host-side address of its state API.
    pub addr: SocketAddr,
    /// Its conventional port (what scripts use inside the sandbox).
    pub port: u16,
    /// Its sessions.
    pub backend: Backend,
}

impl WebApi {
    /// The session's current state.
    pub fn current(&self, sid: &str) -> Result<Value, String> {
        match &self.backend {
            Backend::Builtin(s) => {
                let snap = s.snapshot(sid).map_err(|e| e.to_string())?;
                snap.current.value().map_err(|e| e.to_string())
            }
            Backend::External(x) => x.states(sid).map(|(_, current)| current),
        }
    }

    /// The session's current state as JSON text.
    pub fn current_json(&self, sid: &str) -> Result<String, String> {
        match &self.backend {
            Backend::Builtin(s) => {
                let snap = s.snapshot(sid).map_err(|e| e.to_string())?;
                Ok(String::from_utf8_lossy(&snap.current.json).into_owned())
            }
            Backend::External(_) => self.current(sid).map(|v| v.to_string()),
        }
    }

    /// `set` (initial and current) or `set_current` on the session.
    pub fn apply(&self, sid: &str, action: Action, state: Value) -> Result<(), String> {
        match &self.backend {
            Backend::Builtin(s) => s
                .apply(sid, action, Some(state))
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Backend::External(x) => {
                let name = match action {
                    Action::Set => "set",
                    _ => "set_current",
                };
                x.write(sid, name, &state)
            }
        }
    }

    /// The app's default state: what an agent sees with no setup (`{}` for an external app
    /// that declares no `seed`, whose defaults only it knows).
    pub fn seed(&self) -> Value {
        self.declared_seed().unwrap_or_else(|| json!({}))
    }

    /// The app's default state when it is known: a built-in app's seed, an external app's
    /// `seed` file.
    pub fn declared_seed(&self) -> Option<Value> {
        match &self.backend {
            Backend::Builtin(s) => Some((*s.app().seed).clone()),
            Backend::External(x) => x.seed.clone(),
        }
    }

    /// The app's declared state schema (a built-in app's `[state]`, an external app's `state`).
    pub fn declared_schema(&self) -> Option<StateSchema> {
        match &self.backend {
            Backend::Builtin(s) => s.app().manifest.state.clone(),
            Backend::External(x) => x.cfg.state.clone(),
        }
    }

    /// The schema the probes use: the declared one, completed (or, undeclared, inferred) from
    /// the default state and `samples`.
    pub fn schema(&self, samples: &[&Value]) -> StateSchema {
        let seed = self.seed();
        let mut all: Vec<&Value> = vec![&seed];
        all.extend_from_slice(samples);
        self.declared_schema().unwrap_or_default().completed(&all)
    }

    /// Volatile key-path globs of the app.
    pub fn volatile(&self) -> Vec<String> {
        match &self.backend {
            Backend::Builtin(s) => s.app().manifest.volatile.clone(),
            Backend::External(_) => Vec::new(),
        }
    }

    /// Ends the session.
    pub fn delete(&self, sid: &str) -> Result<(), String> {
        match &self.backend {
            Backend::Builtin(s) => s.delete(sid).map(|_| ()).map_err(|e| e.to_string()),
            Backend::External(x) => x.teardown(sid),
        }
    }

    /// Whether this is a built-in app served by this process (not an external one).
    pub fn is_builtin(&self) -> bool {
        matches!(self.backend, Backend::Builtin(_))
    }

    /// Headers the forwarder adds to this app's requests: for a built-in app the process's
    /// forwarder secret (its role header is honoured only with it), for an external one its own.
    pub fn forward_headers(&self) -> Vec<(String, String)> {
        match &self.backend {
            Backend::Builtin(_) => {
                let (k, v) = tuplewright_base::access::forwarder::secret_header();
                vec![(k.to_string(), v)]
            }
            Backend::External(x) => x.forward_headers(),
        }
    }
}
