//! Per-host caps: at most N screens (Xvfb displays) and N sandboxed script runs at once on one
//! host, over every tuplewright process on it (`[worker] screens = N`, `sandboxes = N`).
//!
//! The cap is a host-local counted semaphore of lock files: `DIR/<kind>/slot-<i>.lock` for
//! `i in 0..N`. A holder keeps an exclusive `flock` on one of them for as long as its screen or
//! sandbox run lives; the kernel drops the lock when the process exits, however it dies
//! (`kill -9` included), so a killed worker never keeps a slot. `DIR` is `[worker] host_slots_dir`
//! (default `$XDG_RUNTIME_DIR/tuplewright/host-slots`, else `/tmp/tuplewright-host-slots-<uid>`):
//! every process that must share the cap has to use the same directory and the same N.
//!
//! A process installs its caps once ([`install`], as the `worker` and `run` commands do); from
//! then on [`tuplewright_engine::screen::Screen::start`] and the sandbox's script runner take a slot
//! before they start anything and wait while all are taken. Without installed caps, or for an
//! uncapped kind, nothing waits.

#[cfg(test)]
mod tests;

use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// How long a start waits for a slot before it fails (an infrastructure failure: retried by a
/// worker, never scored).
pub const PATIENCE: Duration = Duration::from_secs(30 * 60);

/// How often a waiting start looks for a free slot.
const POLL: Duration = Duration::from_millis(25);

/// What a cap counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Xvfb displays ([`tuplewright_engine::screen::Screen`]).
    Screen,
    /// Sandboxed script runs (setup, golden patch, reward, probes).
    Sandbox,
}

impl Kind {
    /// The directory name of the kind's lock files (and the config key).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Screen => "screens",
            Kind::Sandbox => "sandboxes",
        }
    }
}

/// `[worker]`: limits of the worker processes on one host.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkerConfig {
    /// Screens (Xvfb displays) at once on this host, over every tuplewright process using the
    /// same `host_slots_dir`; unset = no cap.
    pub screens: Option<u32>,
    /// Sandboxed script runs at once on this host, likewise; unset = no cap.
    pub sandboxes: Option<u32>,
    /// Where the lock files of the caps live (default: `$XDG_RUNTIME_DIR/tuplewright/host-slots`,
    /// else `/tmp/tuplewright-host-slots-<uid>`).
    pub host_slots_dir: Option<PathBuf>,
}

impl WorkerConfig {
    /// The caps this config asks for; an error names the key when one is 0.
    pub fn caps(&self) -> Result<HostCaps, String> {
        for (key, n) in [("screens", self.screens), ("sandboxes", self.sandboxes)] {
            if n == Some(0) {
                return Err(format!(
                    "[worker] {key} = 0 would never let one start: give at least 1, or leave it \
                     out for no cap"
                ));
            }
        }
        Ok(HostCaps {
            dir: self.host_slots_dir.clone().unwrap_or_else(default_dir),
            screens: self.screens,
            sandboxes: self.sandboxes,
        })
    }
}

/// The default lock directory of this user.
pub fn default_dir() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(d) => Path::new(&d).join("tuplewright").join("host-slots"),
        None => {
            // SAFETY: geteuid has no preconditions.
            let uid = unsafe { libc::geteuid() };
            std::env::temp_dir().join(format!("tuplewright-host-slots-{uid}"))
        }
    }
}

/// The caps of one host and where their lock files live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostCaps {
    /// The lock directory.
    pub dir: PathBuf,
    /// Screens at once.
    pub screens: Option<u32>,
    /// Sandbox runs at once.
    pub sandboxes: Option<u32>,
}

/// One slot held: released when dropped (or when the process dies).
#[derive(Debug)]
pub struct HostSlot {
    /// Which slot, `0..cap`.
    pub index: u32,
    _file: File,
}

impl HostCaps {
    fn cap(&self, kind: Kind) -> Option<u32> {
        match kind {
            Kind::Screen => self.screens,
            Kind::Sandbox => self.sandboxes,
        }
    }

    /// Takes a free slot of `kind` if one is: `Ok(None)` when every slot is held.
    pub fn try_take(&self, kind: Kind) -> std::io::Result<Option<HostSlot>> {
        let Some(cap) = self.cap(kind) else {
            return Err(std::io::Error::other(format!(
                "no cap on {} is set",
                kind.as_str()
            )));
        };
        let dir = self.dir.join(kind.as_str());
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)?;
        for index in 0..cap {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .custom_flags(libc::O_CLOEXEC | libc::O_NOFOLLOW)
                .open(dir.join(format!("slot-{index}.lock")))?;
            // SAFETY: the descriptor is valid for the lifetime of `file`; flock has no memory
            // effects. The lock belongs to this open file description (not inherited by children
            // thanks to O_CLOEXEC) and goes away with the process.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                return Ok(Some(HostSlot { index, _file: file }));
            }
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(err);
            }
        }
        Ok(None)
    }

    fn timed_out(&self, kind: Kind, patience: Duration) -> std::io::Error {
        std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "no {} slot of this host came free within {} s ([worker] {} = {}, lock files in {})",
                kind.as_str(),
                patience.as_secs(),
                kind.as_str(),
                self.cap(kind).unwrap_or(0),
                self.dir.join(kind.as_str()).display()
            ),
        )
    }

    /// Waits (blocking, up to `patience`) for a slot of `kind`; `Ok(None)` when it is uncapped.
    pub fn take(&self, kind: Kind, patience: Duration) -> std::io::Result<Option<HostSlot>> {
        if self.cap(kind).is_none() {
            return Ok(None);
        }
        let deadline = Instant::now() + patience;
        loop {
            if let Some(slot) = self.try_take(kind)? {
                return Ok(Some(slot));
            }
            if Instant::now() >= deadline {
                return Err(self.timed_out(kind, patience));
            }
            std::thread::sleep(POLL);
        }
    }

    /// [`HostCaps::take`] for async callers (waits without blocking the runtime's thread).
    pub async fn take_async(
        &self,
        kind: Kind,
        patience: Duration,
    ) -> std::io::Result<Option<HostSlot>> {
        if self.cap(kind).is_none() {
            return Ok(None);
        }
        let deadline = Instant::now() + patience;
        loop {
            if let Some(slot) = self.try_take(kind)? {
                return Ok(Some(slot));
            }
            if Instant::now() >= deadline {
                return Err(self.timed_out(kind, patience));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

static CAPS: OnceLock<HostCaps> = OnceLock::new();

/// Installs this process's caps; false when caps were installed already.
pub fn install(caps: HostCaps) -> bool {
    CAPS.set(caps).is_ok()
}

/// A slot of `kind` under the installed caps, waiting up to [`PATIENCE`]; `Ok(None)` without caps.
pub fn take(kind: Kind) -> std::io::Result<Option<HostSlot>> {
    match CAPS.get() {
        Some(c) => c.take(kind, PATIENCE),
        None => Ok(None),
    }
}

/// Whether the installed caps limit `kind` (then a slot held by an idle holder is a slot a
/// waiting start cannot have).
pub fn capped(kind: Kind) -> bool {
    CAPS.get().is_some_and(|c| c.cap(kind).is_some())
}

/// [`take`] for async callers.
pub async fn take_async(kind: Kind) -> std::io::Result<Option<HostSlot>> {
    match CAPS.get() {
        Some(c) => c.take_async(kind, PATIENCE).await,
        None => Ok(None),
    }
}
