//! One session's snapshots, the `POST /post` actions, and the JSON bodies of `/go` and
//! `/state`.
//!
//! Each snapshot is kept both parsed (for diffs and merges) and serialized (compact JSON,
//! computed once per write): the `state_id` hashes those bytes, and response bodies and the
//! session file are assembled from them without re-serializing megabytes of state.

use std::str::FromStr;
use std::sync::Arc;

use axum::body::Bytes;
use serde::Deserialize;
use serde_json::Value;
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
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct SessionFile {
    #[allow(dead_code)]
    pub version: u32,
    pub has_custom_state: bool,
    pub initial: Option<Value>,
    pub current: Option<Value>,
}

/// One snapshot: parsed and serialized.
#[derive(Debug, Clone)]
pub struct State {
    /// The parsed value.
    pub value: Arc<Value>,
    /// Its compact JSON text.
    pub json: Bytes,
}

impl State {
    fn new(value: Value) -> State {
        let json = Bytes::from(serde_json::to_vec(&value).unwrap_or_default());
        State {
            value: Arc::new(value),
            json,
        }
    }

    fn seed(app: &App) -> State {
        State {
            value: app.seed.clone(),
            json: app.seed_json.clone(),
        }
    }

    /// The JSON stored in the session file: `null` for the app's seed.
    fn file_part(&self, app: &App) -> &[u8] {
        if Arc::ptr_eq(&self.value, &app.seed) {
            b"null"
        } else {
            &self.json
        }
    }
}

/// A session's snapshots as held in memory.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The initial snapshot (s_init side of the diff).
    pub initial: State,
    /// The current snapshot.
    pub current: State,
    /// Whether a write other than `reset` has happened since creation or the last reset.
    pub has_custom_state: bool,
    /// Hash of the current snapshot.
    pub state_id: String,
}

/// Hash of a snapshot's compact JSON: the first 128 bits of SHA-256, hex-encoded.
pub fn state_id(json: &[u8]) -> String {
    hex::encode(&Sha256::digest(json)[..16])
}

impl Snapshot {
    /// The fresh session of an app: both snapshots are the default seed.
    pub fn defaults(app: &App) -> Snapshot {
        Snapshot {
            initial: State::seed(app),
            current: State::seed(app),
            has_custom_state: false,
            state_id: app.seed_id.clone(),
        }
    }

    /// Rebuilds from the disk form.
    pub(crate) fn from_file(app: &App, file: SessionFile) -> Snapshot {
        let initial = file
            .initial
            .map(State::new)
            .unwrap_or_else(|| State::seed(app));
        let current = file
            .current
            .map(State::new)
            .unwrap_or_else(|| State::seed(app));
        Snapshot {
            state_id: state_id(&current.json),
            initial,
            current,
            has_custom_state: file.has_custom_state,
        }
    }

    /// The disk form as JSON bytes (default snapshots stored as `null`).
    pub(crate) fn file_bytes(&self, app: &App) -> Vec<u8> {
        let (i, c) = (self.initial.file_part(app), self.current.file_part(app));
        let mut out = Vec::with_capacity(i.len() + c.len() + 80);
        out.extend_from_slice(b"{\"version\":1,\"has_custom_state\":");
        out.extend_from_slice(if self.has_custom_state {
            b"true"
        } else {
            b"false"
        });
        out.extend_from_slice(b",\"initial\":");
        out.extend_from_slice(i);
        out.extend_from_slice(b",\"current\":");
        out.extend_from_slice(c);
        out.push(b'}');
        out
    }

    /// Applies an action; `state` must be an object for every action but `reset`.
    pub fn apply(
        &mut self,
        app: &App,
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
            (Action::Reset, _) => *self = Snapshot::defaults(app),
            (Action::Set, Some(s)) => {
                let v = State::new(merged(&app.seed, s));
                self.initial = v.clone();
                self.current = v;
                self.has_custom_state = true;
            }
            (Action::SetCurrent, Some(s)) => {
                self.current = State::new(s);
                self.has_custom_state = true;
            }
            (Action::Merge, Some(s)) => {
                self.current = State::new(merged(&self.current.value, s));
                self.has_custom_state = true;
            }
            (_, None) => {}
        }
        self.state_id = state_id(&self.current.json);
        Ok(())
    }

    /// The body of `GET /go`: `{sid, state_id, initial_state, current_state, state_diff,
    /// changes}`, assembled from the cached snapshot texts.
    pub fn go_body(&self, app: &App, sid: &str) -> Bytes {
        let d = diff::diff(&self.initial.value, &self.current.value, &app.mask);
        let diff_json = serde_json::to_vec(&d.state_diff).unwrap_or_default();
        let changes_json = serde_json::to_vec(&d.changes).unwrap_or_default();
        let mut out = Vec::with_capacity(
            self.initial.json.len()
                + self.current.json.len()
                + diff_json.len()
                + changes_json.len()
                + 256,
        );
        head(&mut out, sid, &self.state_id);
        out.extend_from_slice(b",\"initial_state\":");
        out.extend_from_slice(&self.initial.json);
        out.extend_from_slice(b",\"current_state\":");
        out.extend_from_slice(&self.current.json);
        out.extend_from_slice(b",\"state_diff\":");
        out.extend_from_slice(&diff_json);
        out.extend_from_slice(b",\"changes\":");
        out.extend_from_slice(&changes_json);
        out.push(b'}');
        Bytes::from(out)
    }

    /// The body of `GET /state`: `{sid, state_id, stored_state, has_custom_state}`.
    pub fn state_body(&self, sid: &str) -> Bytes {
        let mut out = Vec::with_capacity(self.current.json.len() + 160);
        head(&mut out, sid, &self.state_id);
        out.extend_from_slice(b",\"stored_state\":");
        out.extend_from_slice(&self.current.json);
        out.extend_from_slice(b",\"has_custom_state\":");
        out.extend_from_slice(if self.has_custom_state {
            b"true"
        } else {
            b"false"
        });
        out.push(b'}');
        Bytes::from(out)
    }
}

/// `{"sid":…,"state_id":…` (sids and ids are plain ASCII, but encode them properly anyway).
fn head(out: &mut Vec<u8>, sid: &str, state_id: &str) {
    out.extend_from_slice(b"{\"sid\":");
    let _ = serde_json::to_writer(&mut *out, sid);
    out.extend_from_slice(b",\"state_id\":");
    let _ = serde_json::to_writer(&mut *out, state_id);
}
