//! Spawning the sandbox (or the bare interpreter): limits, descriptor hygiene, timeout kill and
//! output capture.

use std::fs::File;
use std::os::unix::io::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use super::capture::capture;
use super::config::Limits;
use super::result::{Captured, LogSink, Stream};
use super::run::wall_timeout;

/// What came back from one process run.
#[derive(Debug)]
pub struct Exit {
    /// Exit status of the spawned process (bwrap or python).
    pub status: Option<ExitStatus>,
    /// Whether the wall timeout killed it.
    pub timed_out: bool,
    /// bwrap's `--json-status-fd` report, if any.
    pub status_report: Option<String>,
    /// Host pid of the sandbox's pid 1, from that report.
    pub sandbox_pid: Option<u32>,
    /// Captured stdout.
    pub stdout: Captured,
    /// Captured stderr.
    pub stderr: Captured,
    /// Remarks for the result.
    pub notes: Vec<String>,
    /// Whether the run's memory cgroup killed a process at its limit (set by the caller).
    pub oom_killed: bool,
}

/// The first descriptor number [`Handoff::fds`] get in the child (3 is bwrap's status report).
pub const FIRST_HANDOFF_FD: RawFd = 4;

/// What the child gets besides its limits: descriptors it inherits at fixed numbers, and the
/// cgroup it joins before it executes anything.
#[derive(Debug, Default)]
pub struct Handoff {
    /// Inherited as `FIRST_HANDOFF_FD`, `FIRST_HANDOFF_FD + 1`, ... (e.g. seccomp programs).
    pub fds: Vec<File>,
    /// An open `cgroup.procs`; the child writes `0` to it (joins the cgroup) first thing.
    pub cgroup_procs: Option<File>,
}

