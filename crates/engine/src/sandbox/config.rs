//! Configuration of the sandboxed script runner: where its tools live and the resource limits.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Resource limits applied to every sandboxed script (per call; all fields optional in TOML).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Wall-clock timeout in seconds; on expiry every process the script started is killed.
    pub wall_seconds: f64,
    /// CPU time per process in seconds (`RLIMIT_CPU`; SIGXCPU at the limit, SIGKILL one second later).
    pub cpu_seconds: u64,
    /// Address space per process in bytes (`RLIMIT_AS`).
    pub address_space_bytes: u64,
    /// Processes and threads of the sandbox uid (`RLIMIT_NPROC`; enforced because the script runs
    /// as a non-root uid). Counts the sandbox's own helper processes (about 3) too.
    pub processes: u64,
    /// Largest file a script may write, in bytes (`RLIMIT_FSIZE`).
    pub file_size_bytes: u64,
    /// Open file descriptors per process (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// Size of the sandbox's private `/tmp` (a tmpfs, so it is memory) in bytes.
    pub tmp_bytes: u64,
    /// Size of the sandbox's private `/dev/shm` (a tmpfs: POSIX shared memory, semaphores).
    pub shm_bytes: u64,
    /// Memory of all the sandbox's processes together, tmpfs pages included (a memory cgroup
    /// per run, where the machine allows one; see `sandbox::cgroup`). 0 = no cgroup.
    pub memory_bytes: u64,
    /// Bytes of stdout (and separately of stderr) kept; the rest is counted and dropped, keeping the
    /// head and the last 64 KiB so the final `REWARD:` line survives.
    pub capture_bytes: usize,
    /// Largest request body the forwarder accepts from a script (bytes); larger gets 413.
    pub request_body_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            wall_seconds: 120.0,
            cpu_seconds: 100,
            address_space_bytes: 1 << 30,
            processes: 128,
            file_size_bytes: 512 << 20,
            open_files: 256,
            tmp_bytes: 256 << 20,
            shm_bytes: 64 << 20,
            memory_bytes: 1 << 30,
            capture_bytes: 1 << 20,
            request_body_bytes: 16 << 20,
        }
    }
}

/// Where the runner finds bubblewrap and Python, and which uid scripts run as.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SandboxConfig {
    /// Path of the bubblewrap binary (Debian package `bubblewrap`).
    pub bwrap_path: PathBuf,
    /// The script virtualenv (built from Debian's `/usr/bin/python3` by `tuplewright sandbox setup`);
    /// must be world-readable. Missing venv: fall back to `fallback_python`, noted on the result.
    pub venv_dir: PathBuf,
    /// Interpreter used when the venv is missing (must be executable by `sandbox_uid`).
    pub fallback_python: PathBuf,
    /// First non-root uid (and gid) scripts run as, so `RLIMIT_NPROC` is enforced. Concurrent runs
    /// get distinct uids `sandbox_uid .. sandbox_uid + uid_pool`, each with its own process budget.
    /// The uids need no passwd entry on the host.
    pub sandbox_uid: u32,
    /// How many distinct uids concurrent runs may use (exhausted: runs share `sandbox_uid`).
    pub uid_pool: u32,
    /// Directory for per-run scratch (socket, sid file, bootstrap); must be traversable by `sandbox_uid`.
    pub run_dir_parent: PathBuf,
    /// Default limits (each call may override).
    pub limits: Limits,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self {
            bwrap_path: PathBuf::from("/usr/bin/bwrap"),
            venv_dir: PathBuf::from("/opt/tuplewright/venv"),
            fallback_python: PathBuf::from("/usr/bin/python3"),
            sandbox_uid: 200_000,
            uid_pool: 64,
            run_dir_parent: std::env::temp_dir(),
            limits: Limits::default(),
        }
    }
}

impl SandboxConfig {
    /// The interpreter scripts use: the venv's `bin/python3` if present, else the fallback.
    /// The second value is a note for the result when the fallback was used.
    pub fn python(&self) -> (PathBuf, Option<String>) {
        let venv_python = self.venv_dir.join("bin").join("python3");
        if venv_python.exists() {
            (venv_python, None)
        } else {
            (
                self.fallback_python.clone(),
                Some(format!(
                    "script virtualenv {} is missing; ran {} without the desktop-domain packages \
                     (run `tuplewright sandbox setup` to build it)",
                    self.venv_dir.display(),
                    self.fallback_python.display()
                )),
            )
        }
    }
}
