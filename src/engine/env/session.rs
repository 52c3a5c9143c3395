//! One session's snapshots, the `POST /post` actions, and the JSON bodies of `/go` and
//! `/state`.

use std::str::FromStr;
use std::sync::Arc;

use axum::body::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::apps::App;
use super::merge::merged;
use super::{diff, json_type, EnvError};

/// The actions of `POST /post`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `defaults ⊕ state` becomes both the initial and the current snapshot.
    Set,
    /// `state` replaces the current snapshot only.
    SetCurrent,
    /// `current ⊕ state` becomes the current snapshot.
    Merge,
    /// Both snapshots back to the defaults; uploads deleted; `has_custom_state` false.
    Reset,
}

impl Action {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Set => "set",
            Action::SetCurrent => "set_current",
            Action::Merge => "merge",
            Action::Reset => "reset",
        }
    }
}

impl FromStr for Action {
    type Err = EnvError;
    fn from_str(s: &str) -> Result<Action, EnvError> {
        match s {
            "set" => Ok(Action::Set),
            "set_current" => Ok(Action::SetCurrent),
            "merge" => Ok(Action::Merge),
            "reset" => Ok(Action::Reset),
            other => Err(EnvError::UnknownAction(other.to_string())),
        }
    }
}

/// The on-disk form of a session. `None` snapshots stand for the app's default seed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SessionFile {
    pub version: u32,
    pub has_custom_state: bool,
    pub initial: Option<Value>,
    pub current: Option<Value>,
}

/// A session's snapshots as held in memory.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The initial snapshot (s_init side of the diff).
    pub initial: Arc<Value>,
    /// The current snapshot.
    pub current: Arc<Value>,
    /// Whether a write other than `reset` has happened since creation or the last reset.
    pub has_custom_state: bool,
    /// Hash of the current snapshot.
    pub state_id: String,
}

/// Hash of a snapshot: the first 128 bits of SHA-256 over its JSON text, hex-encoded.
pub fn state_id(value: &Value) -> String {
    let text = serde_json::to_vec(value).unwrap_or_default();
    hex::encode(&Sha256::digest(&text)[..16])
}

impl Snapshot {
    /// The fresh session of an app: both snapshots are the default seed.
    pub fn defaults(app: &App, seed_id: &str) -> Snapshot {
        Snapshot {
            initial: app.seed.clone(),
            current: app.seed.clone(),
            has_custom_state: false,
            state_id: seed_id.to_string(),
        }
    }

    /// Rebuilds from the disk form.
    pub(crate) fn from_file(app: &App, seed_id: &str, file: SessionFile) -> Snapshot {
        let initial = file
            .initial
            .map(Arc::new)
            .unwrap_or_else(|| app.seed.clone());
        let (current, state_id) = match file.current {
            Some(v) => {
                let id = state_id(&v);
                (Arc::new(v), id)
            }
            None => (app.seed.clone(), seed_id.to_string()),
        };
        Snapshot {
            initial,
            current,
            has_custom_state: file.has_custom_state,
            state_id,
        }
    }

    /// The disk form (default snapshots stored as `null`).
    pub(crate) fn to_file(&self, app: &App) -> SessionFile {
        let keep = |v: &Arc<Value>| (!Arc::ptr_eq(v, &app.seed)).then(|| (**v).clone());
        SessionFile {
            version: 1,
            has_custom_state: self.has_custom_state,
            initial: keep(&self.initial),
            current: keep(&self.current),
        }
    }

    /// Applies an action; `state` must be an object for every action but `reset`.
    pub fn apply(
        &mut self,
        app: &App,
        seed_id: &str,
        action: Action,
        state: Option<Value>,
    ) -> Result<(), EnvError> {
        let state = match (action, state) {
            (Action::Reset, _) => None,
            (_, Some(v @ Value::Object(_))) => Some(v),
            (_, Some(other)) => return Err(EnvError::StateNotObject(json_type(&other))),
            (_, None) => return Err(EnvError::StateNotObject("nothing (missing `state`)")),
        };
        match (action, state) {
            (Action::Reset, _) => *self = Snapshot::defaults(app, seed_id),
            (Action::Set, Some(s)) => {
                let v = Arc::new(merged(&app.seed, s));
                self.initial = v.clone();
                self.current = v;
                self.has_custom_state = true;
            }
            (Action::SetCurrent, Some(s)) => {
                self.current = Arc::new(s);
                self.has_custom_state = true;
            }
            (Action::Merge, Some(s)) => {
                self.current = Arc::new(merged(&self.current, s));
                self.has_custom_state = true;
            }
            (_, None) => {}
        }
        if !Arc::ptr_eq(&self.current, &app.seed) {
            self.state_id = state_id(&self.current);
        }
        Ok(())
    }

    /// The body of `GET /go`.
    pub fn go_body(&self, app: &App, sid: &str) -> Bytes {
        let d = diff::diff(&self.initial, &self.current, &app.mask);
        let body = json!({
            "sid": sid,
            "state_id": self.state_id,
            "initial_state": &*self.initial,
            "current_state": &*self.current,
            "state_diff": d.state_diff,
            "changes": d.changes,
        });
        Bytes::from(serde_json::to_vec(&body).unwrap_or_default())
    }

    /// The body of `GET /state`.
    pub fn state_body(&self, sid: &str) -> Bytes {
        let body = json!({
            "stored_state": &*self.current,
            "has_custom_state": self.has_custom_state,
            "sid": sid,
            "state_id": self.state_id,
        });
        Bytes::from(serde_json::to_vec(&body).unwrap_or_default())
    }
}
