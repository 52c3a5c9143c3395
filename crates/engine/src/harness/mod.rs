//! The agreement loop as code (paper §2.1, A.1, A.3): for each task an explicit state machine of at
//! most K rounds, each round provisioning fresh V_init / V_gold, running the agents' scripts in the
//! sandbox with role rights, scanning and running reward.py itself, and recording everything.
//!
//! - [`Fleet`]: the shared state-API servers and per-round environments ([`envs`]).
//! - [`round::RoundCtx`]: one round. [`task::run_task`]: the rounds of one task, with its decisions.
//! - [`batch::run_batch`]: many tasks on worker threads, cancellable, resumable.
//! - [`Bus`]: every event is written to the store first, then fanned out to in-process listeners.

pub mod batch;
/// The event bus lives with the store it writes to (re-exported at its old path).
pub use tuplewright_base::store::bus;
mod config;
pub mod envs;
pub mod execute;
pub mod job;
pub mod probe;
pub mod probes;
mod remote;
pub mod rerun;
pub mod resume;
pub mod round;
pub mod session;
pub mod snapshot;
pub mod task;
pub mod verify;
pub mod webapi;

pub use batch::{run_batch, run_batch_controlled, BatchOptions, BatchSummary};
pub use bus::Bus;
pub use config::{Environments, LoopConfig};
pub use envs::{Fleet, TaskEnv};
pub use job::{JobControl, JobPhase};
pub use task::{run_task, TaskOutcome};

/// Why a task could not be processed. None of these is a reward or a condition failure.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// Infrastructure failed (sandbox, server, provider, store): the task is left resumable.
    #[error("infrastructure failure: {0}")]
    Infra(String),
    /// The task's own data is unusable (unknown app, missing field).
    #[error("invalid task: {0}")]
    Task(String),
    /// Ctrl-C.
    #[error("cancelled")]
    Cancelled,
}

impl From<tuplewright_base::store::StoreError> for HarnessError {
    fn from(e: tuplewright_base::store::StoreError) -> Self {
        HarnessError::Infra(format!("store: {e}"))
    }
}
