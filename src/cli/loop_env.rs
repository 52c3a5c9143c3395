//! Shared set-up of the commands that run scripts (`run`, `verify`): the async runtime, the embedded
//! state-API fleet, Ctrl-C handling and the [`LoopRuntime`] handed to the engine.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context as _;

use crate::engine::agents::{Discriminator, Generator};
use crate::engine::config::Config;
use crate::engine::harness::task::LoopRuntime;
use crate::engine::harness::Fleet;
use crate::engine::sandbox::Isolation;

/// Builds the runtime and the fleet, runs `f`, then shuts the fleet down (on every path).
pub fn with_loop_runtime<T>(
    config: &Config,
    unsafe_no_sandbox: bool,
    agents: (&dyn Generator, &dyn Discriminator),
    cancel: &Arc<AtomicBool>,
    f: impl FnOnce(&LoopRuntime<'_>) -> T,
) -> anyhow::Result<T> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let fleet = rt.block_on(Fleet::start(&config.agreement.work_dir))?;
    install_ctrl_c(&rt, cancel.clone());
    let isolation = if unsafe_no_sandbox {
        eprintln!("WARNING: --unsafe-no-sandbox: agent-written scripts run WITHOUT isolation");
        Isolation::UnsafeNoSandbox
    } else {
        Isolation::Required
    };
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

fn install_ctrl_c(rt: &tokio::runtime::Runtime, cancel: Arc<AtomicBool>) {
    rt.spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("\nstopping after the current steps (Ctrl-C again to force)…");
            cancel.store(true, Ordering::SeqCst);
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("forced stop");
                std::process::exit(130);
            }
        }
    });
}
