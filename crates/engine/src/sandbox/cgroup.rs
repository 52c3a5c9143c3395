//! A memory cgroup per sandboxed run: every process of the script together (and the tmpfs pages
//! it writes, `/tmp` and `/dev/shm` included) is held to `Limits::memory_bytes`.
//!
//! The cgroup is created under the engine's own cgroup, so limits set above the engine still
//! hold. cgroup v2 is used when its `memory` controller is enabled for the engine's cgroup's
//! children (`cgroup.subtree_control`); otherwise the v1 `memory` hierarchy when it is mounted
//! and writable (hybrid hosts); otherwise [`MemoryCgroup::create`] says why not and the run
//! relies on its rlimits. The child joins the cgroup itself, before it executes bubblewrap, by
//! writing `0` to `cgroup.procs` through a descriptor opened here (as root), so nothing it
//! forks can start outside.

use std::fs::{self, File};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// Which cgroup interface a run's cgroup uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// The unified hierarchy (`memory.max`, `memory.events`).
    V2,
    /// The legacy `memory` controller (`memory.limit_in_bytes`, `memory.oom_control`).
    V1,
}

/// Where new cgroups go, found once per process.
#[derive(Debug, Clone)]
struct Base {
    dir: PathBuf,
    version: Version,
}

static BASE: OnceLock<Result<Base, String>> = OnceLock::new();
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// One run's memory cgroup; removed by [`MemoryCgroup::release`] (or, best effort, on drop).
#[derive(Debug)]
pub struct MemoryCgroup {
    dir: PathBuf,
    version: Version,
    procs: Option<File>,
}

fn own_path(proc_cgroup: &str, controller: Option<&str>) -> Option<String> {
    proc_cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, ctrls, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = match controller {
            None => ctrls.is_empty(),
            Some(c) => ctrls.split(',').any(|x| x == c),
        };
        hit.then(|| path.trim_start_matches('/').to_string())
    })
}

fn find_base() -> Result<Base, String> {
    let me = fs::read_to_string("/proc/self/cgroup")
        .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
    let mut why = Vec::new();
    let unified = if Path::new("/sys/fs/cgroup/cgroup.controllers").exists() {
        Some(PathBuf::from("/sys/fs/cgroup"))
    } else if Path::new("/sys/fs/cgroup/unified/cgroup.controllers").exists() {
        Some(PathBuf::from("/sys/fs/cgroup/unified"))
    } else {
        None
    };
    match (unified, own_path(&me, None)) {
        (Some(root), Some(path)) => {
            let dir = root.join(path);
            let sub = fs::read_to_string(dir.join("cgroup.subtree_control")).unwrap_or_default();
            if sub.split_whitespace().any(|c| c == "memory") {
                return Ok(Base {
                    dir,
                    version: Version::V2,
                });
            }
            why.push(format!(
                "cgroup v2 at {} has no memory controller delegated to its children",
                dir.display()
            ));
        }
        _ => why.push("no cgroup v2 hierarchy".to_string()),
    }
    let v1 = Path::new("/sys/fs/cgroup/memory");
    match own_path(&me, Some("memory")) {
        Some(path) if v1.join("cgroup.procs").exists() => {
            let dir = v1.join(path);
            let probe = dir.join(format!("tw-probe-{}", std::process::id()));
            match fs::create_dir(&probe) {
                Ok(()) => {
                    let _ = fs::remove_dir(&probe);
                    return Ok(Base {
                        dir,
                        version: Version::V1,
                    });
                }
                Err(e) => why.push(format!(
                    "cgroup v1 memory hierarchy at {} is not writable: {e}",
                    dir.display()
                )),
            }
        }
        _ => why.push("no cgroup v1 memory hierarchy".to_string()),
    }
    Err(why.join("; "))
}

