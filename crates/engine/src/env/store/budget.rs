//! The byte budget of the session cache: what each cached slot holds, the store's total, and
//! eviction of idle sessions (least recently used first) to their persisted form.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde::Serialize;

use super::go_cache::KeptTail;
use super::{lock, SessionStore, Slot, SLOT_OVERHEAD};
use crate::env::session::Snapshot;
use crate::env::EnvError;

/// After this many bytes have been evicted, free memory is handed back to the OS.
const TRIM_EVERY: u64 = 32 << 20;

/// The cache's own accounting (what `/health` reports and the tests assert on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    /// Sessions loaded in memory.
    pub sessions: usize,
    /// Bytes they hold (snapshot texts, `/go` parts, gzip bodies, per-slot overhead).
    pub bytes: u64,
    /// The budget (`cache_bytes`).
    pub budget: u64,
    /// Sessions evicted to their persisted form so far.
    pub evictions: u64,
    /// Writes refused because their state could not fit.
    pub refused: u64,
}

fn buffers(snap: &Snapshot) -> [(usize, u64); 2] {
    [&snap.initial, &snap.current].map(|s| (s.json.as_ptr() as usize, s.held_bytes()))
}

impl Slot {
    /// Bytes this slot holds, each shared buffer counted once.
    fn measure(&self) -> u64 {
        let mut seen: Vec<(usize, u64)> = Vec::with_capacity(4);
        let snaps = self.snap.iter().chain(self.head.iter().map(|(_, s)| s));
        for (ptr, len) in snaps.flat_map(buffers) {
            if len > 0 && !seen.iter().any(|(p, _)| *p == ptr) {
                seen.push((ptr, len));
            }
        }
        let parts = self.go_parts.as_ref().map_or(0, |p| p.held_bytes());
        let gzip = self.go_gzip.as_ref().map_or(0, |z| z.len() as u64);
        SLOT_OVERHEAD + seen.iter().map(|(_, l)| l).sum::<u64>() + parts + gzip
    }
}

impl SessionStore {
    /// Brings the store's total up to date with what `slot` holds now.
    pub(super) fn reaccount(&self, slot: &mut Slot) {
        let now = slot.measure();
        if now >= slot.held {
            self.held.fetch_add(now - slot.held, Ordering::Relaxed);
        } else {
            self.held.fetch_sub(slot.held - now, Ordering::Relaxed);
        }
        slot.held = now;
    }

    /// Makes room for a new state of `bytes`, or refuses it with a clear error.
    pub(super) fn admit(&self, sid: &str, bytes: u64) -> Result<(), EnvError> {
        let refuse = |why| {
            self.refused.fetch_add(1, Ordering::Relaxed);
            Err(EnvError::OverBudget {
                sid: sid.to_string(),
                bytes,
                budget: self.budget,
                why,
            })
        };
        if bytes > self.budget {
            return refuse("is larger than the server's whole state cache");
        }
        if !self.make_room(bytes) {
            return refuse(
                "does not fit beside the sessions in use right now (nothing idle is left to \
                 evict); retry when they finish",
            );
        }
        Ok(())
    }

    /// Evicts idle sessions, least recently used first, until `extra` more bytes fit in the
    /// budget and the session count is within `cache_capacity`. `false` when that is not
    /// possible because everything left is in use.
    pub(super) fn make_room(&self, extra: u64) -> bool {
        let mut freed = 0;
        let mut kept = Vec::new();
        let fits = {
            let mut cache = lock(&self.cache);
            loop {
                let over_bytes = self.held.load(Ordering::Relaxed) + extra > self.budget;
                if !over_bytes && cache.len() <= self.capacity {
                    break true;
                }
                // Oldest first; skip slots somebody is using.
                let victim = cache
                    .iter()
                    .find(|(_, s)| Arc::strong_count(s) == 1 && s.try_lock().is_ok())
                    .map(|(k, _)| k.clone());
                let Some(key) = victim else {
                    break !over_bytes;
                };
                if let Some(slot) = cache.remove(&key) {
                    let mut s = lock(&slot);
                    freed += s.held;
                    self.held.fetch_sub(s.held, Ordering::Relaxed);
                    s.held = 0;
                    self.evictions.fetch_add(1, Ordering::Relaxed);
                    if let Some(k) = tail_to_keep(key, &s) {
                        kept.push(k);
                    }
                }
            }
        };
        // Written once the cache's lock is free: other sessions never wait for this disk work.
        self.keep_go_tails(kept);
        if freed > 0 && self.trim_debt.fetch_add(freed, Ordering::Relaxed) + freed >= TRIM_EVERY {
            self.trim_debt.store(0, Ordering::Relaxed);
            trim();
        }
        fits
    }

    /// The cache's accounting right now.
    pub fn cache_stats(&self) -> CacheStats {
        CacheStats {
            sessions: self.cached_len(),
            bytes: self.held.load(Ordering::Relaxed),
            budget: self.budget,
            evictions: self.evictions.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
        }
    }
}

/// The `/go` tail an evicted slot computed and has not kept on disk yet (a session that is on
/// disk, so that its next cold read finds both).
fn tail_to_keep(sid: String, slot: &Slot) -> Option<KeptTail> {
    let (snap, parts) = (slot.snap.as_ref()?, slot.go_parts.as_ref()?);
    (slot.on_disk && !slot.go_kept && slot.head.is_none()).then(|| KeptTail {
        sid,
        state_id: snap.state_id.clone(),
        tail: parts.tail.clone(),
    })
}

/// Hands freed heap memory back to the OS (glibc keeps it otherwise, so RSS never falls).
fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}
