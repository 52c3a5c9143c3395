//! [`LeaseKeeper`]: the leases of one owner. Stages claim a task through it before working on it
//! and release it when done; a heartbeat thread renews every lease it holds every
//! [`LeaseSettings::heartbeat`] and notes the ones it lost. Dropping the keeper stops the heartbeat
//! and releases what it still holds.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::store::{now, StoreError, TupleStatus, Tx};

use super::sqlite::{fence, SqliteLeases};
use super::{Claim, ClaimRequest, LeaseBackend, LeaseInfo, Owner};

/// How long leases last and how often they are renewed (`[store] lease_ttl_ms`,
/// `lease_heartbeat_ms`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseSettings {
    /// A lease not renewed for this long may be taken over.
    pub ttl: Duration,
    /// Renewal interval (well below `ttl`).
    pub heartbeat: Duration,
}

impl Default for LeaseSettings {
    fn default() -> Self {
        LeaseSettings {
            ttl: Duration::from_secs(60),
            heartbeat: Duration::from_secs(10),
        }
    }
}

struct Shared {
    backend: Box<dyn LeaseBackend>,
    owner: Owner,
    settings: LeaseSettings,
    held: Mutex<BTreeSet<String>>,
    lost: Mutex<BTreeSet<String>>,
    /// Serialises [`LeaseKeeper::claim_first`] within the process (see there).
    claiming: Mutex<()>,
    stop: Mutex<bool>,
    wake: Condvar,
    renewals: AtomicUsize,
    renew_errors: AtomicUsize,
}

/// The leases of one owner, renewed by a heartbeat thread while held.
pub struct LeaseKeeper {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl LeaseKeeper {
    /// A keeper for `owner` on `backend`, with its heartbeat thread running.
    pub fn new(
        backend: Box<dyn LeaseBackend>,
        owner: Owner,
        settings: LeaseSettings,
    ) -> Result<Self, StoreError> {
        let shared = Arc::new(Shared {
            backend,
            owner,
            settings,
            held: Mutex::new(BTreeSet::new()),
            lost: Mutex::new(BTreeSet::new()),
            claiming: Mutex::new(()),
            stop: Mutex::new(false),
            wake: Condvar::new(),
            renewals: AtomicUsize::new(0),
            renew_errors: AtomicUsize::new(0),
        });
        let s2 = shared.clone();
        let thread = std::thread::Builder::new()
            .name("tw-lease-heartbeat".into())
            .spawn(move || heartbeat(&s2))
            .map_err(|e| {
                StoreError::Invalid(format!("cannot start the lease heartbeat thread: {e}"))
            })?;
        Ok(LeaseKeeper {
            shared,
            thread: Some(thread),
        })
    }

    /// A keeper for this process on the SQLite store at `path` (a connection of its own).
    pub fn open(
        path: &Path,
        busy_timeout: Duration,
        settings: LeaseSettings,
    ) -> Result<Self, StoreError> {
        let backend = SqliteLeases::open(path, busy_timeout)?;
        Self::new(Box::new(backend), Owner::current(), settings)
    }

    /// Whose leases these are.
    pub fn owner(&self) -> &Owner {
        &self.shared.owner
    }

    /// The lease settings.
    pub fn settings(&self) -> LeaseSettings {
        self.shared.settings
    }

    /// Claims `task_id` for `stage` (see [`LeaseBackend::claim`]); a taken lease is renewed by the
    /// heartbeat until [`Self::release`].
    pub fn claim(
        &self,
        task_id: &str,
        stage: &str,
        statuses: Option<&[TupleStatus]>,
        unchanged_since: Option<i64>,
    ) -> Result<Claim, StoreError> {
        let req = ClaimRequest {
            task_id,
            stage,
            statuses,
            unchanged_since,
            ttl: self.shared.settings.ttl,
        };
        let claim = self.shared.backend.claim(&self.shared.owner, &req)?;
        if matches!(claim, Claim::Taken { .. }) {
            lock(&self.shared.held).insert(task_id.to_string());
            lock(&self.shared.lost).remove(task_id);
        }
        Ok(claim)
    }

    /// Claims the first free, eligible task of `task_ids` for `stage` (see
    /// [`LeaseBackend::claim_first`]: one skip-locked statement on PostgreSQL); `None` when every
    /// one is held by another live owner or not eligible.
    pub fn claim_first(
        &self,
        task_ids: &[String],
        stage: &str,
        statuses: Option<&[TupleStatus]>,
    ) -> Result<Option<String>, StoreError> {
        let req = ClaimRequest {
            task_id: "",
            stage,
            statuses,
            unchanged_since: None,
            ttl: self.shared.settings.ttl,
        };
        // A claim is re-entrant for its owner (a renewal), and every thread of this process is
        // the same owner: without this, two slots of one worker could both "take" one task. So
        // the tasks this keeper holds are no candidates, and one claim_first runs at a time here
        // (each records what it took before the next looks).
        let _one = lock(&self.shared.claiming);
        let held = lock(&self.shared.held).clone();
        let free: Vec<String> = task_ids
            .iter()
            .filter(|t| !held.contains(*t))
            .cloned()
            .collect();
        let got = self
            .shared
            .backend
            .claim_first(&self.shared.owner, &free, &req)?;
        Ok(got.map(|(task_id, _)| {
            lock(&self.shared.held).insert(task_id.clone());
            lock(&self.shared.lost).remove(&task_id);
            task_id
        }))
    }