impl MemoryCgroup {
    /// A fresh cgroup limited to `limit` bytes, or why this machine does not allow one.
    pub fn create(limit: u64) -> Result<MemoryCgroup, String> {
        let base = BASE.get_or_init(|| {
            let found = find_base();
            match &found {
                Ok(b) => tracing::info!(dir = %b.dir.display(), version = ?b.version, "sandbox memory cgroups enabled"),
                Err(why) => tracing::warn!(%why, "sandbox memory cgroups unavailable; relying on rlimits"),
            }
            found
        });
        let base = base.as_ref().map_err(Clone::clone)?;
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = base
            .dir
            .join(format!("tw-sandbox-{}-{n}", std::process::id()));
        fs::create_dir(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let mut me = MemoryCgroup {
            dir,
            version: base.version,
            procs: None,
        };
        let (file, value) = match me.version {
            Version::V2 => ("memory.max", limit.to_string()),
            Version::V1 => ("memory.limit_in_bytes", limit.to_string()),
        };
        fs::write(me.dir.join(file), value)
            .map_err(|e| format!("setting {}/{file}: {e}", me.dir.display()))?;
        if me.version == Version::V2 {
            // No swap to escape to (ignored where swap accounting is off).
            let _ = fs::write(me.dir.join("memory.swap.max"), "0");
        }
        let procs = File::options()
            .write(true)
            .open(me.dir.join("cgroup.procs"))
            .map_err(|e| format!("opening {}/cgroup.procs: {e}", me.dir.display()))?;
        me.procs = Some(procs);
        Ok(me)
    }

    /// The interface in use.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The cgroup's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The open `cgroup.procs` the child writes `0` to (taken once).
    pub fn take_procs(&mut self) -> Option<File> {
        self.procs.take()
    }

    fn counter(&self, file: &str, key: &str) -> Option<u64> {
        let text = fs::read_to_string(self.dir.join(file)).ok()?;
        text.lines().find_map(|l| {
            let (k, v) = l.split_once(' ')?;
            (k == key).then(|| v.trim().parse().ok()).flatten()
        })
    }

    /// How many processes the kernel killed for exceeding the limit.
    pub fn oom_kills(&self) -> u64 {
        match self.version {
            Version::V2 => self.counter("memory.events", "oom_kill"),
            Version::V1 => self.counter("memory.oom_control", "oom_kill"),
        }
        .unwrap_or(0)
    }

    /// The most memory the cgroup used, in bytes.
    pub fn peak(&self) -> Option<u64> {
        let file = match self.version {
            Version::V2 => "memory.peak",
            Version::V1 => "memory.max_usage_in_bytes",
        };
        fs::read_to_string(self.dir.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// Kills whatever is left in the cgroup and removes it, waiting (bounded) for the kernel to
    /// let go of it.
    pub async fn release(mut self) {
        self.procs = None;
        for _ in 0..500 {
            if self.try_remove() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(4)).await;
        }
        tracing::warn!(dir = %self.dir.display(), "sandbox cgroup still busy after 2 s; left behind");
    }

    fn try_remove(&self) -> bool {
        if let Ok(pids) = fs::read_to_string(self.dir.join("cgroup.procs")) {
            for pid in pids.lines().filter_map(|p| p.trim().parse::<i32>().ok()) {
                // SAFETY: kill(2) on a process inside this run's own cgroup.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        match fs::remove_dir(&self.dir) {
            Ok(()) => true,
            Err(e) => e.kind() == ErrorKind::NotFound,
        }
    }
}

impl Drop for MemoryCgroup {
    fn drop(&mut self) {
        if self.dir.exists() {
            let _ = self.try_remove();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_path_reads_v1_and_v2_lines() {
        let text = "4:memory:/process_api/abc\n3:cpu,cpuacct:/x\n0::/user.slice/s\n";
        assert_eq!(
            own_path(text, Some("memory")).as_deref(),
            Some("process_api/abc")
        );
        assert_eq!(own_path(text, Some("cpuacct")).as_deref(), Some("x"));
        assert_eq!(own_path(text, None).as_deref(), Some("user.slice/s"));
        assert_eq!(own_path("1:name=systemd:/\n", Some("memory")), None);
    }
}
