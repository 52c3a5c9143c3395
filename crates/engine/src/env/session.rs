//! One session's snapshots, the `POST /post` actions, and the JSON bodies of `/go` and
//! `/state`.
//!
//! Each snapshot is kept as its compact JSON only (computed once per write; parsed again when a
//! merge or a diff needs the value): the `state_id` hashes those bytes, and response bodies and
//! the session file are assembled from them without re-serializing megabytes of state.

use std::borrow::Cow;
use std::str::FromStr;

use axum::body::Bytes;
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::apps::App;
use super::merge::merged;
use super::post_body;
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
/// A session file as stored: its two snapshots borrowed as their JSON texts, never parsed into
/// values (a cold read copies the texts instead of parsing and re-serializing megabytes).
#[derive(Debug, Deserialize)]
struct SessionFile<'a> {
    #[allow(dead_code)]
    #[serde(default)]
    version: u32,
    has_custom_state: bool,
    #[serde(borrow)]
    initial: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow)]
    current: Option<&'a serde_json::value::RawValue>,
}

/// One snapshot, held as its compact JSON text only: parsing happens when a merge or a diff
/// needs the value, so a cached session costs about its JSON size, in few large allocations
/// the allocator can give back.
#[derive(Debug, Clone)]
pub struct State {
    /// Its compact JSON text.
    pub json: Bytes,
    /// Whether this is the app's default seed (stored as `null` in the session file).
    seed: bool,
}

impl State {
    fn new(value: &Value) -> State {
        State {
            json: Bytes::from(serde_json::to_vec(value).unwrap_or_default()),
            seed: false,
        }
    }

    /// A stored JSON text, kept as it is when it is compact.
    fn from_raw(raw: &serde_json::value::RawValue) -> Result<State, serde_json::Error> {
        let text = raw.get().as_bytes();
        if text.iter().any(|b| matches!(b, b'\n' | b'\r' | b'\t')) {
            let value: Value = serde_json::from_slice(text)?;
            return Ok(State::new(&value));
        }
        Ok(State {
            json: Bytes::copy_from_slice(text),
            seed: false,
        })
    }

    fn seed(app: &App) -> State {
        State {
            json: app.seed_json.clone(),
            seed: true,
        }
    }

    /// The parsed value.
    pub fn value(&self) -> Result<Value, EnvError> {
        serde_json::from_slice(&self.json).map_err(|e| EnvError::BadApp {
            app: "<session>".into(),
            detail: format!("cached state does not parse: {e}"),
        })
    }

    /// The parsed value, borrowing the app's parsed seed when it is the seed.
    fn value_in<'a>(&self, app: &'a App) -> Result<Cow<'a, Value>, EnvError> {
        if self.seed {
            Ok(Cow::Borrowed(app.seed.as_ref()))
        } else {
            self.value().map(Cow::Owned)
        }
    }

    /// The JSON stored in the session file: `null` for the app's seed.
    fn file_part(&self) -> &[u8] {
        if self.seed {
            b"null"
        } else {
            &self.json
        }
    }

    /// Bytes of memory this state holds of its own (the seed is the app's, shared).
    pub fn held_bytes(&self) -> u64 {
        if self.seed {
            0
        } else {
            self.json.len() as u64
        }
    }
}

/// An action with everything computed that does not depend on the session's current state
/// (the new snapshot's JSON text and hash for `set` and `set_current`), so that a writer holds
/// the session's lock only for what does.
#[derive(Debug)]
pub struct Prepared(Change);

#[derive(Debug)]
enum Change {
    Set(State, String),
    SetCurrent(State, String),
    Merge(Value),
    Reset,
}