    /// Claims `task_id`, runs `f` while holding it, releases it. `Ok(Err(refusal))` when the
    /// claim was refused (another live owner, or not eligible): `f` did not run.
    pub fn run_claimed<T>(
        &self,
        task_id: &str,
        stage: &str,
        statuses: Option<&[TupleStatus]>,
        f: impl FnOnce() -> T,
    ) -> Result<Result<T, Claim>, StoreError> {
        match self.claim(task_id, stage, statuses, None)? {
            Claim::Taken { .. } => {
                let out = f();
                self.release(task_id)?;
                Ok(Ok(out))
            }
            refused => Ok(Err(refused)),
        }
    }

    /// Releases the lease on `task_id` (no-op when not held).
    pub fn release(&self, task_id: &str) -> Result<(), StoreError> {
        let held = lock(&self.shared.held).remove(task_id);
        if held {
            self.shared.backend.release(&self.shared.owner, task_id)?;
        }
        Ok(())
    }

    /// Inside a write transaction: fails with [`StoreError::LeaseLost`] unless this keeper still
    /// holds the lease on `task_id`, so a stage's write after losing its lease rolls back.
    pub fn fence(&self, tx: &Tx<'_>, task_id: &str) -> Result<(), StoreError> {
        fence(tx, &self.shared.owner.id, task_id)
    }

    /// True when the heartbeat found the lease on `task_id` taken over.
    pub fn is_lost(&self, task_id: &str) -> bool {
        lock(&self.shared.lost).contains(task_id)
    }

    /// The tasks this keeper holds now.
    pub fn held(&self) -> Vec<String> {
        lock(&self.shared.held).iter().cloned().collect()
    }

    /// Successful heartbeat renewals so far (each renews every lease held at that moment).
    pub fn renewals(&self) -> usize {
        self.shared.renewals.load(Ordering::Relaxed)
    }

    /// Live leases of other owners on any of `ids` (what a stage will skip).
    pub fn held_elsewhere(&self, ids: &[String]) -> Result<Vec<LeaseInfo>, StoreError> {
        let wanted: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
        let time = now();
        Ok(self
            .shared
            .backend
            .leases()?
            .into_iter()
            .filter(|l| wanted.contains(l.task_id.as_str()))
            .filter(|l| {
                l.owner != self.shared.owner.id && l.stale_for(self.owner(), &time).is_none()
            })
            .collect())
    }

    /// Deletes every stale lease of other owners (see [`LeaseBackend::clear_stale`]); returns how
    /// many.
    pub fn clear_stale(&self) -> Result<usize, StoreError> {
        Ok(self.shared.backend.clear_stale(&self.shared.owner)?.len())
    }

    /// The latest decision id, for `unchanged_since`.
    pub fn decision_mark(&self) -> Result<i64, StoreError> {
        self.shared.backend.decision_mark()
    }
}

fn heartbeat(s: &Shared) {
    let mut stop = lock(&s.stop);
    loop {
        let (guard, _) = s
            .wake
            .wait_timeout(stop, s.settings.heartbeat)
            .unwrap_or_else(|p| p.into_inner());
        stop = guard;
        if *stop {
            return;
        }
        let tasks: Vec<String> = lock(&s.held).iter().cloned().collect();
        if tasks.is_empty() {
            continue;
        }
        match s.backend.renew(&s.owner, &tasks, s.settings.ttl) {
            Ok(lost) => {
                s.renewals.fetch_add(1, Ordering::Relaxed);
                if !lost.is_empty() {
                    let mut held = lock(&s.held);
                    for t in &lost {
                        held.remove(t);
                    }
                    lock(&s.lost).extend(lost);
                }
            }
            Err(e) => {
                s.renew_errors.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("renewing {} task lease(s) failed: {e}", tasks.len());
            }
        }
    }
}

impl Drop for LeaseKeeper {
    fn drop(&mut self) {
        *lock(&self.shared.stop) = true;
        self.shared.wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        for task in self.held() {
            if let Err(e) = self.release(&task) {
                tracing::warn!("releasing the lease on {task} failed: {e}");
            }
        }
    }
}
