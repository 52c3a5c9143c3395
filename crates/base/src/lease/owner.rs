//! Who holds a lease: a process on a host, and whether such a process is still alive.
//!
//! On the owner's own host (same host name and same kernel boot) a dead owner is detectable at
//! once: its pid no longer runs, or runs with another start time (the pid was reused). On the same
//! host after a reboot every owner of the previous boot is dead. On another host only the lease's
//! expiry tells.

use serde::Serialize;

/// The identity of a lease owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Owner {
    /// Unique per owner (`host:pid:random`); a lease row belongs to exactly one.
    pub id: String,
    /// Host name.
    pub host: String,
    /// The kernel's boot id (`/proc/sys/kernel/random/boot_id`), empty when unknown.
    pub boot_id: String,
    /// Process id.
    pub pid: u32,
    /// The process's start time in clock ticks since boot (`/proc/PID/stat` field 22): guards
    /// against a reused pid. `None` when unknown.
    pub pid_start: Option<u64>,
}

impl Owner {
    /// This process, with a fresh random suffix (two keepers in one process are two owners).
    pub fn current() -> Owner {
        let host = host_name();
        let pid = std::process::id();
        let u = uuid::Uuid::new_v4().simple().to_string();
        Owner {
            id: format!("{host}:{pid}:{}", &u[..8]),
            host,
            boot_id: boot_id(),
            pid,
            pid_start: process_start(pid),
        }
    }

    /// An owner on this host whose process has already exited (a `true` child, waited for): what a
    /// worker killed mid-task looks like to the others. For tests of dead-owner handling; `tag`
    /// ends its id.
    pub fn exited(tag: &str) -> std::io::Result<Owner> {
        let mut child = std::process::Command::new("true").spawn()?;
        let pid = child.id();
        child.wait()?;
        let me = Owner::current();
        Ok(Owner {
            id: format!("{}:{pid}:{tag}", me.host),
            pid,
            pid_start: None,
            ..me
        })
    }
}

/// Why a lease held by someone else may be taken over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TakeoverReason {
    /// `expires_at` has passed: the owner stopped renewing.
    Expired,
    /// Same host and boot, and the owner's process is gone.
    DeadProcess,
    /// Same host, another boot: the machine rebooted since the claim.
    Rebooted,
}

impl TakeoverReason {
    /// The name used in events and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            TakeoverReason::Expired => "expired",
            TakeoverReason::DeadProcess => "dead_process",
            TakeoverReason::Rebooted => "rebooted",
        }
    }
}

/// Whether the holder `(host, boot_id, pid, pid_start)` is known dead, seen from `me`.
pub fn holder_dead(
    me: &Owner,
    host: &str,
    boot: &str,
    pid: u32,
    pid_start: Option<u64>,
) -> Option<TakeoverReason> {
    if host != me.host || boot.is_empty() || me.boot_id.is_empty() {
        return None;
    }
    if boot != me.boot_id {
        return Some(TakeoverReason::Rebooted);
    }
    if !process_runs(pid) {
        return Some(TakeoverReason::DeadProcess);
    }
    match (pid_start, process_start(pid)) {
        (Some(a), Some(b)) if a != b => Some(TakeoverReason::DeadProcess),
        _ => None,
    }
}

fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into the buffer we own.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc == 0 {
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        let name = String::from_utf8_lossy(&buf[..end]).trim().to_string();
        if !name.is_empty() {
            return name;
        }
    }
    "localhost".to_string()
}

fn boot_id() -> String {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// True while a process with this pid exists (a zombie counts as gone).
fn process_runs(pid: u32) -> bool {
    let Ok(pid_t) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks for existence and permission; nothing is delivered.
    let rc = unsafe { libc::kill(pid_t, 0) };
    let exists = rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    exists && proc_state(pid) != Some('Z')
}

/// Fields after the `(comm)` of `/proc/PID/stat` (comm may hold spaces and parentheses).
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    Some(rest.split_whitespace().map(str::to_string).collect())
}

fn proc_state(pid: u32) -> Option<char> {
    stat_fields(pid)?.first()?.chars().next()
}

/// Start time of `pid` in clock ticks after boot (field 22 of `/proc/PID/stat`).
pub fn process_start(pid: u32) -> Option<u64> {
    // Field 3 (state) is index 0 after the comm; field 22 is index 19.
    stat_fields(pid)?.get(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_reaped_child_is_dead() {
        let me = Owner::current();
        assert!(me.id.starts_with(&format!("{}:{}:", me.host, me.pid)));
        assert!(me.pid_start.is_some(), "no /proc start time for ourselves");
        assert_eq!(
            holder_dead(&me, &me.host, &me.boot_id, me.pid, me.pid_start),
            None
        );
        let pid = Owner::exited("dead").unwrap().pid;
        assert_eq!(
            holder_dead(&me, &me.host, &me.boot_id, pid, None),
            Some(TakeoverReason::DeadProcess)
        );
        // Our pid with another start time is a reused pid: its owner is gone.
        let other_start = me.pid_start.map(|s| s + 1);
        assert_eq!(
            holder_dead(&me, &me.host, &me.boot_id, me.pid, other_start),
            Some(TakeoverReason::DeadProcess)
        );
        assert_eq!(
            holder_dead(&me, &me.host, "another-boot", me.pid, me.pid_start),
            Some(TakeoverReason::Rebooted)
        );
        // Another host: only expiry can tell.
        assert_eq!(holder_dead(&me, "elsewhere", &me.boot_id, pid, None), None);
    }
}
