//! Task leases: a process claims a task in the store before any stage (the agreement loop, the
//! rollout stage, `verify`) works on it, so two processes never work on one task at once.
//!
//! A lease names its owner (a unique id, host, boot, pid and the pid's start time), the stage, and
//! when it was claimed, last renewed (heartbeat) and expires. It is taken in one transaction
//! together with the check that the task is still eligible (its status, and optionally that no
//! decision was recorded on it since the caller looked). Nothing else may claim a leased task until
//! the lease is released, expires (its owner stopped renewing), or — on the owner's own host — its
//! owner process is found dead, which is detected at once; the task is then resumable.
//!
//! The interface is [`LeaseBackend`] (one narrow trait: claim, renew, release, list); the store
//! implements it in [`sqlite`] on both backends. On PostgreSQL `claim_first` is one
//! `SELECT … FROM tuples … FOR UPDATE SKIP LOCKED` plus an `INSERT … ON CONFLICT` on the lease row.
//! [`LeaseKeeper`] is what stages use: it claims, renews every lease it holds from a heartbeat
//! thread, fences the stage's writes ([`LeaseKeeper::fence`]) and releases.

mod keeper;
mod owner;
pub mod sqlite;
#[cfg(test)]
mod tests;

use std::time::Duration;

use serde::Serialize;

use crate::store::{StoreError, TupleStatus};

pub use keeper::{LeaseKeeper, LeaseSettings};
pub use owner::{holder_dead, process_start, Owner, TakeoverReason};

/// One stored lease.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeaseInfo {
    /// The leased task.
    pub task_id: String,
    /// The owner's unique id.
    pub owner: String,
    /// The stage working on it (`loop`, `rollout`, `verify`).
    pub stage: String,
    /// The owner's host.
    pub host: String,
    /// The owner's kernel boot id.
    pub boot_id: String,
    /// The owner's pid.
    pub pid: u32,
    /// The owner pid's start time (clock ticks after boot).
    pub pid_start: Option<u64>,
    /// When it was claimed (RFC 3339 UTC).
    pub claimed_at: String,
    /// The last renewal.
    pub heartbeat_at: String,
    /// When it lapses unless renewed.
    pub expires_at: String,
}

impl LeaseInfo {
    /// Why `me` may take this lease over at time `now` (stored form), if it may.
    pub fn stale_for(&self, me: &Owner, now: &str) -> Option<TakeoverReason> {
        if self.owner == me.id {
            return None;
        }
        if self.expires_at.as_str() <= now {
            return Some(TakeoverReason::Expired);
        }
        holder_dead(me, &self.host, &self.boot_id, self.pid, self.pid_start)
    }

    /// `owner (stage, host pid N)` for messages.
    pub fn describe(&self) -> String {
        format!(
            "{} ({}, host {} pid {}, expires {})",
            self.owner, self.stage, self.host, self.pid, self.expires_at
        )
    }
}

/// What to claim.
#[derive(Debug, Clone)]
pub struct ClaimRequest<'a> {
    /// The task.
    pub task_id: &'a str,
    /// The stage that will work on it.
    pub stage: &'a str,
    /// Claim only if the tuple's status is one of these (`None` = any status).
    pub statuses: Option<&'a [TupleStatus]>,
    /// Claim only if no decision with an id above this one was recorded on the task (the caller
    /// chose the task when the latest decision id was this; see [`LeaseBackend::decision_mark`]).
    pub unchanged_since: Option<i64>,
    /// How long the lease lasts without a renewal.
    pub ttl: Duration,
}

/// The result of a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The lease is ours now (or was already); `took_over` names a stale lease it replaced.
    Taken {
        /// The previous holder and why its lease was stale.
        took_over: Option<(LeaseInfo, TakeoverReason)>,
    },
    /// Another live owner holds it: skip the task.
    Held(LeaseInfo),
    /// The tuple's status is not one the stage takes.
    Ineligible {
        /// Its status.
        status: String,
    },
    /// A decision was recorded on the task since the caller chose it (another process finished
    /// it meanwhile).
    Changed {
        /// Its status now.
        status: String,
    },
}

impl Claim {
    /// Why a refused claim was refused, for messages (`None` for a taken lease).
    pub fn refusal(&self) -> Option<String> {
        match self {
            Claim::Taken { .. } => None,
            Claim::Held(l) => Some(format!("leased by another live process: {}", l.describe())),
            Claim::Ineligible { status } => Some(format!("its status is {status}")),
            Claim::Changed { status } => Some(format!(
                "decided by another process meanwhile (now {status})"
            )),
        }
    }
}

/// The lease operations a store backend provides. Each call is one transaction.
pub trait LeaseBackend: Send + Sync {
    /// Claims `req.task_id` for `owner` if nobody else holds a live lease on it and it is eligible.
    /// Re-claiming a lease one already holds renews it. A stale lease taken over is recorded as a
    /// `lease.taken_over` event.
    fn claim(&self, owner: &Owner, req: &ClaimRequest<'_>) -> Result<Claim, StoreError>;
    /// Renews `owner`'s leases on `tasks` for `ttl`; returns the tasks whose lease it no longer
    /// holds (taken over after it lapsed).
    fn renew(
        &self,
        owner: &Owner,
        tasks: &[String],
        ttl: Duration,
    ) -> Result<Vec<String>, StoreError>;
    /// Releases `owner`'s lease on `task_id`; false when it held none.
    fn release(&self, owner: &Owner, task_id: &str) -> Result<bool, StoreError>;
    /// Every stored lease, stale ones included.
    fn leases(&self) -> Result<Vec<LeaseInfo>, StoreError>;
    /// Deletes every lease stale for `owner` (expired, or its owner found dead), whatever its
    /// task's status, each recorded as a `lease.cleared` event; returns what it deleted. A worker
    /// that drained its queue calls it, so a killed worker's lease on a task it had finished (but
    /// not yet released) does not stay behind for good.
    fn clear_stale(&self, owner: &Owner) -> Result<Vec<(LeaseInfo, TakeoverReason)>, StoreError>;
    /// The id of the latest decision (0 = none), for [`ClaimRequest::unchanged_since`].
    fn decision_mark(&self) -> Result<i64, StoreError>;

    /// Claims the first of `task_ids`, in order, that is free and eligible under `req` (its
    /// `task_id` is ignored), skipping the others; `None` when every one was refused. A worker
    /// draining a queue uses this; a PostgreSQL backend overrides it with one statement
    /// (`SELECT … WHERE task_id = ANY($1) AND status = ANY($2) ORDER BY … LIMIT 1 FOR UPDATE SKIP
    /// LOCKED`) so concurrent workers never wait on each other's candidates.
    fn claim_first(
        &self,
        owner: &Owner,
        task_ids: &[String],
        req: &ClaimRequest<'_>,
    ) -> Result<Option<(String, Claim)>, StoreError> {
        claim_in_order(self, owner, task_ids, req)
    }
}

/// [`LeaseBackend::claim_first`] one [`LeaseBackend::claim`] at a time, in order.
pub fn claim_in_order<B: LeaseBackend + ?Sized>(
    backend: &B,
    owner: &Owner,
    task_ids: &[String],
    req: &ClaimRequest<'_>,
) -> Result<Option<(String, Claim)>, StoreError> {
    for id in task_ids {
        let one = ClaimRequest {
            task_id: id,
            ..req.clone()
        };
        let claim = backend.claim(owner, &one)?;
        if matches!(claim, Claim::Taken { .. }) {
            return Ok(Some((id.clone(), claim)));
        }
    }
    Ok(None)
}
