//! [`LeaseBackend`] on the store (`task_leases`, schema v8), SQLite or PostgreSQL. Every operation
//! runs in one transaction on a connection of its own, so heartbeats never wait behind a stage's
//! longer writes on the shared [`tuplewright_engine::harness::Bus`] connection.
//!
//! On SQLite two processes' claims are serialised by the write lock. On PostgreSQL a claim locks
//! the task's `tuples` row (`FOR UPDATE`) and takes the store-wide write lock (a takeover appends
//! an event, and the write lock is what orders a takeover against the old owner's fenced writes);
//! [`LeaseBackend::claim_first`] takes free tasks without the write lock, in one statement with
//! `FOR UPDATE … SKIP LOCKED`, so workers draining one queue never wait on each other's candidates.
//! Renewals and releases touch only the owner's own rows.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use crate::store::db::{params, Backend, Conn, OptionalExt, Row};
use serde_json::json;

use crate::store::{now, stamp, Store, StoreError, Tx};

use super::{claim_in_order, Claim, ClaimRequest, LeaseBackend, LeaseInfo, Owner, TakeoverReason};

const COLUMNS: &str = "task_id, owner, stage, host, boot_id, pid, pid_start, claimed_at, \
                       heartbeat_at, expires_at";

fn from_row(r: &Row<'_>) -> Result<LeaseInfo, StoreError> {
    Ok(LeaseInfo {
        task_id: r.get(0)?,
        owner: r.get(1)?,
        stage: r.get(2)?,
        host: r.get(3)?,
        boot_id: r.get(4)?,
        pid: r.get(5)?,
        pid_start: r.get::<Option<i64>>(6)?.map(|v| v as u64),
        claimed_at: r.get(7)?,
        heartbeat_at: r.get(8)?,
        expires_at: r.get(9)?,
    })
}

/// The lease on one task, if any.
pub fn lease_of(conn: &Conn, task_id: &str) -> Result<Option<LeaseInfo>, StoreError> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM task_leases WHERE task_id = ?1"
    ))?
    .query_row(params![task_id], from_row)
    .optional()
}

/// Every stored lease, by task id (readers such as the workbench use this on their own store).
pub fn list(conn: &Conn) -> Result<Vec<LeaseInfo>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM task_leases ORDER BY task_id"
    ))?;
    let rows = stmt.query_map([], from_row)?;
    rows.collect::<Result<_, StoreError>>()
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

/// Inserts a lease or, on conflict, moves it to the new owner (keeping `claimed_at` on renewal).
const UPSERT: &str = "INSERT INTO task_leases (task_id, owner, stage, host, boot_id, pid, \
     pid_start, claimed_at, heartbeat_at, expires_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?8,?9) \
     ON CONFLICT (task_id) DO UPDATE SET owner = excluded.owner, stage = excluded.stage, \
     host = excluded.host, boot_id = excluded.boot_id, pid = excluded.pid, \
     pid_start = excluded.pid_start, \
     claimed_at = CASE WHEN task_leases.owner = excluded.owner THEN task_leases.claimed_at \
                  ELSE excluded.claimed_at END, \
     heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at";

fn later(ttl: Duration) -> String {
    let ttl = chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::MAX);
    let at = chrono::Utc::now()
        .checked_add_signed(ttl)
        .unwrap_or(chrono::DateTime::<chrono::Utc>::MAX_UTC);
    stamp(at)
}

/// What one skip-locked look for a free task found.
enum Free {
    /// This task is ours now.
    Taken(String),
    /// The task picked was leased by another worker meanwhile.
    Raced,
    /// No free, eligible, unlocked task.
    None,
}

/// The lease backend on a store of either backend.
pub struct StoreLeases {
    store: Mutex<Store>,
}

/// The name this backend had when it was SQLite-only.
pub type SqliteLeases = StoreLeases;

