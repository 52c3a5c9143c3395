//! The append-only event log: `events(seq, time, kind, task_id, payload)`.
//!
//! The engine appends an event through the same [`Tx`] as the change it describes, so the event
//! exists exactly when the change does. A face in another process follows a run by polling
//! [`Store::events_after`] with the last `seq` it has seen.

use super::db::params;
use serde::Serialize;

use super::{now, Result, Store, Tx};

/// One stored event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    /// Monotonic sequence number (never reused).
    pub seq: i64,
    /// When (RFC 3339 UTC).
    pub time: String,
    /// Dotted kind, e.g. `task.imported`, `round.recorded`, `decision`.
    pub kind: String,
    /// The task concerned, if any.
    pub task_id: Option<String>,
    /// Kind-specific detail.
    pub payload: serde_json::Value,
}

impl Tx<'_> {
    /// Appends an event; returns its `seq`.
    pub fn append_event(
        &self,
        kind: &str,
        task_id: Option<&str>,
        payload: &serde_json::Value,
    ) -> Result<i64> {
        // On PostgreSQL the seq must be taken under the store-wide write lock, so that events
        // commit in seq order (a follower reading `seq > last` never skips one).
        self.tx.write_lock()?;
        self.tx
            .prepare_cached(
                "INSERT INTO events (time, kind, task_id, payload) VALUES (?1, ?2, ?3, ?4) \
                 RETURNING seq",
            )?
            .query_row(params![now(), kind, task_id, compact(payload)], |r| {
                r.get(0)
            })
    }
}

/// The payload as compact JSON, exactly what `serde_json::to_string` writes. Through `Value`'s
/// `Display`, which serde_json compiles itself: `to_string::<Value>` is instantiated in this
/// crate, and unoptimised (the dev profile) it was two fifths of appending an event in a bulk
/// decision's profile (issue #33).
fn compact(payload: &serde_json::Value) -> String {
    payload.to_string()
}

impl Store {
    /// Up to `limit` events with `seq > after`, in order.
    pub fn events_after(&self, after: i64, limit: usize) -> Result<Vec<Event>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT seq, time, kind, task_id, payload FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2",
        )?;
        let rows: Vec<(Event, String)> = stmt
            .query_map(params![after, limit as i64], |r| {
                Ok((
                    Event {
                        seq: r.get(0)?,
                        time: r.get(1)?,
                        kind: r.get(2)?,
                        task_id: r.get(3)?,
                        payload: serde_json::Value::Null,
                    },
                    r.get(4)?,
                ))
            })?
            .collect::<Result<_>>()?;
        rows.into_iter()
            .map(|(mut e, p)| {
                e.payload = serde_json::from_str(&p)?;
                Ok(e)
            })
            .collect()
    }

    /// The highest `seq` so far (0 when empty).
    pub fn last_event_seq(&self) -> Result<i64> {
        self.conn
            .query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))
    }
}
