//! [`LeaseBackend`] on the SQLite store (`task_leases`, schema v8). Every operation runs in one
//! immediate (write-locked) transaction on a connection of its own, so heartbeats never wait behind
//! a stage's longer writes on the shared [`crate::engine::harness::Bus`] connection, and two
//! processes' claims of one task are serialised by SQLite's write lock.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::json;

use crate::engine::store::{now, stamp, Store, StoreError, Tx};

use super::{Claim, ClaimRequest, LeaseBackend, LeaseInfo, Owner};

const COLUMNS: &str = "task_id, owner, stage, host, boot_id, pid, pid_start, claimed_at, \
                       heartbeat_at, expires_at";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<LeaseInfo> {
    Ok(LeaseInfo {
        task_id: r.get(0)?,
        owner: r.get(1)?,
        stage: r.get(2)?,
        host: r.get(3)?,
        boot_id: r.get(4)?,
        pid: r.get(5)?,
        pid_start: r.get::<_, Option<i64>>(6)?.map(|v| v as u64),
        claimed_at: r.get(7)?,
        heartbeat_at: r.get(8)?,
        expires_at: r.get(9)?,
    })
}

/// The lease on one task, if any.
pub fn lease_of(conn: &Connection, task_id: &str) -> Result<Option<LeaseInfo>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM task_leases WHERE task_id = ?1"
        ))?
        .query_row(params![task_id], from_row)
        .optional()?)
}

/// Every stored lease, by task id (readers such as the workbench use this on their own store).
pub fn list(conn: &Connection) -> Result<Vec<LeaseInfo>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM task_leases ORDER BY task_id"
    ))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Fails with [`StoreError::LeaseLost`] unless `owner` holds the lease on `task_id`: called inside
/// a stage's write transaction, it makes a write by a process that lost its lease roll back.
pub fn fence(tx: &Tx<'_>, owner: &str, task_id: &str) -> Result<(), StoreError> {
    match lease_of(tx.conn(), task_id)? {
        Some(l) if l.owner == owner => Ok(()),
        other => Err(StoreError::LeaseLost {
            task_id: task_id.to_string(),
            holder: other.map_or_else(|| "nobody".to_string(), |l| l.describe()),
        }),
    }
}

fn later(ttl: Duration) -> String {
    let ttl = chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::MAX);
    let at = chrono::Utc::now()
        .checked_add_signed(ttl)
        .unwrap_or(chrono::DateTime::<chrono::Utc>::MAX_UTC);
    stamp(at)
}

/// The SQLite lease backend.
pub struct SqliteLeases {
    store: Mutex<Store>,
}

impl SqliteLeases {
    /// Opens its own connection on the store at `path`.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<Self, StoreError> {
        Ok(SqliteLeases {
            store: Mutex::new(Store::open(path, busy_timeout)?),
        })
    }

    fn write<T>(&self, f: impl FnOnce(&Tx<'_>) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        store.write(f)
    }
}

fn claim_in(tx: &Tx<'_>, owner: &Owner, req: &ClaimRequest<'_>) -> Result<Claim, StoreError> {
    let conn = tx.conn();
    let status: String = conn
        .prepare_cached("SELECT status FROM tuples WHERE task_id = ?1")?
        .query_row(params![req.task_id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| StoreError::UnknownTask(req.task_id.to_string()))?;
    let time = now();
    let existing = lease_of(conn, req.task_id)?;
    let mut took_over = None;
    if let Some(l) = existing {
        if l.owner != owner.id {
            match l.stale_for(owner, &time) {
                Some(reason) => took_over = Some((l, reason)),
                None => return Ok(Claim::Held(l)),
            }
        }
    }
    if let Some(wanted) = req.statuses {
        if !wanted.iter().any(|s| s.as_str() == status) {
            return Ok(Claim::Ineligible { status });
        }
    }
    if let Some(mark) = req.unchanged_since {
        let changed: bool = conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM decisions WHERE task_id = ?1 AND id > ?2)",
            )?
            .query_row(params![req.task_id, mark], |r| r.get(0))?;
        if changed {
            return Ok(Claim::Changed { status });
        }
    }
    conn.prepare_cached(
        "INSERT INTO task_leases (task_id, owner, stage, host, boot_id, pid, pid_start, claimed_at, \
         heartbeat_at, expires_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?8,?9) \
         ON CONFLICT (task_id) DO UPDATE SET owner = excluded.owner, stage = excluded.stage, \
         host = excluded.host, boot_id = excluded.boot_id, pid = excluded.pid, \
         pid_start = excluded.pid_start, \
         claimed_at = CASE WHEN task_leases.owner = excluded.owner THEN task_leases.claimed_at \
                      ELSE excluded.claimed_at END, \
         heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at",
    )?
    .execute(params![
        req.task_id,
        owner.id,
        req.stage,
        owner.host,
        owner.boot_id,
        owner.pid,
        owner.pid_start.map(|v| v as i64),
        time,
        later(req.ttl)
    ])?;
    if let Some((prev, reason)) = &took_over {
        tx.append_event(
            "lease.taken_over",
            Some(req.task_id),
            &json!({"owner": owner.id, "stage": req.stage, "from": prev.owner,
                    "from_host": prev.host, "from_pid": prev.pid, "from_stage": prev.stage,
                    "reason": reason.as_str(), "expired_at": prev.expires_at}),
        )?;
    }
    Ok(Claim::Taken { took_over })
}

impl LeaseBackend for SqliteLeases {
    fn claim(&self, owner: &Owner, req: &ClaimRequest<'_>) -> Result<Claim, StoreError> {
        self.write(|tx| claim_in(tx, owner, req))
    }

    fn renew(
        &self,
        owner: &Owner,
        tasks: &[String],
        ttl: Duration,
    ) -> Result<Vec<String>, StoreError> {
        if tasks.is_empty() {
            return Ok(Vec::new());
        }
        self.write(|tx| {
            let (time, until) = (now(), later(ttl));
            let mut stmt = tx.conn().prepare_cached(
                "UPDATE task_leases SET heartbeat_at = ?3, expires_at = ?4 \
                 WHERE task_id = ?1 AND owner = ?2",
            )?;
            let mut lost = Vec::new();
            for t in tasks {
                if stmt.execute(params![t, owner.id, time, until])? == 0 {
                    lost.push(t.clone());
                }
            }
            Ok(lost)
        })
    }

    fn release(&self, owner: &Owner, task_id: &str) -> Result<bool, StoreError> {
        self.write(|tx| {
            let n = tx
                .conn()
                .prepare_cached("DELETE FROM task_leases WHERE task_id = ?1 AND owner = ?2")?
                .execute(params![task_id, owner.id])?;
            Ok(n > 0)
        })
    }

    fn leases(&self) -> Result<Vec<LeaseInfo>, StoreError> {
        let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        list(store.conn())
    }

    fn decision_mark(&self) -> Result<i64, StoreError> {
        let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        Ok(store
            .conn()
            .query_row("SELECT COALESCE(MAX(id), 0) FROM decisions", [], |r| {
                r.get(0)
            })?)
    }
}