impl StoreLeases {
    /// Opens its own connection on the store at `path`.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<Self, StoreError> {
        Ok(StoreLeases {
            store: Mutex::new(Store::open(path, busy_timeout)?),
        })
    }

    fn write<T>(&self, f: impl FnOnce(&Tx<'_>) -> Result<T, StoreError>) -> Result<T, StoreError> {
        self.write_with(true, f)
    }

    /// A transaction without PostgreSQL's store-wide write lock (`serialize` false): for
    /// operations on the owner's own rows and the skip-locked claim.
    fn write_with<T>(
        &self,
        serialize: bool,
        f: impl FnOnce(&Tx<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        store.write_with(serialize, f)
    }

    fn backend(&self) -> Backend {
        self.store
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .backend()
    }

    /// PostgreSQL's one-statement claim of the first free, eligible task of `ids` (no lease, or
    /// our own), skipping rows another worker has locked; `None` when there is none.
    fn claim_free_pg(
        &self,
        owner: &Owner,
        ids: &str,
        req: &ClaimRequest<'_>,
    ) -> Result<Free, StoreError> {
        let statuses = req
            .statuses
            .map(|s| serde_json::to_string(&s.iter().map(|x| x.as_str()).collect::<Vec<_>>()))
            .transpose()?;
        self.write_with(false, |tx| {
            let picked: Option<String> = tx
                .conn()
                .query_row(
                    "WITH ids AS (SELECT value AS task_id, ordinality AS pos \
                       FROM jsonb_array_elements_text(?1::jsonb) WITH ORDINALITY) \
                     SELECT u.task_id FROM ids JOIN tuples u ON u.task_id = ids.task_id \
                     LEFT JOIN task_leases l ON l.task_id = u.task_id \
                     WHERE (l.task_id IS NULL OR l.owner = ?2) \
                       AND (?3::jsonb IS NULL \
                            OR u.status IN (SELECT jsonb_array_elements_text(?3::jsonb))) \
                       AND (?4::bigint IS NULL OR NOT EXISTS \
                            (SELECT 1 FROM decisions d WHERE d.task_id = u.task_id AND d.id > ?4::bigint)) \
                     ORDER BY ids.pos LIMIT 1 FOR UPDATE OF u SKIP LOCKED",
                    params![ids, owner.id, statuses, req.unchanged_since],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(task_id) = picked else {
                return Ok(Free::None);
            };
            // Another worker may have inserted a lease since our snapshot: the conflict clause
            // renews only our own, so 0 rows means it is taken.
            let n = tx.conn().execute(
                &format!("{UPSERT} WHERE task_leases.owner = excluded.owner"),
                params![
                    task_id,
                    owner.id,
                    req.stage,
                    owner.host,
                    owner.boot_id,
                    owner.pid,
                    owner.pid_start.map(|v| v as i64),
                    now(),
                    later(req.ttl)
                ],
            )?;
            Ok(if n == 1 {
                Free::Taken(task_id)
            } else {
                Free::Raced
            })
        })
    }
}

fn claim_in(tx: &Tx<'_>, owner: &Owner, req: &ClaimRequest<'_>) -> Result<Claim, StoreError> {
    let conn = tx.conn();
    // PostgreSQL: the task's row lock orders this claim against a concurrent skip-locked one.
    let sql = format!(
        "SELECT status FROM tuples WHERE task_id = ?1{}",
        conn.lock_suffix(" FOR UPDATE")
    );
    let status: String = conn
        .prepare_cached(&sql)?
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
            clear_refused(tx, took_over.as_ref())?;
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
            clear_refused(tx, took_over.as_ref())?;
            return Ok(Claim::Changed { status });
        }
    }
    conn.prepare_cached(UPSERT)?.execute(params![
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

/// A refused claim still clears the stale lease it found: nobody works under it any more, and the
/// task (finished, say, by a worker killed before it released its lease) may never be claimed
/// again to take it over.
fn clear_refused(
    tx: &Tx<'_>,
    stale: Option<&(LeaseInfo, TakeoverReason)>,
) -> Result<(), StoreError> {
    if let Some((lease, reason)) = stale {
        clear_one(tx, lease, *reason)?;
    }
    Ok(())
}

/// Deletes `lease` unless it changed since it was read (renewed or taken over meanwhile), with a
/// `lease.cleared` event naming its owner and why it was stale; true when it was deleted.
fn clear_one(tx: &Tx<'_>, lease: &LeaseInfo, reason: TakeoverReason) -> Result<bool, StoreError> {
    let n = tx
        .conn()
        .prepare_cached(
            "DELETE FROM task_leases WHERE task_id = ?1 AND owner = ?2 AND expires_at = ?3",
        )?
        .execute(params![lease.task_id, lease.owner, lease.expires_at])?;
    if n == 0 {
        return Ok(false);
    }
    tx.append_event(
        "lease.cleared",
        Some(&lease.task_id),
        &json!({"from": lease.owner, "from_host": lease.host, "from_pid": lease.pid,
                "from_stage": lease.stage, "reason": reason.as_str(),
                "expired_at": lease.expires_at}),
    )?;
    Ok(true)
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
        self.write_with(false, |tx| {
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
        self.write_with(false, |tx| {
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

    fn clear_stale(&self, owner: &Owner) -> Result<Vec<(LeaseInfo, TakeoverReason)>, StoreError> {
        self.write(|tx| {
            let time = now();
            let mut cleared = Vec::new();
            for lease in list(tx.conn())? {
                if let Some(reason) = lease.stale_for(owner, &time) {
                    if clear_one(tx, &lease, reason)? {
                        cleared.push((lease, reason));
                    }
                }
            }
            Ok(cleared)
        })
    }

    fn decision_mark(&self) -> Result<i64, StoreError> {
        let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        store
            .conn()
            .query_row("SELECT COALESCE(MAX(id), 0) FROM decisions", [], |r| {
                r.get(0)
            })
    }

    fn claim_first(
        &self,
        owner: &Owner,
        task_ids: &[String],
        req: &ClaimRequest<'_>,
    ) -> Result<Option<(String, Claim)>, StoreError> {
        // Stale leases (expired, or a dead owner on this host) first: their tasks were started by
        // a worker that died and would otherwise wait until the queue runs dry. They go through
        // the serialised claim, which records the takeover.
        let time = now();
        let stale: Vec<String> = self
            .leases()?
            .into_iter()
            .filter(|l| task_ids.contains(&l.task_id) && l.stale_for(owner, &time).is_some())
            .map(|l| l.task_id)
            .collect();
        if let Some(got) = claim_in_order(self, owner, &stale, req)? {
            return Ok(Some(got));
        }
        if self.backend() == Backend::Sqlite {
            return claim_in_order(self, owner, task_ids, req);
        }
        let ids = serde_json::to_string(task_ids)?;
        // A free task goes to whoever locks its row first; losing a race to another worker's
        // insert just means looking again (the next look sees that lease and skips the task).
        for _ in 0..=task_ids.len() {
            match self.claim_free_pg(owner, &ids, req)? {
                Free::Taken(id) => return Ok(Some((id, Claim::Taken { took_over: None }))),
                Free::Raced => continue,
                Free::None => break,
            }
        }
        Ok(None)
    }
}
