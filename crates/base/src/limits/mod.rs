//! Limits every worker of a shared store obeys: per-endpoint concurrency caps for the LLM
//! providers, held in the store (`cap.endpoint.<endpoint>` in `store_controls`, set with
//! `tuplewright job cap`), enforced by a counted semaphore of slot leases (`endpoint_slots`,
//! schema v10). A call takes the lowest free slot `0..cap` of its endpoint in one transaction
//! (`INSERT … ON CONFLICT DO NOTHING`, so two processes racing for one slot cannot both win) and
//! deletes it when the call ends. A slot whose lease lapsed (`ttl`), or whose owner process is
//! found dead on the same host, is reclaimed, so a killed worker never holds a slot for long.
//!
//! The endpoint of a provider is its name, `kind:model` (`openai:gpt-4.1-mini`): what a rate
//! limit applies to. [`tuplewright_models::providers::gate`] wires the semaphore into every provider a process builds, and
//! the rate caps of [`rate`] (requests per minute, a sliding window in the store) beside it.

pub mod control;
#[cfg(test)]
mod control_tests;
pub mod rate;
#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::lease::{holder_dead, Owner};
use crate::store::db::{params, Conn};
use crate::store::{now, stamp, Store, StoreError, Tx};

/// The control row holding the cap of `endpoint`.
pub fn cap_key(endpoint: &str) -> String {
    format!("cap.endpoint.{endpoint}")
}

/// The cap on concurrent calls to `endpoint`, if one is set.
pub fn cap(conn: &Conn, endpoint: &str) -> Result<Option<u32>, StoreError> {
    control::get(conn, &cap_key(endpoint))?
        .map(|v| {
            v.parse::<u32>().map_err(|_| {
                StoreError::Invalid(format!(
                    "store control {} holds `{v}`, not a whole number of calls",
                    cap_key(endpoint)
                ))
            })
        })
        .transpose()
}

/// Sets (`Some`, at least 1) or removes the cap of `endpoint`, recording `workers.cap`.
pub fn set_cap(
    tx: &Tx<'_>,
    endpoint: &str,
    calls: Option<u32>,
    by: &str,
) -> Result<(), StoreError> {
    if calls == Some(0) {
        return Err(StoreError::Invalid(format!(
            "a cap on {endpoint} must allow at least 1 call at once"
        )));
    }
    control::set_or_clear(tx, &cap_key(endpoint), calls.map(|n| n.to_string()), by)?;
    tx.append_event(
        "workers.cap",
        None,
        &serde_json::json!({"endpoint": endpoint, "calls": calls, "by": by}),
    )?;
    Ok(())
}

/// Every endpoint cap set, by endpoint.
pub fn caps(conn: &Conn) -> Result<Vec<(String, String)>, StoreError> {
    conn.query_map(
        "SELECT name, value FROM store_controls WHERE name LIKE 'cap.endpoint.%' ORDER BY name",
        [],
        |r| {
            let name: String = r.get(0)?;
            Ok((name["cap.endpoint.".len()..].to_string(), r.get(1)?))
        },
    )?
    .collect()
}

/// One slot held: dropped (or [`EndpointSlots::release`]d) when the call ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// The endpoint.
    pub endpoint: String,
    /// Its index, `0..cap`.
    pub index: u32,
}

/// The slot semaphore of one process on a store (a connection of its own).
pub struct EndpointSlots {
    store: Mutex<Store>,
    owner: Owner,
    ttl: Duration,
    poll: Duration,
}

impl EndpointSlots {
    /// Opens its own connection on the store at `path`; a slot lapses `ttl` after it was taken.
    pub fn open(path: &Path, busy: Duration, ttl: Duration) -> Result<Self, StoreError> {
        Ok(EndpointSlots {
            store: Mutex::new(Store::open(path, busy)?),
            owner: Owner::current(),
            ttl,
            poll: Duration::from_millis(50),
        })
    }

