//! Sessions of one app, persisted on disk and cached in memory.
//!
//! Layout under `<state_dir>/<app>/`: `sessions/<sid>.json` (atomic: written to `tmp/` then
//! renamed), `journal.log` (group commit, see [`super::journal`]), `uploads/<sid>/<stored
//! name>`. A write is acknowledged once its journal record is synced; its session file follows
//! within `file_lag_ms` (a session without a cached copy is read from the journal's
//! pending record until then). The file's modification time is the last access (refreshed at
//! most every [`TOUCH_EVERY`] on reads), so the TTL survives restarts.
//!
//! Memory is bounded in bytes (`cache_bytes`; `cache_capacity` adds an optional count cap): the
//! store accounts every buffer a cached session holds (its snapshot texts, the `/go` parts, the
//! gzip body) and evicts idle sessions, least recently used first, to their persisted form. A
//! slot in use is never evicted, so a reader never sees a state older than the last
//! acknowledged write; a write whose state cannot fit even then is refused with
//! [`EnvError::OverBudget`].

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use axum::body::Bytes;
use hashlink::LruCache;
use serde_json::Value;

use super::apps::App;
use super::body::Chunks;
use super::journal::{self, Journal, JournalStats, Op};
use super::session::{Action, GoParts, Prepared, Snapshot};
use super::{validate_sid, EnvError, ServerConfig};

/// Reads refresh a session's on-disk access time at most this often.
pub const TOUCH_EVERY: Duration = Duration::from_secs(30);

mod budget;
mod gc;
mod go_cache;
mod write;

pub use budget::CacheStats;

/// Bytes a cached slot costs beyond its buffers (key, LRU node, slot, locks), for accounting.
const SLOT_OVERHEAD: u64 = 512;

#[derive(Default)]
struct Slot {
    /// The last acknowledged state (what readers see).
    snap: Option<Snapshot>,
    /// The write that produced `snap`.
    seq: u64,
    /// The newest accepted write whose journal record is still being committed.
    head: Option<(u64, Snapshot)>,
    next_seq: u64,
    on_disk: bool,
    go_parts: Option<GoParts>,
    go_gzip: Option<Bytes>,
    /// Whether `go_parts`' tail is kept on disk already (read from there, or written at an
    /// eviction), so an eviction need not write it again.
    go_kept: bool,
    last_access: Option<SystemTime>,
    last_touch: Option<SystemTime>,
    /// Bytes accounted to this slot in the store's total.
    held: u64,
}

/// The sessions of one app.
pub struct SessionStore {
    app: Arc<App>,
    root: PathBuf,
    ttl: Duration,
    capacity: usize,
    budget: u64,
    cache: Mutex<LruCache<String, Arc<Mutex<Slot>>>>,
    journal: Journal,
    held: AtomicU64,
    evictions: AtomicU64,
    refused: AtomicU64,
    trim_debt: AtomicU64,
}

/// The content coding of a `/go` body (gzip when the client accepts it; cached per state).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Plain JSON.
    Identity,
    /// gzip-compressed JSON (`Content-Encoding: gzip`).
    Gzip,
}

fn gzip(body: &Chunks) -> Result<Bytes, EnvError> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() as usize / 4),
        flate2::Compression::fast(),
    );
    body.parts()
        .try_for_each(|p| enc.write_all(p))
        .and_then(|_| enc.finish())
        .map(Bytes::from)
        .map_err(|e| EnvError::io("gzip /go body", "<memory>", e))
}

