//! The `verify` job: C1–C5, determinism and the reward probes re-run on stored tuples, no agent;
//! each tuple claimed (stage `verify`) while it runs, one after another under a [`JobControl`]
//! (pause / cancel between tuples, `job.*` events for the Live screen).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::agents::replay::NoAgent;
use crate::config::Config;
use crate::harness::session::with_loop_runtime;
use crate::harness::verify::{verify_task, Verification};
use crate::harness::{Bus, HarnessError, JobControl};
use crate::sandbox::Isolation;
use tuplewright_base::lease::LeaseKeeper;

use super::each::each_controlled;
use super::{EventSink, Events, JobError, JobEventKind};

/// The lease stage name of verification.
pub const STAGE: &str = "verify";

/// What a verify job does, typed.
#[derive(Debug, Clone)]
pub struct VerifySpec {
    /// The stored tuples, in order.
    pub tasks: Vec<String>,
    /// Sandbox isolation of the scripts.
    pub isolation: Isolation,
}

/// One tuple's verification.
#[derive(Debug)]
pub enum Verified {
    /// Verified (passing or failing), or could not be run (status unchanged).
    Done(Result<Verification, HarnessError>),
    /// Not claimed (another live owner): why.
    Skipped(String),
}

/// What the job needs from the process that runs it.
pub struct VerifyEnv<'a> {
    /// Loop, sandbox and app settings.
    pub config: &'a Config,
    /// The store.
    pub bus: &'a Bus,
    /// Task leases.
    pub leases: &'a LeaseKeeper,
    /// The runtime's flag (Ctrl-C).
    pub cancel: &'a Arc<AtomicBool>,
    /// Pause / resume / cancel between tuples (a tuple in flight always finishes).
    pub control: &'a JobControl,
    /// Called once the runtime is up (e.g. to install a Ctrl-C handler).
    pub on_start: &'a dyn Fn(&tokio::runtime::Runtime),
}

/// Verifies `spec.tasks` one after another; results keep their order.
pub fn run(
    spec: &VerifySpec,
    env: &VerifyEnv<'_>,
    sink: EventSink<'_>,
) -> Result<Vec<(String, Verified)>, JobError> {
    let events = Events::new(sink);
    let results = with_loop_runtime(
        env.config,
        spec.isolation,
        (&NoAgent, &NoAgent),
        env.cancel,
        |rt| (env.on_start)(rt),
        |rt| {
            each_controlled(
                env.bus,
                env.control,
                STAGE,
                serde_json::json!({}),
                &spec.tasks,
                |id| {
                    let r = env
                        .leases
                        .run_claimed(id, STAGE, None, || verify_task(rt, env.bus, id));
                    let v = match r {
                        Ok(Ok(r)) => Verified::Done(r),
                        Ok(Err(refused)) => {
                            Verified::Skipped(refused.refusal().unwrap_or_default())
                        }
                        Err(e) => Verified::Done(Err(e.into())),
                    };
                    let outcome = match &v {
                        Verified::Done(Ok(v)) if v.ok => "passed",
                        Verified::Done(Ok(_)) => "failed",
                        Verified::Done(Err(_)) => "infra",
                        Verified::Skipped(_) => "leased",
                    };
                    events.emit(JobEventKind::TupleDone {
                        task: id.to_string(),
                        outcome,
                    });
                    (v, outcome)
                },
            )
        },
    )?;
    Ok(results)
}
