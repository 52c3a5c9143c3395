//! A run's output directory kept in step with the store, tuple by tuple.
//!
//! `run` delivers each tuple the moment the loop accepts it (one atomic [`write_bundle`]), and
//! reconciles at the end over every task of its task files: an accepted tuple is present and
//! complete, a tuple a person (or a policy) rejected is not — its bundle, if an earlier delivery
//! wrote one, is withdrawn atomically — and export directories abandoned by a killed run are swept.
//! So a run killed at any point and then resumed ends with the same `--out` as an uninterrupted one.
//!
//! Planning reads the store; applying writes files without it ([`Delivery::plan`] then
//! [`Delivery::apply`]), so concurrent workers never hold the store while they fsync.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::export::{clean_stale, remove_bundle, render, write_bundle, ExportError, Rendered};
use super::layout;
use crate::filter::effective_outcome;
use tuplewright_base::store::{Store, StoreError, TupleStatus};

/// Where a run delivers its bundles.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// Output directory (`out/<task_id>/`).
    pub out: PathBuf,
    /// URL prefix for config.json (see [`super::export::ExportOptions`]).
    pub url_prefix: String,
}

/// What delivering one tuple will do.
#[derive(Debug)]
pub enum Plan {
    /// Write (or keep, when identical) this rendered bundle.
    Write(Rendered),
    /// The tuple is out (rejected, or no longer accepted): remove its bundle if one is there.
    Withdraw(String),
    /// Accepted but cannot be rendered (the reason).
    Skip(String),
    /// Not finished with the loop: nothing to do.
    Wait,
}

/// What delivering one tuple did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Delivered {
    /// The bundle was written or replaced.
    Written,
    /// The bundle on disk was already identical.
    Unchanged,
    /// A bundle was removed because the tuple is out (the reason).
    Withdrawn(String),
    /// The tuple is out and had no bundle.
    Absent,
    /// Accepted but not exportable (the reason).
    Skipped(String),
    /// Not through the loop yet.
    Waiting,
}

/// What a reconciliation did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DeliverySummary {
    /// Accepted tuples whose bundle is present and complete (written now or already identical).
    pub present: usize,
    /// Of those, bundles written by the reconciliation (missing or out of date before).
    pub written: usize,
    /// Bundles removed: (task, why).
    pub withdrawn: Vec<(String, String)>,
    /// Accepted tuples that could not be exported: (task, why).
    pub skipped: Vec<(String, String)>,
    /// Abandoned temporary directories of killed exports removed.
    pub swept: usize,
}

/// Statuses whose tuple is out of the released corpus, whatever came before.
fn rejected_status(s: TupleStatus) -> bool {
    matches!(
        s,
        TupleStatus::VoteRejected | TupleStatus::RolloutRejected | TupleStatus::Dropped
    )
}

/// True when `dir` looks like a bundle this tool wrote (never remove anything else).
fn is_our_bundle(dir: &Path) -> bool {
    [layout::CONFIG_JSON, layout::META_JSON]
        .iter()
        .all(|f| dir.join(f).symlink_metadata().is_ok_and(|m| m.is_file()))
}

impl Delivery {
    /// Decides what to do with `task_id` from its current status and filter decisions (read now,
    /// so a decision another process recorded during the run counts).
    pub fn plan(&self, store: &Store, task_id: &str) -> Result<Plan, StoreError> {
        let task = store.task(task_id)?;
        let status = TupleStatus::parse(&task.status);
        if status.is_some_and(rejected_status) {
            return Ok(Plan::Withdraw(format!("status {}", task.status)));
        }
        if let Some(o) = effective_outcome(store, task_id)? {
            if o.action == "reject" {
                return Ok(Plan::Withdraw(format!("rejected by {}", o.actor)));
            }
        }
        match status {
            Some(s) if s.passed_loop() => Ok(match render(store, &task, &self.url_prefix) {
                Ok(Ok(files)) => Plan::Write(files),
                Ok(Err(why)) => Plan::Skip(why),
                Err(ExportError::Store(e)) => return Err(e),
                Err(e) => Plan::Skip(e.to_string()),
            }),
            Some(TupleStatus::LoopFailed) => Ok(Plan::Withdraw("status loop_failed".into())),
            _ => Ok(Plan::Wait),
        }
    }

    /// Carries out a plan for `task_id`.
    pub fn apply(&self, task_id: &str, plan: Plan) -> Result<Delivered, ExportError> {
        Ok(match plan {
            Plan::Wait => Delivered::Waiting,
            Plan::Skip(why) => Delivered::Skipped(why),
            Plan::Write(files) => {
                std::fs::create_dir_all(&self.out).map_err(|cause| ExportError::Io {
                    path: self.out.clone(),
                    cause,
                })?;
                if write_bundle(&self.out, task_id, &files)? {
                    Delivered::Written
                } else {
                    Delivered::Unchanged
                }
            }
            Plan::Withdraw(why) => {
                if is_our_bundle(&self.out.join(task_id)) && remove_bundle(&self.out, task_id)? {
                    Delivered::Withdrawn(why)
                } else {
                    Delivered::Absent
                }
            }
        })
    }

    /// Brings `out` in line with the store for `task_ids`, after sweeping abandoned temporaries.
    /// `plan_of(id)` is [`Delivery::plan`] through the caller's access to the store.
    pub fn reconcile(
        &self,
        task_ids: &[String],
        plan_of: &dyn Fn(&str) -> Result<Plan, StoreError>,
    ) -> Result<DeliverySummary, ExportError> {
        let mut sum = DeliverySummary {
            swept: clean_stale(&self.out),
            ..Default::default()
        };
        for id in task_ids {
            match self.apply(id, plan_of(id)?)? {
                Delivered::Written => {
                    sum.present += 1;
                    sum.written += 1;
                }
                Delivered::Unchanged => sum.present += 1,
                Delivered::Withdrawn(why) => sum.withdrawn.push((id.clone(), why)),
                Delivered::Skipped(why) => sum.skipped.push((id.clone(), why)),
                Delivered::Absent | Delivered::Waiting => {}
            }
        }
        Ok(sum)
    }
}
