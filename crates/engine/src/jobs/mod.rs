//! Use cases as engine jobs, one way through for every face: the headless CLI (`--no-tui run`,
//! `rollout`) and the workbench's job runner build a typed job spec ([`run::RunSpec`],
//! [`rollout::RolloutSpec`]) and call the same function, which reports numbered [`JobEvent`]s
//! while it works and returns a result. So a run started in the workbench delivers the same
//! bundles as `--no-tui run` on the same tasks: delivery is part of the job, not of a face.
//!
//! A job also writes its `job.*` events to the store through the [`Bus`](crate::harness::Bus)
//! (what the Live screen of any process shows); the [`JobEvent`]s are the in-process view of
//! the same job for the face that started it (progress lines, notices).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::harness::TaskOutcome;
use tuplewright_records::bundle::deliver::Delivered;

pub mod each;
pub mod filter;
pub mod rerun;
pub mod rollout;
pub mod run;
pub mod taskgen;
pub mod taskgen_line;
pub mod verify;

/// One thing a job did, numbered from 1 in the order the job reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct JobEvent {
    /// 1, 2, 3… within the job.
    pub seq: u64,
    /// What happened.
    pub kind: JobEventKind,
}

/// What a [`JobEvent`] reports.
#[derive(Debug, Clone, PartialEq)]
pub enum JobEventKind {
    /// A task left the loop with this outcome.
    TaskDone {
        /// The task id.
        task: String,
        /// How it ended.
        outcome: TaskOutcome,
    },
    /// An accepted tuple's bundle was delivered to the output folder.
    Delivered {
        /// The task id.
        task: String,
        /// What the delivery did.
        delivered: Delivered,
    },
    /// Delivering a bundle failed while the job went on (the final reconciliation retries it).
    DeliveryFailed {
        /// The task id.
        task: String,
        /// Why.
        why: String,
    },
    /// A per-tuple job (rollout, critic vote, verify) finished one tuple; its outcome word
    /// (`ok`, `error`, `leased`; `kept`, `rejected`…; `passed`, `failed`, `infra`).
    TupleDone {
        /// The task id.
        task: String,
        /// The outcome word.
        outcome: &'static str,
    },
}

/// Where a job's events go: a callback the face supplies (may be called from worker threads).
pub type EventSink<'a> = &'a (dyn Fn(&JobEvent) + Sync);

/// Numbers the events of one job and hands them to its sink.
pub struct Events<'a> {
    next: AtomicU64,
    sink: EventSink<'a>,
}

impl<'a> Events<'a> {
    /// Events numbered from 1, handed to `sink`.
    pub fn new(sink: EventSink<'a>) -> Self {
        Events {
            next: AtomicU64::new(1),
            sink,
        }
    }

    /// Reports one event.
    pub fn emit(&self, kind: JobEventKind) {
        let seq = self.next.fetch_add(1, Ordering::SeqCst);
        (self.sink)(&JobEvent { seq, kind });
    }
}

/// Why a job could not run at all (what it did before is in the store and the events).
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The agents named by the spec cannot be built.
    #[error("building the agents: {0}")]
    Agents(#[from] crate::agents::build::BuildError),
    /// The runtime, the fleet or the environments could not start.
    #[error(transparent)]
    Harness(#[from] crate::harness::HarnessError),
    /// The policy named by the spec cannot be built.
    #[error(transparent)]
    Policy(#[from] crate::rollout::spec::PolicyBuildError),
    /// The judge named by the spec cannot be built.
    #[error("judge `{spec}`: {source}")]
    Judge {
        /// The judge spec.
        spec: String,
        /// Why it cannot be built.
        #[source]
        source: crate::rollout::spec::JudgeSpecError,
    },
    /// The spec itself is unusable (named field and why).
    #[error("{0}")]
    Spec(String),
    /// The desktop pool (`[desktop] pool`) could not start.
    #[error("starting the desktop pool: {0}")]
    DesktopPool(#[source] crate::screen::ScreenError),
}