    /// Takes a slot of `endpoint` if it has a cap and a slot is free: `Ok(None)` when the
    /// endpoint is uncapped, `Ok(Some(None))` when every slot is taken.
    pub fn try_take(&self, endpoint: &str) -> Result<Option<Option<Slot>>, StoreError> {
        let mut store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        let Some(cap) = cap(store.conn(), endpoint)? else {
            return Ok(None);
        };
        let me = &self.owner;
        store.write_with(false, |tx| {
            let c = tx.conn();
            let time = now();
            // Reclaim lapsed slots and those of processes found dead on this host.
            let rows: Vec<(u32, String, String, u32, Option<i64>, String)> = c
                .query_map(
                    "SELECT slot, host, boot_id, pid, pid_start, expires_at FROM endpoint_slots \
                     WHERE endpoint = ?1",
                    params![endpoint],
                    |r| {
                        Ok((
                            r.get(0)?,
                            r.get(1)?,
                            r.get(2)?,
                            r.get(3)?,
                            r.get(4)?,
                            r.get(5)?,
                        ))
                    },
                )?
                .collect::<Result<_, _>>()?;
            let mut live = Vec::new();
            for (slot, host, boot, pid, start, expires) in rows {
                let dead = holder_dead(me, &host, &boot, pid, start.map(|v| v as u64));
                if expires.as_str() <= time.as_str() || dead.is_some() {
                    c.execute(
                        "DELETE FROM endpoint_slots WHERE endpoint = ?1 AND slot = ?2",
                        params![endpoint, slot],
                    )?;
                } else {
                    live.push(slot);
                }
            }
            if live.len() >= cap as usize {
                return Ok(Some(None));
            }
            let Some(index) = (0..cap).find(|i| !live.contains(i)) else {
                return Ok(Some(None));
            };
            let ttl = chrono::Duration::from_std(self.ttl).unwrap_or(chrono::Duration::MAX);
            let expires = stamp(
                chrono::Utc::now()
                    .checked_add_signed(ttl)
                    .unwrap_or(chrono::DateTime::<chrono::Utc>::MAX_UTC),
            );
            // Another process may take the same slot meanwhile: then this inserts nothing.
            let n = c.execute(
                "INSERT INTO endpoint_slots (endpoint, slot, owner, host, boot_id, pid, \
                 pid_start, taken_at, expires_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9) \
                 ON CONFLICT (endpoint, slot) DO NOTHING",
                params![
                    endpoint,
                    index,
                    me.id,
                    me.host,
                    me.boot_id,
                    me.pid,
                    me.pid_start.map(|v| v as i64),
                    time,
                    expires
                ],
            )?;
            Ok(Some((n == 1).then(|| Slot {
                endpoint: endpoint.to_string(),
                index,
            })))
        })
    }

    /// Waits (up to `patience`) for a slot of `endpoint`; `Ok(None)` when it is uncapped.
    pub fn take(&self, endpoint: &str, patience: Duration) -> Result<Option<Slot>, StoreError> {
        let deadline = Instant::now() + patience;
        loop {
            match self.try_take(endpoint)? {
                None => return Ok(None),
                Some(Some(slot)) => return Ok(Some(slot)),
                Some(None) if Instant::now() >= deadline => {
                    return Err(StoreError::Invalid(format!(
                        "no call slot of {endpoint} came free within {} s (cap reached; see \
                         `tuplewright job status`)",
                        patience.as_secs()
                    )))
                }
                Some(None) => std::thread::sleep(self.poll),
            }
        }
    }

    /// Gives a slot back.
    pub fn release(&self, slot: &Slot) -> Result<(), StoreError> {
        let mut store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        store.write_with(false, |tx| {
            tx.conn().execute(
                "DELETE FROM endpoint_slots WHERE endpoint = ?1 AND slot = ?2 AND owner = ?3",
                params![slot.endpoint, slot.index, self.owner.id],
            )
        })?;
        Ok(())
    }

    /// Slots held now by anyone, per endpoint (lapsed ones included).
    pub fn held(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        store
            .conn()
            .query_map(
                "SELECT endpoint, COUNT(*) FROM endpoint_slots GROUP BY endpoint ORDER BY endpoint",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?
            .collect()
    }
}
