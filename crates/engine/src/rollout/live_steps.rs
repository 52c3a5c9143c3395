//! A running trial's steps as they happen, so a workbench — in this process or another one
//! reading the same store — can watch it live.
//!
//! A screen policy hands every completed step (its screenshot attached) to the trial's
//! [`StepSink`]. The stage's sink, [`BusFeed`], writes the step's screenshot file into the store's
//! content-addressed screenshot directory (temporary name, flushed, renamed into place) and then,
//! in the same write transaction, appends a [`STEP_EVENT`] event carrying a [`LiveStep`]; the bus
//! fans the event out only after it committed. Nothing of the trial itself is written early: its
//! row, steps and screenshot rows are still stored in one transaction when it ends
//! ([`super::stage::store_trial`]), which re-writes any file the live feed wrote that has gone
//! since. Live events are a log, never a trial: a trial whose process died has `rollout.step`
//! events and no `rollout.recorded`, and its live screenshot files have no row, so
//! [`tuplewright_base::store::Store::gc_screenshots`] removes them.
//!
//! Feeding is best effort: a step the store refuses (busy, disk full) is counted in
//! [`BusFeed::failures`] and the trial goes on — the record at its end is what counts.

use std::sync::atomic::{AtomicU32, Ordering};

use serde::{Deserialize, Serialize};

use crate::harness::Bus;

use super::ui_plan::Step;

/// Kind of the event a live step is published as.
pub const STEP_EVENT: &str = "rollout.step";
/// Longest model reply carried by a live step (head and tail kept).
pub const MAX_REPLY: usize = 4000;

/// Where a policy hands each step the moment it is complete.
pub trait StepSink: Send + Sync {
    /// `step` is done (with its screenshot, when one was taken); `reply` is the model's verbatim
    /// reply of the turn that made it, for model policies.
    fn step(&self, step: &Step, reply: Option<&str>);
}

/// A sink that drops every step (trials nobody watches: `env try`, one-off screens, tests).
pub struct NoFeed;

impl StepSink for NoFeed {
    fn step(&self, _: &Step, _: Option<&str>) {}
}

/// One step of a running trial, as the [`STEP_EVENT`] payload carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveStep {
    /// The policy's name (the trial's `model`).
    pub policy: String,
    /// Trial number (1-based).
    pub trial: u32,
    /// Position in the trial (0-based): the `seq` the stored step will have.
    pub seq: u32,
    /// The action (a `ComputerAction` as JSON).
    pub action: serde_json::Value,
    /// Milliseconds since the trial started, when the action began.
    pub at_ms: u64,
    /// How long the action took.
    pub duration_ms: u64,
    /// The action's error, if it failed.
    pub error: Option<String>,
    /// sha256 of the screenshot after the action (a file of the store's screenshot directory).
    pub screenshot: Option<String>,
    /// How long the display took to settle before that screenshot, milliseconds.
    #[serde(default)]
    pub settle_ms: Option<u64>,
    /// The model's reply of this step's turn (head and tail kept).
    pub reply: Option<String>,
}

/// The stage's sink: publishes each step of trial `trial` of `policy` on `task_id` to the store.
pub struct BusFeed<'a> {
    bus: &'a Bus,
    task_id: String,
    policy: String,
    trial: u32,
    next: AtomicU32,
    failures: AtomicU32,
}

impl<'a> BusFeed<'a> {
    /// A feed for one trial.
    pub fn new(bus: &'a Bus, task_id: &str, policy: &str, trial: u32) -> Self {
        BusFeed {
            bus,
            task_id: task_id.to_string(),
            policy: policy.to_string(),
            trial,
            next: AtomicU32::new(0),
            failures: AtomicU32::new(0),
        }
    }

    /// Steps the store refused (not published; the trial's record still has them).
    pub fn failures(&self) -> u32 {
        self.failures.load(Ordering::Relaxed)
    }
}

impl StepSink for BusFeed<'_> {
    fn step(&self, step: &Step, reply: Option<&str>) {
        let seq = self.next.fetch_add(1, Ordering::Relaxed);
        let Ok(action) = serde_json::to_value(&step.action) else {
            self.failures.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let mut live = LiveStep {
            policy: self.policy.clone(),
            trial: self.trial,
            seq,
            action,
            at_ms: step.at_ms,
            duration_ms: step.duration_ms,
            error: step.error.clone(),
            screenshot: None,
            settle_ms: step.settle_ms,
            reply: reply.map(|r| tuplewright_models::providers::head_tail(r, MAX_REPLY)),
        };
        let written = self.bus.write(|tx| {
            if let Some(png) = step.screenshot_png.as_deref() {
                live.screenshot = Some(tx.put_screenshot_file(png)?);
            }
            tx.append_event(
                STEP_EVENT,
                Some(&self.task_id),
                &serde_json::to_value(&live)?,
            )
            .map(|_| ())
        });
        if written.is_err() {
            self.failures.fetch_add(1, Ordering::Relaxed);
        }
    }
}