impl Prepared {
    /// [`Prepared::new`] from the state's JSON text as a client sent it: `set_current` keeps
    /// the text (without its whitespace) instead of parsing it into a tree and writing it back;
    /// the other actions parse it.
    /// `state` is a member of `body`; when it is already compact the snapshot shares `body`'s
    /// buffer (see [`post_body::compact_in`]).
    pub fn from_raw(
        app: &App,
        action: Action,
        state: Option<post_body::RawState>,
        body: &Bytes,
    ) -> Result<Prepared, EnvError> {
        match (action, state) {
            (Action::SetCurrent, Some(raw)) if raw.text.starts_with('{') => {
                let json = post_body::compact_in(body, raw);
                let id = state_id(&json);
                Ok(Prepared(Change::SetCurrent(
                    State { json, seed: false },
                    id,
                )))
            }
            (Action::Reset, _) => Ok(Prepared(Change::Reset)),
            (_, Some(raw)) if !raw.text.starts_with('{') => {
                Err(EnvError::StateNotObject(post_body::raw_type(raw)))
            }
            (_, raw) => Prepared::new(app, action, raw.map(post_body::value_of).transpose()?),
        }
    }

    /// Whether this is a `reset` (which also deletes the session's uploads).
    pub fn is_reset(&self) -> bool {
        matches!(self.0, Change::Reset)
    }

    /// Checks `state` (an object for every action but `reset`) and computes what it can.
    pub fn new(app: &App, action: Action, state: Option<Value>) -> Result<Prepared, EnvError> {
        let state = match (action, state) {
            (Action::Reset, _) => return Ok(Prepared(Change::Reset)),
            (_, Some(v @ Value::Object(_))) => v,
            (_, Some(other)) => return Err(EnvError::StateNotObject(json_type(&other))),
            (_, None) => return Err(EnvError::StateNotObject("nothing (missing `state`)")),
        };
        let fresh = |v: &Value| {
            let s = State::new(v);
            let id = state_id(&s.json);
            (s, id)
        };
        Ok(Prepared(match action {
            Action::Set => {
                let (s, id) = fresh(&merged(&app.seed, state));
                Change::Set(s, id)
            }
            Action::SetCurrent => {
                let (s, id) = fresh(&state);
                Change::SetCurrent(s, id)
            }
            Action::Merge => Change::Merge(state),
            Action::Reset => Change::Reset,
        }))
    }
}

/// The parts of a `GET /go` body computed per state: everything but the two snapshot texts,
/// which the body references instead of copying.
#[derive(Debug, Clone)]
pub struct GoParts {
    /// `{"sid":…,"state_id":…,"initial_state":`
    pub head: Bytes,
    /// `,"state_diff":…,"changes":…}`
    pub tail: Bytes,
}

/// Between the two snapshot texts of a `/go` body.
const GO_MID: &[u8] = b",\"current_state\":";