/// What a garbage-collection pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GcReport {
    /// Sessions deleted because untouched for longer than the TTL.
    pub expired: usize,
    /// Sessions still alive on disk.
    pub alive: usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl SessionStore {
    /// Opens (creating directories) the store of `app` under `cfg.state_dir`, replaying its
    /// journal first.
    pub fn open(app: Arc<App>, cfg: &ServerConfig) -> Result<SessionStore, EnvError> {
        let root = cfg.state_dir.join(app.name());
        for sub in ["sessions", "uploads", "tmp"] {
            let dir = root.join(sub);
            std::fs::create_dir_all(&dir).map_err(|e| EnvError::io("create directory", &dir, e))?;
        }
        let journal = Journal::open(
            &root,
            cfg.fsync,
            cfg.checkpoint_bytes,
            Duration::from_millis(cfg.file_lag_ms),
        )?;
        journal.set_commit_delay(Duration::from_micros(cfg.commit_delay_us));
        Ok(SessionStore {
            app,
            root,
            ttl: Duration::from_secs(cfg.session_ttl_secs),
            capacity: match cfg.cache_capacity {
                0 => usize::MAX,
                n => n,
            },
            budget: cfg.cache_bytes.max(1 << 20),
            cache: Mutex::new(LruCache::new_unbounded()),
            journal,
            held: AtomicU64::new(0),
            evictions: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            trim_debt: AtomicU64::new(0),
        })
    }

    /// The app served.
    pub fn app(&self) -> &Arc<App> {
        &self.app
    }

    /// Number of sessions currently loaded in memory.
    pub fn cached_len(&self) -> usize {
        lock(&self.cache).len()
    }

    fn session_path(&self, sid: &str) -> PathBuf {
        self.root.join("sessions").join(format!("{sid}.json"))
    }

    /// Directory of a session's uploads.
    pub fn uploads_dir(&self, sid: &str) -> PathBuf {
        self.root.join("uploads").join(sid)
    }

    fn slot(&self, sid: &str) -> Arc<Mutex<Slot>> {
        let slot = {
            let mut cache = lock(&self.cache);
            if let Some(slot) = cache.get(sid) {
                return slot.clone();
            }
            let slot = Arc::new(Mutex::new(Slot::default()));
            cache.insert(sid.to_string(), slot.clone());
            slot
        };
        self.make_room(0);
        slot
    }

    fn load(&self, sid: &str, slot: &mut Slot) -> Result<(), EnvError> {
        if slot.snap.is_some() {
            return Ok(());
        }
        let path = self.session_path(sid);
        // An acknowledged write whose file the journal has not written yet comes first.
        let bytes = match self.journal.latest(sid) {
            Some(bytes) => Some((bytes, Some(SystemTime::now()))),
            None => match std::fs::read(&path) {
                Ok(bytes) => {
                    let touched = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
                    Some((Arc::new(bytes), touched))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(EnvError::io("read session", &path, e)),
            },
        };
        match bytes {
            Some((bytes, touched)) => {
                let snap = Snapshot::from_file_bytes(&self.app, &bytes).map_err(|e| {
                    EnvError::CorruptSession {
                        path: path.clone(),
                        detail: e.to_string(),
                    }
                })?;
                slot.snap = Some(snap);
                slot.on_disk = true;
                slot.last_touch = touched;
            }
            None => {
                slot.snap = Some(Snapshot::defaults(&self.app));
                slot.on_disk = false;
            }
        }
        self.reaccount(slot);
        Ok(())
    }

    /// Records an access; refreshes the file's mtime when the last refresh is old.
    fn touch(&self, sid: &str, slot: &mut Slot) {
        let now = SystemTime::now();
        slot.last_access = Some(now);
        let stale = slot
            .last_touch
            .is_none_or(|t| now.duration_since(t).unwrap_or_default() >= TOUCH_EVERY);
        if slot.on_disk && stale {
            let path = self.session_path(sid);
            if let Ok(f) = std::fs::File::options().append(true).open(&path) {
                if f.set_modified(now).is_ok() {
                    slot.last_touch = Some(now);
                }
            }
        }
    }

    /// Applies a `POST /post` action and returns the new `state_id` once the write is durable.
    ///
    /// What does not depend on the session's current state (the JSON text and hash of a `set`
    /// or `set_current` state) is computed before the session's lock is taken; the lock is held
    /// while the new snapshot is made and its journal record queued (so writes to one session
    /// keep their order), not while the record is synced: concurrent writes, to one session or
    /// many, share the sync.
    pub fn apply(
        &self,
        sid: &str,
        action: Action,
        state: Option<Value>,
    ) -> Result<String, EnvError> {
        // The JSON text and hash are computed before the session's lock is taken.
        let prepared = Prepared::new(&self.app, action, state)?;
        self.write(sid, action == Action::Reset, |snap, app| {
            snap.apply_prepared(app, prepared)
        })
    }

    /// [`SessionStore::apply`] of an action prepared beforehand (`POST /post` prepares it from
    /// the request's JSON text with [`Prepared::from_raw`] before it asks for the lock).
    pub fn apply_prepared(&self, sid: &str, prepared: Prepared) -> Result<String, EnvError> {
        self.write(sid, prepared.is_reset(), |snap, app| {
            snap.apply_prepared(app, prepared)
        })
    }

    /// A semantic mutation of the current snapshot (what a UI action does): `f` receives the
    /// current state and edits it in place; the result becomes the current snapshot exactly as a
    /// `set_current` would (same journal, same `state_id`), computed under the session's lock so
    /// that concurrent writers cannot interleave. Returns the new `state_id` and `f`'s value once
    /// the write is durable; `f`'s error leaves the session untouched and is returned as is.
    pub fn update<T, E>(
        &self,
        sid: &str,
        f: impl FnOnce(&mut Value) -> Result<T, E>,
    ) -> Result<Result<(String, T), E>, EnvError> {
        let mut outcome = None;
        let written = self.write(sid, false, |snap, app| {
            let mut value = snap.current.value()?;
            let result = f(&mut value);
            let ok = result.is_ok();
            outcome = Some(result);
            if ok {
                let prepared = Prepared::new(app, Action::SetCurrent, Some(value))?;
                snap.apply_prepared(app, prepared)
            } else {
                Err(EnvError::Journal("the operation was refused".into()))
            }
        });
        match (outcome, written) {
            (Some(Err(e)), _) => Ok(Err(e)),
            (Some(Ok(t)), Ok(id)) => Ok(Ok((id, t))),
            (_, Err(e)) => Err(e),
            (None, Ok(_)) => Err(EnvError::Journal("the update did not run".into())),
        }
    }

    /// The session's snapshots (defaults for a session never written).
    pub fn snapshot(&self, sid: &str) -> Result<Snapshot, EnvError> {
        validate_sid(sid)?;
        let slot_arc = self.slot(sid);
        let mut slot = lock(&slot_arc);
        self.load(sid, &mut slot)?;
        self.touch(sid, &mut slot);
        let snap = slot
            .snap
            .clone()
            .unwrap_or_else(|| Snapshot::defaults(&self.app));
        drop(slot);
        drop(slot_arc);
        self.make_room(0);
        Ok(snap)
    }

    /// The `GET /go` body, its per-state parts computed once and cached.
    pub fn go_body(&self, sid: &str, encoding: Encoding) -> Result<Chunks, EnvError> {
        validate_sid(sid)?;
        let slot_arc = self.slot(sid);
        let mut slot = lock(&slot_arc);
        self.load(sid, &mut slot)?;
        self.touch(sid, &mut slot);
        let snap = slot
            .snap
            .clone()
            .unwrap_or_else(|| Snapshot::defaults(&self.app));
        let parts = match &slot.go_parts {
            Some(p) => p.clone(),
            None => {
                let kept = slot
                    .on_disk
                    .then(|| self.kept_go_tail(sid, &snap.state_id))
                    .flatten();
                slot.go_kept = kept.is_some();
                let p = match kept {
                    Some(tail) => snap.go_parts_with_tail(sid, tail),
                    None => snap.go_parts(&self.app, sid)?,
                };
                slot.go_parts = Some(p.clone());
                p
            }
        };
        let plain = Chunks::new(snap.go_chunks(&parts));
        let body = match (encoding, &slot.go_gzip) {
            (Encoding::Identity, _) => plain,
            (Encoding::Gzip, Some(z)) => Chunks::new([z.clone()]),
            (Encoding::Gzip, None) => {
                let z = gzip(&plain)?;
                slot.go_gzip = Some(z.clone());
                Chunks::new([z])
            }
        };
        self.reaccount(&mut slot);
        drop(slot);
        drop(slot_arc);
        self.make_room(0);
        Ok(body)
    }

    /// The cached `/go` body when it is available without any file-system access.
    pub fn cached_go_body(&self, sid: &str, encoding: Encoding) -> Option<Chunks> {
        let slot = lock(&self.cache).get(sid)?.clone();
        let mut slot = slot.try_lock().ok()?;
        let now = SystemTime::now();
        let fresh = slot
            .last_touch
            .is_some_and(|t| now.duration_since(t).unwrap_or_default() < TOUCH_EVERY);
        if slot.on_disk && !fresh {
            return None;
        }
        let body = match encoding {
            Encoding::Identity => {
                let snap = slot.snap.as_ref()?;
                Chunks::new(snap.go_chunks(slot.go_parts.as_ref()?))
            }
            Encoding::Gzip => Chunks::new([slot.go_gzip.clone()?]),
        };
        slot.last_access = Some(now);
        Some(body)
    }

    /// Ensures the session exists on disk (used before storing uploads).
    pub fn ensure(&self, sid: &str) -> Result<(), EnvError> {
        validate_sid(sid)?;
        let slot = self.slot(sid);
        let mut slot = lock(&slot);
        self.load(sid, &mut slot)?;
        if !slot.on_disk {
            if let Some(snap) = &slot.snap {
                self.journal
                    .commit(sid, Op::Put(snap.file_bytes(&self.app)))?;
            }
            slot.on_disk = true;
        }
        self.touch(sid, &mut slot);
        Ok(())
    }

    /// Drops a session (snapshots and uploads). Returns whether it existed on disk.
    pub fn delete(&self, sid: &str) -> Result<bool, EnvError> {
        validate_sid(sid)?;
        let slot = self.slot(sid);
        let guard = lock(&slot);
        let existed = self.remove_files(sid)?;
        self.drop_go_tail(sid);
        self.forget(sid, guard);
        Ok(existed)
    }

    /// Empties a slot whose session is gone and drops it from the cache.
    fn forget(&self, sid: &str, mut guard: MutexGuard<'_, Slot>) {
        self.held
            .fetch_sub(guard.held, std::sync::atomic::Ordering::Relaxed);
        *guard = Slot::default();
        drop(guard);
        lock(&self.cache).remove(sid);
    }

    fn remove_files(&self, sid: &str) -> Result<bool, EnvError> {
        let existed = self.journal.latest(sid).is_some() || self.session_path(sid).exists();
        self.journal.commit(sid, Op::Delete)?;
        let dir = self.uploads_dir(sid);
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(existed),
            Err(e) => Err(EnvError::io("delete uploads", &dir, e)),
        }
    }

    /// Brings every session file up to date with the acknowledged writes (they lag behind the
    /// synced journal by at most `file_lag_ms`; tools and tests that read the files
    /// directly call this first).
    pub fn flush_files(&self) -> Result<(), EnvError> {
        self.journal.flush()
    }

    /// Announces a writer that will submit a write soon, so that a journal sync may wait
    /// for it (see [`journal::Arrival`]); `POST /post` holds it while it reads and prepares.
    pub fn arrival(&self) -> journal::Arrival {
        self.journal.arrival()
    }

    /// The group-commit journal's counters.
    pub fn journal_stats(&self) -> &JournalStats {
        self.journal.stats()
    }

    /// Holds the journal's committer before its next batch (see `Journal::hold`).
    #[cfg(test)]
    pub(crate) fn hold_journal(&self) -> MutexGuard<'_, ()> {
        self.journal.hold()
    }

    /// Root directory of this app's sessions.
    pub fn root(&self) -> &Path {
        &self.root
    }
}