/// A close-on-exec duplicate of `f` numbered 64 or above, so moving descriptors to their fixed
/// numbers in the child can never overwrite another one still to be moved.
fn high_dup(f: &File) -> std::io::Result<OwnedFd> {
    // SAFETY: fcntl(F_DUPFD_CLOEXEC) on a descriptor we own; the result is a new descriptor.
    let fd = unsafe { libc::fcntl(f.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 64) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just created and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// setrlimit(2) of `resource`; async-signal-safe (for `pre_exec`).
pub(crate) fn set_limit(
    resource: libc::__rlimit_resource_t,
    soft: u64,
    hard: u64,
) -> std::io::Result<()> {
    let lim = libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: setrlimit is async-signal-safe and `lim` is a valid rlimit value.
    if unsafe { libc::setrlimit(resource, &lim) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

fn kill_group(pid: u32) {
    // SAFETY: plain kill(2) on a process group we created (negative pid).
    unsafe {
        libc::kill(-(pid as i32), libc::SIGKILL);
    }
}

/// Spawn `cmd` in its own process group under `limits`, capture its output and enforce the wall
/// timeout. With `status_path`, bwrap's JSON status goes to that file through fd 3.
pub async fn execute(
    mut cmd: tokio::process::Command,
    limits: &Limits,
    status_path: Option<&Path>,
    handoff: Handoff,
    live: Option<LogSink>,
) -> std::io::Result<Exit> {
    let status_file = match status_path {
        Some(p) => Some(high_dup(&std::fs::File::create(p)?)?),
        None => None,
    };
    let status_fd = status_file.as_ref().map(|f| f.as_raw_fd());
    let handed: Vec<OwnedFd> = handoff.fds.iter().map(high_dup).collect::<Result<_, _>>()?;
    let handed_fds: Vec<RawFd> = handed.iter().map(|f| f.as_raw_fd()).collect();
    let cgroup_fd = handoff.cgroup_procs.as_ref().map(|f| f.as_raw_fd());
    let l = limits.clone();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.process_group(0).kill_on_drop(true);
    // SAFETY: the closure only calls async-signal-safe functions (write, setrlimit, close_range,
    // dup2) and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(fd) = cgroup_fd {
                // Join the run's cgroup before anything else; the descriptor was opened by the
                // engine, so the kernel checks the opener's rights.
                if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            set_limit(
                libc::RLIMIT_CPU,
                l.cpu_seconds,
                l.cpu_seconds.saturating_add(1),
            )?;
            set_limit(
                libc::RLIMIT_AS,
                l.address_space_bytes,
                l.address_space_bytes,
            )?;
            set_limit(libc::RLIMIT_NPROC, l.processes, l.processes)?;
            set_limit(libc::RLIMIT_FSIZE, l.file_size_bytes, l.file_size_bytes)?;
            set_limit(libc::RLIMIT_NOFILE, l.open_files, l.open_files)?;
            // Every inherited descriptor from 3 up (an engine database, a socket...) closes at exec;
            // the status file is then re-created as fd 3 below, without close-on-exec.
            // CLOSE_RANGE_CLOEXEC keeps std's own exec-error pipe working.
            if libc::syscall(
                libc::SYS_close_range,
                3u32,
                u32::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            // Every source is numbered 64 or above (`high_dup`), so no dup2 overwrites one.
            if let Some(fd) = status_fd {
                if libc::dup2(fd, 3) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            for (i, fd) in handed_fds.iter().enumerate() {
                if libc::dup2(*fd, FIRST_HANDOFF_FD + i as RawFd) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn()?;
    drop(status_file);
    drop(handed);
    drop(handoff);
    let pid = child.id().unwrap_or(0);
    let cap = limits.capture_bytes;
    let live_out = live.clone().map(|s| (s, Stream::Stdout));
    let live_err = live.map(|s| (s, Stream::Stderr));
    let out = child
        .stdout
        .take()
        .map(|s| tokio::spawn(capture(s, cap, live_out)));
    let err = child
        .stderr
        .take()
        .map(|s| tokio::spawn(capture(s, cap, live_err)));
    let (status, timed_out) = match tokio::time::timeout(wall_timeout(limits), child.wait()).await {
        Ok(r) => (Some(r?), false),
        Err(_) => {
            // Kill the namespace's pid 1 first so the outer bwrap reaps it and exits by itself
            // (killing bwrap first would orphan pid 1 to the host's init as a zombie).
            let inner = status_path
                .and_then(|p| std::fs::read_to_string(p).ok())
                .as_deref()
                .and_then(reported_child_pid);
            if let Some(inner) = inner {
                // SAFETY: kill(2) on the namespace init bwrap reported for this run.
                unsafe {
                    libc::kill(inner, libc::SIGKILL);
                }
            }
            match tokio::time::timeout(Duration::from_secs(2), child.wait()).await {
                Ok(r) => (r.ok(), true),
                Err(_) => {
                    if pid != 0 {
                        kill_group(pid);
                    }
                    let _ = child.start_kill();
                    (child.wait().await.ok(), true)
                }
            }
        }
    };
    let mut notes = Vec::new();
    let status_report = status_path.and_then(|p| std::fs::read_to_string(p).ok());
    if let Some(inner) = status_report.as_deref().and_then(reported_child_pid) {
        reap_namespace_init(inner).await;
    }
    let stdout = join_capture(out, pid, &mut notes).await;
    let stderr = join_capture(err, pid, &mut notes).await;
    let sandbox_pid = status_report
        .as_deref()
        .and_then(reported_child_pid)
        .and_then(|p| u32::try_from(p).ok());
    Ok(Exit {
        status,
        timed_out,
        status_report,
        sandbox_pid,
        stdout,
        stderr,
        notes,
        oom_killed: false,
    })
}

async fn join_capture(
    task: Option<tokio::task::JoinHandle<Captured>>,
    pid: u32,
    notes: &mut Vec<String>,
) -> Captured {
    let Some(mut task) = task else {
        return Captured::default();
    };
    match tokio::time::timeout(Duration::from_secs(2), &mut task).await {
        Ok(Ok(c)) => c,
        _ => {
            // A leftover process still holds the pipe (only possible unsandboxed): kill the group.
            if pid != 0 {
                kill_group(pid);
            }
            match tokio::time::timeout(Duration::from_secs(2), &mut task).await {
                Ok(Ok(c)) => c,
                _ => {
                    task.abort();
                    notes.push(
                        "output capture cut: a leftover process held the pipe open".to_string(),
                    );
                    Captured::default()
                }
            }
        }
    }
}

/// The host pid of the sandbox's pid-namespace init (bwrap's `child-pid`).
fn reported_child_pid(report: &str) -> Option<i32> {
    report
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v.get("child-pid").and_then(|c| c.as_i64()))
        .and_then(|c| i32::try_from(c).ok())
}

/// Whether `pid` is alive (a zombie counts as dead).
fn alive(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next());
    !matches!(state, Some('Z') | Some('X') | None)
}

/// Make sure the sandbox's pid namespace is gone: its init dies with bwrap (`--die-with-parent`),
/// but asynchronously; kill it outright and wait (bounded) until it is dead. When a pid
/// namespace's init dies the kernel kills every process in it, `setsid` or not.
async fn reap_namespace_init(pid: i32) {
    for _ in 0..1000 {
        if !alive(pid) {
            return;
        }
        // SAFETY: kill(2) on the namespace init bwrap reported for this run.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}
