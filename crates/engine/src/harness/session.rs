//! Set-up shared by everything that runs rounds (`run`, `verify`, `rollout` and the workbench's job
//! runner): the async runtime, the embedded state-API fleet and the [`LoopRuntime`] handed to the
//! engine, torn down on every path.

use std::sync::atomic::AtomicBool;

use crate::agents::{Discriminator, Generator};
use crate::config::Config;
use crate::sandbox::Isolation;

use super::task::LoopRuntime;
use super::{Environments, Fleet, HarnessError};

/// Builds a two-thread runtime and the fleet, calls `on_start` with the runtime (e.g. to install a
/// Ctrl-C handler), runs `f`, then shuts the fleet down — also when `f` returns early.
pub fn with_loop_runtime<T>(
    config: &Config,
    isolation: Isolation,
    agents: (&dyn Generator, &dyn Discriminator),
    cancel: &AtomicBool,
    on_start: impl FnOnce(&tokio::runtime::Runtime),
    f: impl FnOnce(&LoopRuntime<'_>) -> T,
) -> Result<T, HarnessError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| HarnessError::Infra(format!("starting the async runtime: {e}")))?;
    // Checked before anything starts: a bad pool is a message, not a half-built fleet.
    let pool = match config.agreement.environments {
        Environments::Local => None,
        Environments::Osworld => Some(
            crate::osworld::loop_pool(&config.osworld)
                .map_err(|e| HarnessError::Task(format!("[osworld]: {e}")))?,
        ),
    };
    // Scratch directories of runs that were killed (their owners can no longer remove them).
    crate::sandbox::sweep_abandoned(&config.sandbox.run_dir_parent);
    let judge = config.judge.build().map_err(HarnessError::Task)?;
    let mut fleet = rt.block_on(Fleet::start_with(&config.agreement.work_dir, &config.apps))?;
    fleet.set_judge(judge);
    if let Some(pool) = pool {
        fleet.set_osworld(pool);
    }
    on_start(&rt);
    let runtime = LoopRuntime {
        rt: rt.handle().clone(),
        fleet: &fleet,
        cfg: &config.agreement,
        sandbox: &config.sandbox,
        isolation,
        generator: agents.0,
        discriminator: agents.1,
        cancel,
    };
    let out = f(&runtime);
    rt.block_on(fleet.shutdown());
    Ok(out)
}
