//! Per-endpoint rate caps: at most N requests per minute to one LLM endpoint over every worker of
//! the store (`rate.endpoint.<endpoint>` in `store_controls`, set with `tuplewright job cap
//! --per-minute N`), beside the concurrency caps of [`super`].
//!
//! The cap is a sliding window held in the store (`endpoint_calls`, schema v11): a call takes its
//! turn in one transaction that drops the rows older than a minute, counts the rest and, below
//! the cap, records its own start. The transactions of one endpoint are serialised — on
//! PostgreSQL by a row lock on the cap's control row (`FOR UPDATE`), on SQLite by its write lock
//! — so two workers racing for the last turn of a minute cannot both get it. A call over the cap
//! waits until the oldest turn of the window is a minute old.

use std::time::{Duration, Instant};

use super::control;
use super::EndpointSlots;
use crate::store::db::{params, Conn, OptionalExt};
use crate::store::{now, stamp, StoreError, Tx};

/// The window a rate cap counts requests over.
pub const WINDOW: Duration = Duration::from_secs(60);

/// The control row holding the rate cap of `endpoint`.
pub fn rate_key(endpoint: &str) -> String {
    format!("rate.endpoint.{endpoint}")
}

fn parse(endpoint: &str, v: &str) -> Result<u32, StoreError> {
    v.parse::<u32>().map_err(|_| {
        StoreError::Invalid(format!(
            "store control {} holds `{v}`, not a whole number of requests per minute",
            rate_key(endpoint)
        ))
    })
}

/// The cap on requests per minute to `endpoint`, if one is set.
pub fn rate(conn: &Conn, endpoint: &str) -> Result<Option<u32>, StoreError> {
    control::get(conn, &rate_key(endpoint))?
        .map(|v| parse(endpoint, &v))
        .transpose()
}

/// Sets (`Some`, at least 1) or removes the rate cap of `endpoint`, recording `workers.rate`.
pub fn set_rate(
    tx: &Tx<'_>,
    endpoint: &str,
    per_minute: Option<u32>,
    by: &str,
) -> Result<(), StoreError> {
    if per_minute == Some(0) {
        return Err(StoreError::Invalid(format!(
            "a rate cap on {endpoint} must allow at least 1 request per minute"
        )));
    }
    control::set_or_clear(
        tx,
        &rate_key(endpoint),
        per_minute.map(|n| n.to_string()),
        by,
    )?;
    tx.append_event(
        "workers.rate",
        None,
        &serde_json::json!({"endpoint": endpoint, "per_minute": per_minute, "by": by}),
    )?;
    Ok(())
}

/// Every rate cap set, by endpoint.
pub fn rates(conn: &Conn) -> Result<Vec<(String, String)>, StoreError> {
    conn.query_map(
        "SELECT name, value FROM store_controls WHERE name LIKE 'rate.endpoint.%' ORDER BY name",
        [],
        |r| {
            let name: String = r.get(0)?;
            Ok((name["rate.endpoint.".len()..].to_string(), r.get(1)?))
        },
    )?
    .collect()
}

fn parse_stamp(s: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| t.with_timezone(&chrono::Utc))
}

impl EndpointSlots {
    /// Takes a turn of `endpoint`'s rate cap if the window has room: `Ok(None)` when it has no
    /// rate cap, `Ok(Some(None))` when the turn was taken, `Ok(Some(Some(wait)))` when the window
    /// is full and the oldest turn in it leaves it after `wait`.
    pub fn try_turn(&self, endpoint: &str) -> Result<Option<Option<Duration>>, StoreError> {
        let mut store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        if rate(store.conn(), endpoint)?.is_none() {
            return Ok(None);
        }
        let owner = self.owner.id.clone();
        store.write_with(false, |tx| {
            let c = tx.conn();
            // Serialise the takers of this endpoint (SQLite's write lock already does).
            let sql = format!(
                "SELECT value FROM store_controls WHERE name = ?1{}",
                c.lock_suffix(" FOR UPDATE")
            );
            let Some(v) = c
                .query_row(&sql, params![rate_key(endpoint)], |r| r.get::<String>(0))
                .optional()?
            else {
                return Ok(None); // removed meanwhile
            };
            let cap = parse(endpoint, &v)?;
            let t = chrono::Utc::now();
            let window = chrono::Duration::from_std(WINDOW).unwrap_or(chrono::Duration::MAX);
            let since = stamp(t.checked_sub_signed(window).unwrap_or(t));
            c.execute(
                "DELETE FROM endpoint_calls WHERE endpoint = ?1 AND at <= ?2",
                params![endpoint, since],
            )?;
            let (n, oldest): (i64, Option<String>) = c.query_row(
                "SELECT COUNT(*), MIN(at) FROM endpoint_calls WHERE endpoint = ?1",
                params![endpoint],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            if n >= i64::from(cap) {
                let wait = oldest
                    .as_deref()
                    .and_then(parse_stamp)
                    .and_then(|o| o.checked_add_signed(window))
                    .and_then(|free| (free - t).to_std().ok())
                    .unwrap_or(Duration::from_millis(50));
                return Ok(Some(Some(wait.max(Duration::from_millis(1)))));
            }
            c.execute(
                "INSERT INTO endpoint_calls (endpoint, at, owner) VALUES (?1, ?2, ?3)",
                params![endpoint, now(), owner],
            )?;
            Ok(Some(None))
        })
    }

    /// Waits (up to `patience`) for a turn of `endpoint`'s rate cap; returns at once when it has
    /// none.
    pub fn turn(&self, endpoint: &str, patience: Duration) -> Result<(), StoreError> {
        let deadline = Instant::now() + patience;
        loop {
            match self.try_turn(endpoint)? {
                None | Some(None) => return Ok(()),
                Some(Some(wait)) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(StoreError::Invalid(format!(
                            "no request turn of {endpoint} came free within {} s (rate cap \
                             reached; see `tuplewright job status`)",
                            patience.as_secs()
                        )));
                    }
                    // Look again when the oldest turn leaves the window (or sooner, should the
                    // cap be raised meanwhile).
                    std::thread::sleep(wait.min(left).min(Duration::from_secs(1)));
                }
            }
        }
    }
}