impl GoParts {
    /// Bytes of memory the parts hold.
    pub fn held_bytes(&self) -> u64 {
        (self.head.len() + self.tail.len()) as u64
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

    /// Rebuilds a session from the bytes of its file (as [`Snapshot::file_bytes`] wrote them).
    ///
    /// The snapshot texts are taken as they are stored (the server wrote them compact), so a
    /// cold read costs a scan and a copy, not a parse and a re-serialization; a text with line
    /// breaks or tabs (a file edited by hand) is normalised to compact JSON first.
    pub(crate) fn from_file_bytes(app: &App, bytes: &[u8]) -> Result<Snapshot, serde_json::Error> {
        let file: SessionFile<'_> = serde_json::from_slice(bytes)?;
        let initial = file.initial.map(State::from_raw).transpose()?;
        let current = file.current.map(State::from_raw).transpose()?;
        let had_initial = initial.is_some();
        let initial = initial.unwrap_or_else(|| State::seed(app));
        // After `set` the two snapshots are equal: share one buffer.
        let current = match current {
            Some(c) if had_initial && c.json == initial.json => initial.clone(),
            Some(c) => c,
            None => State::seed(app),
        };
        Ok(Snapshot {
            state_id: state_id(&current.json),
            initial,
            current,
            has_custom_state: file.has_custom_state,
        })
    }

    /// The disk form as JSON bytes (default snapshots stored as `null`).
    pub(crate) fn file_bytes(&self, app: &App) -> Vec<u8> {
        let _ = app;
        let (i, c) = (self.initial.file_part(), self.current.file_part());
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
        let prepared = Prepared::new(app, action, state)?;
        self.apply_prepared(app, prepared)
    }

    /// Applies an action whose new state was computed beforehand.
    pub fn apply_prepared(&mut self, app: &App, prepared: Prepared) -> Result<(), EnvError> {
        match prepared.0 {
            Change::Reset => *self = Snapshot::defaults(app),
            Change::Set(v, id) => {
                self.initial = v.clone();
                self.current = v;
                self.has_custom_state = true;
                self.state_id = id;
            }
            Change::SetCurrent(v, id) => {
                self.current = v;
                self.has_custom_state = true;
                self.state_id = id;
            }
            Change::Merge(s) => {
                let base = self.current.value_in(app)?;
                self.current = State::new(&merged(&base, s));
                self.has_custom_state = true;
                self.state_id = state_id(&self.current.json);
            }
        }
        Ok(())
    }

    /// The per-state parts of the `GET /go` body `{sid, state_id, initial_state,
    /// current_state, state_diff, changes}` (the diff is computed here).
    pub fn go_parts(&self, app: &App, sid: &str) -> Result<GoParts, EnvError> {
        let (initial, current) = (self.initial.value_in(app)?, self.current.value_in(app)?);
        let d = diff::diff(&initial, &current, &app.mask);
        let mut head = Vec::with_capacity(128);
        head_of(&mut head, sid, &self.state_id);
        head.extend_from_slice(b",\"initial_state\":");
        let mut tail = b",\"state_diff\":".to_vec();
        let _ = serde_json::to_writer(&mut tail, &d.state_diff);
        tail.extend_from_slice(b",\"changes\":");
        let _ = serde_json::to_writer(&mut tail, &d.changes);
        tail.push(b'}');
        Ok(GoParts {
            head: Bytes::from(head),
            tail: Bytes::from(tail),
        })
    }

    /// The per-state parts of the `GET /go` body around a tail computed before (the diff of these
    /// same two snapshots, kept on disk while the session was evicted).
    pub fn go_parts_with_tail(&self, sid: &str, tail: Bytes) -> GoParts {
        let mut head = Vec::with_capacity(128);
        head_of(&mut head, sid, &self.state_id);
        head.extend_from_slice(b",\"initial_state\":");
        GoParts {
            head: Bytes::from(head),
            tail,
        }
    }

    /// The `GET /go` body as its five parts (no snapshot text is copied).
    pub fn go_chunks(&self, parts: &GoParts) -> [Bytes; 5] {
        [
            parts.head.clone(),
            self.initial.json.clone(),
            Bytes::from_static(GO_MID),
            self.current.json.clone(),
            parts.tail.clone(),
        ]
    }

    /// Bytes of memory the two snapshots hold (once when they share a buffer).
    pub fn held_bytes(&self) -> u64 {
        let shared = self.initial.json.as_ptr() == self.current.json.as_ptr();
        self.initial.held_bytes() + if shared { 0 } else { self.current.held_bytes() }
    }

    /// The body of `GET /state`: `{sid, state_id, stored_state, has_custom_state}`.
    pub fn state_body(&self, sid: &str) -> Bytes {
        let mut out = Vec::with_capacity(self.current.json.len() + 160);
        head_of(&mut out, sid, &self.state_id);
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
fn head_of(out: &mut Vec<u8>, sid: &str, state_id: &str) {
    out.extend_from_slice(b"{\"sid\":");
    let _ = serde_json::to_writer(&mut *out, sid);
    out.extend_from_slice(b",\"state_id\":");
    let _ = serde_json::to_writer(&mut *out, state_id);
}
