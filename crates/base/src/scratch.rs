//! Temporary directories that survive their owner's `kill -9` only until the next run.
//!
//! A process that makes a scratch directory (an export's `.tw-tmp-*`, a sandbox's `tw-sandbox-*`, a
//! run's `tuplewright-run-*`) puts its pid in the name and holds an exclusive `flock` on the
//! directory while it uses it ([`DirLock`]). The kernel drops the lock when the process dies, however
//! it dies, so [`sweep`] can tell an abandoned directory from a live one: nobody holds its lock and
//! its process is gone (or, should the pid have been reused, it is older than [`STALE_AFTER`]).
//! Directories of older versions that never took the lock are removed by their pid alone, as before.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An unlocked scratch directory whose pid is alive (a reused pid) is still abandoned after this.
pub const STALE_AFTER: Duration = Duration::from_secs(24 * 3600);

/// An exclusive lock on a directory, held until dropped (or until the process dies).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

fn open_dir(dir: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(dir)
}

/// Tries an exclusive non-blocking `flock` on `file`: true when this call took it.
fn try_lock(file: &File) -> bool {
    // SAFETY: the descriptor is valid for the lifetime of `file`; flock has no memory effects.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

impl DirLock {
    /// Locks `dir` (which must be a directory, not a link); fails if another process holds it.
    pub fn acquire(dir: &Path) -> std::io::Result<DirLock> {
        let file = open_dir(dir)?;
        if !try_lock(&file) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::WouldBlock,
                format!("{} is locked by another process", dir.display()),
            ));
        }
        Ok(DirLock { _file: file })
    }
}

/// True when a process with this pid exists (a process of another user counts as alive).
pub fn pid_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // SAFETY: kill with signal 0 sends nothing; it only asks whether the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

fn older_than(dir: &Path, age: Duration) -> bool {
    dir.symlink_metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|e| e > age)
}

/// Removes every directory in `parent` whose name starts with `prefix` and that is abandoned: its
/// lock is free and the pid `pid_of(name)` names is gone (or it is older than [`STALE_AFTER`]).
/// Names without a pid are left alone. Returns the directories removed.
pub fn sweep(parent: &Path, prefix: &str, pid_of: impl Fn(&str) -> Option<i32>) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !name.starts_with(prefix) || !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Some(pid) = pid_of(&name) else { continue };
        let path = e.path();
        // Held while removing, so a (buggy) second sweeper cannot race this one.
        let Ok(lock) = DirLock::acquire(&path) else {
            continue;
        };
        if (!pid_alive(pid) || older_than(&path, STALE_AFTER))
            && std::fs::remove_dir_all(&path).is_ok()
        {
            removed.push(path);
        }
        drop(lock);
    }
    removed
}

/// The pid in `<prefix><pid>-<rest>` (the dash is required: a name of another shape, say an
/// older version's random suffix that happens to be all digits, is not taken for a pid).
pub fn pid_after_prefix(name: &str, prefix: &str) -> Option<i32> {
    name.strip_prefix(prefix)?.split_once('-')?.0.parse().ok()
}

/// The pid in `<anything>-<pid>` (the last dash-separated field).
pub fn pid_at_end(name: &str) -> Option<i32> {
    name.rsplit('-').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pid that is certainly not running: a child that has exited and been reaped.
    fn dead_pid() -> i32 {
        let mut c = std::process::Command::new("true").spawn().unwrap();
        let pid = c.id() as i32;
        c.wait().unwrap();
        pid
    }

    #[test]
    fn sweep_removes_dead_owners_dirs_and_keeps_locked_or_live_ones() {
        let parent = tempfile::tempdir().unwrap();
        let dead = dead_pid();
        let me = std::process::id() as i32;
        let abandoned = parent.path().join(format!("tw-x-{dead}-a"));
        let locked = parent.path().join(format!("tw-x-{dead}-b"));
        let live = parent.path().join(format!("tw-x-{me}-c"));
        let other = parent.path().join(format!("keep-{dead}-d"));
        for d in [&abandoned, &locked, &live, &other] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("f"), "x").unwrap();
        }
        let _held = DirLock::acquire(&locked).unwrap();
        let removed = sweep(parent.path(), "tw-x-", |n| pid_after_prefix(n, "tw-x-"));
        assert_eq!(removed, vec![abandoned.clone()]);
        assert!(!abandoned.exists());
        assert!(locked.exists() && live.exists() && other.exists());
    }

    #[test]
    fn a_reused_pid_does_not_protect_an_old_unlocked_dir() {
        let parent = tempfile::tempdir().unwrap();
        let me = std::process::id() as i32;
        let old = parent.path().join(format!(".tw-tmp-t1-{me}"));
        std::fs::create_dir(&old).unwrap();
        let f = File::open(&old).unwrap();
        let long_ago = std::time::SystemTime::now() - STALE_AFTER - Duration::from_secs(60);
        f.set_modified(long_ago).unwrap();
        let removed = sweep(parent.path(), ".tw-tmp-", pid_at_end);
        assert_eq!(removed, vec![old]);
    }

    #[test]
    fn a_lock_is_exclusive_between_open_files_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let a = DirLock::acquire(dir.path()).unwrap();
        let err = DirLock::acquire(dir.path()).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::WouldBlock);
        drop(a);
        assert!(DirLock::acquire(dir.path()).is_ok());
    }
}
