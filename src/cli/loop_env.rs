//! Shared set-up of the commands that run scripts (`run`, `verify`): the async runtime, the embedded
//! state-API fleet, Ctrl-C handling and the [`LoopRuntime`] handed to the engine.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::engine::agents::{Discriminator, Generator};
use crate::engine::config::Config;
use crate::engine::harness::session;
use crate::engine::harness::task::LoopRuntime;
use crate::engine::sandbox::Isolation;

/// Builds the runtime and the fleet, runs `f`, then shuts the fleet down (on every path).
pub fn with_loop_runtime<T>(
    config: &Config,
    unsafe_no_sandbox: bool,
    agents: (&dyn Generator, &dyn Discriminator),
    cancel: &Arc<AtomicBool>,
    f: impl FnOnce(&LoopRuntime<'_>) -> T,
) -> anyhow::Result<T> {
    let out = session::with_loop_runtime(
        config,
        isolation(unsafe_no_sandbox),
        agents,
        cancel,
        |rt| on_start(rt, cancel, unsafe_no_sandbox),
        f,
    )?;
    Ok(out)
}

/// The isolation `--unsafe-no-sandbox` asks for.
pub fn isolation(unsafe_no_sandbox: bool) -> Isolation {
    if unsafe_no_sandbox {
        Isolation::UnsafeNoSandbox
    } else {
        Isolation::Required
    }
}

/// What a headless command does once its runtime is up: Ctrl-C sets `cancel`, and a warning when
/// scripts run without the sandbox.
pub fn on_start(rt: &tokio::runtime::Runtime, cancel: &Arc<AtomicBool>, unsafe_no_sandbox: bool) {
    install_ctrl_c(rt, cancel.clone());
    if unsafe_no_sandbox {
        eprintln!("WARNING: --unsafe-no-sandbox: agent-written scripts run WITHOUT isolation");
    }
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
