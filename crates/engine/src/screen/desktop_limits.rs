//! Resource limits of the desktop's programs (`[screen.desktop.limits]`), set on each bwrap
//! command before it runs, so the window manager, the file manager, the terminal, the editor
//! and everything started from them (a person's or an agent's shell commands) inherit them.
//! They are the script sandbox's kind of limits. Programs live for the whole trial, so the
//! values are per program, not per run.

use std::os::unix::process::CommandExt as _;
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::sandbox::set_limit;

/// Per-process limits of desktop programs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DesktopLimits {
    /// CPU seconds per process (`RLIMIT_CPU`; SIGXCPU, then SIGKILL one second later).
    pub cpu_seconds: u64,
    /// Private writable memory per process in bytes (`RLIMIT_DATA`: heap and anonymous
    /// mappings). Not `RLIMIT_AS`, which the script sandbox uses: browsers and other programs
    /// an OSWorld setup may launch reserve terabytes of address space they never touch.
    pub data_bytes: u64,
    /// Largest file a program may write, in bytes (`RLIMIT_FSIZE`).
    pub file_size_bytes: u64,
    /// Open file descriptors per process (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// Processes and threads of the app uid (`RLIMIT_NPROC`; the kernel counts every process
    /// of that uid, so this is a ceiling against fork bombs, not a per-screen budget; root is
    /// exempt).
    pub processes: u64,
}

impl Default for DesktopLimits {
    fn default() -> Self {
        Self {
            cpu_seconds: 3600,
            data_bytes: 4 << 30,
            file_size_bytes: 1 << 30,
            open_files: 1024,
            processes: 4096,
        }
    }
}

impl DesktopLimits {
    /// Makes `cmd` set these limits (and no core dumps) in the child before it executes.
    pub fn apply(&self, cmd: &mut Command) {
        let l = self.clone();
        // SAFETY: the closure only calls setrlimit (async-signal-safe) and allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                set_limit(libc::RLIMIT_CORE, 0, 0)?;
                set_limit(
                    libc::RLIMIT_CPU,
                    l.cpu_seconds,
                    l.cpu_seconds.saturating_add(1),
                )?;
                set_limit(libc::RLIMIT_DATA, l.data_bytes, l.data_bytes)?;
                set_limit(libc::RLIMIT_FSIZE, l.file_size_bytes, l.file_size_bytes)?;
                set_limit(libc::RLIMIT_NOFILE, l.open_files, l.open_files)?;
                set_limit(libc::RLIMIT_NPROC, l.processes, l.processes)
            });
        }
    }
}
