//! Per-run sandbox uids: concurrent runs in one engine get distinct non-root uids, so each has
//! its own `RLIMIT_NPROC` budget (the kernel counts processes per uid: with one shared uid, a fork
//! bomb in one environment would starve every other sandbox of processes).

use std::collections::BTreeSet;
use std::sync::Mutex;

static IN_USE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// A uid reserved for one run; released when dropped.
#[derive(Debug)]
pub struct UidLease {
    uid: u32,
    owned: bool,
}

impl UidLease {
    /// The uid (also used as gid).
    pub fn uid(&self) -> u32 {
        self.uid
    }

    /// False when the pool was exhausted and the run shares the base uid.
    pub fn exclusive(&self) -> bool {
        self.owned
    }
}

impl Drop for UidLease {
    fn drop(&mut self) {
        if self.owned {
            IN_USE
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&self.uid);
        }
    }
}

/// Reserve a free uid in `base .. base + pool`, starting the search at a per-process offset
/// (so two engines on one machine rarely pick the same uids). Exhausted pool: share `base`.
pub fn lease(base: u32, pool: u32) -> UidLease {
    let pool = pool.max(1);
    let start = std::process::id() % pool;
    let mut used = IN_USE.lock().unwrap_or_else(|p| p.into_inner());
    for i in 0..pool {
        let uid = base.saturating_add((start + i) % pool);
        if used.insert(uid) {
            return UidLease { uid, owned: true };
        }
    }
    UidLease {
        uid: base,
        owned: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_are_distinct_and_released() {
        let a = lease(300_000, 2);
        let b = lease(300_000, 2);
        assert!(a.exclusive() && b.exclusive());
        assert_ne!(a.uid(), b.uid());
        let c = lease(300_000, 2);
        assert!(!c.exclusive());
        assert_eq!(c.uid(), 300_000);
        let freed = a.uid();
        drop(a);
        let d = lease(300_000, 2);
        assert_eq!(d.uid(), freed);
        assert!(d.exclusive());
    }
}
