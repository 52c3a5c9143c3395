//! Sessions of one app, persisted on disk and cached in memory.
//!
//! Layout under `<state_dir>/<app>/`: `sessions/<sid>.json` (atomic: written to `tmp/` then
//! renamed), `uploads/<sid>/<stored name>`. The file's modification time is the last access
//! (refreshed at most every [`TOUCH_EVERY`] on reads), so the TTL survives restarts. At most
//! `cache_capacity` sessions stay loaded (LRU); a slot in use is never evicted, so a reader
//! never sees a state older than the last acknowledged write.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use axum::body::Bytes;
use hashlink::LruCache;
use serde_json::Value;

use super::apps::App;
use super::session::{Action, SessionFile, Snapshot};
use super::{validate_sid, EnvError, ServerConfig};

/// Reads refresh a session's on-disk access time at most this often.
pub const TOUCH_EVERY: Duration = Duration::from_secs(30);

#[derive(Default)]
struct Slot {
    snap: Option<Snapshot>,
    on_disk: bool,
    go_cache: Option<Bytes>,
    go_gzip: Option<Bytes>,
    last_access: Option<SystemTime>,
    last_touch: Option<SystemTime>,
}

/// The sessions of one app.
pub struct SessionStore {
    app: Arc<App>,
    root: PathBuf,
    ttl: Duration,
    fsync: bool,
    capacity: usize,
    cache: Mutex<LruCache<String, Arc<Mutex<Slot>>>>,
    tmp_counter: AtomicU64,
}

/// The content coding of a `/go` body (gzip when the client accepts it; cached per state).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Plain JSON.
    Identity,
    /// gzip-compressed JSON (`Content-Encoding: gzip`).
    Gzip,
}

fn gzip(data: &[u8]) -> Result<Bytes, EnvError> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(data.len() / 4),
        flate2::Compression::fast(),
    );
    enc.write_all(data)
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
    /// Opens (creating directories) the store of `app` under `cfg.state_dir`.
    pub fn open(app: Arc<App>, cfg: &ServerConfig) -> Result<SessionStore, EnvError> {
        let root = cfg.state_dir.join(app.name());
        for sub in ["sessions", "uploads", "tmp"] {
            let dir = root.join(sub);
            std::fs::create_dir_all(&dir).map_err(|e| EnvError::io("create directory", &dir, e))?;
        }
        Ok(SessionStore {
            app,
            root,
            ttl: Duration::from_secs(cfg.session_ttl_secs),
            fsync: cfg.fsync,
            capacity: cfg.cache_capacity.max(1),
            cache: Mutex::new(LruCache::new_unbounded()),
            tmp_counter: AtomicU64::new(0),
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
        let mut cache = lock(&self.cache);
        if let Some(slot) = cache.get(sid) {
            return slot.clone();
        }
        let slot = Arc::new(Mutex::new(Slot::default()));
        cache.insert(sid.to_string(), slot.clone());
        while cache.len() > self.capacity {
            // Oldest first; skip slots somebody is using.
            let victim = cache
                .iter()
                .find(|(_, s)| Arc::strong_count(s) == 1)
                .map(|(k, _)| k.clone());
            match victim {
                Some(k) => {
                    cache.remove(&k);
                }
                None => break,
            }
        }
        slot
    }

    fn load(&self, sid: &str, slot: &mut Slot) -> Result<(), EnvError> {
        if slot.snap.is_some() {
            return Ok(());
        }
        let path = self.session_path(sid);
        match std::fs::read(&path) {
            Ok(bytes) => {
                let file: SessionFile =
                    serde_json::from_slice(&bytes).map_err(|e| EnvError::CorruptSession {
                        path: path.clone(),
                        detail: e.to_string(),
                    })?;
                slot.snap = Some(Snapshot::from_file(&self.app, file));
                slot.on_disk = true;
                slot.last_touch = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                slot.snap = Some(Snapshot::defaults(&self.app));
                slot.on_disk = false;
            }
            Err(e) => return Err(EnvError::io("read session", &path, e)),
        }
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

    fn persist(&self, sid: &str, snap: &Snapshot) -> Result<(), EnvError> {
        let bytes = snap.file_bytes(&self.app);
        let n = self.tmp_counter.fetch_add(1, Ordering::Relaxed);
        let tmp = self
            .root
            .join("tmp")
            .join(format!("{sid}.{}.{n}.tmp", std::process::id()));
        let dest = self.session_path(sid);
        let write = || -> std::io::Result<()> {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&bytes)?;
            if self.fsync {
                f.sync_all()?;
            }
            std::fs::rename(&tmp, &dest)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            EnvError::io("write session", &dest, e)
        })
    }

    /// Applies a `POST /post` action and returns the new `state_id`.
    pub fn apply(
        &self,
        sid: &str,
        action: Action,
        state: Option<Value>,
    ) -> Result<String, EnvError> {
        validate_sid(sid)?;
        let slot = self.slot(sid);
        let mut slot = lock(&slot);
        self.load(sid, &mut slot)?;
        let mut snap = slot
            .snap
            .clone()
            .unwrap_or_else(|| Snapshot::defaults(&self.app));
        snap.apply(&self.app, action, state)?;
        if action == Action::Reset {
            let dir = self.uploads_dir(sid);
            match std::fs::remove_dir_all(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(EnvError::io("delete uploads", &dir, e)),
            }
        }
        self.persist(sid, &snap)?;
        let id = snap.state_id.clone();
        slot.snap = Some(snap);
        slot.on_disk = true;
        slot.go_cache = None;
        slot.go_gzip = None;
        let now = SystemTime::now();
        slot.last_access = Some(now);
        slot.last_touch = Some(now);
        Ok(id)
    }

    /// The session's snapshots (defaults for a session never written).
    pub fn snapshot(&self, sid: &str) -> Result<Snapshot, EnvError> {
        validate_sid(sid)?;
        let slot = self.slot(sid);
        let mut slot = lock(&slot);
        self.load(sid, &mut slot)?;
        self.touch(sid, &mut slot);
        Ok(slot
            .snap
            .clone()
            .unwrap_or_else(|| Snapshot::defaults(&self.app)))
    }

    /// The `GET /go` body, computed once per state and cached.
    pub fn go_body(&self, sid: &str, encoding: Encoding) -> Result<Bytes, EnvError> {
        validate_sid(sid)?;
        let slot = self.slot(sid);
        let mut slot = lock(&slot);
        self.load(sid, &mut slot)?;
        self.touch(sid, &mut slot);
        let plain = match &slot.go_cache {
            Some(body) => body.clone(),
            None => {
                let body = match &slot.snap {
                    Some(snap) => snap.go_body(&self.app, sid),
                    None => Snapshot::defaults(&self.app).go_body(&self.app, sid),
                };
                slot.go_cache = Some(body.clone());
                body
            }
        };
        if encoding == Encoding::Identity {
            return Ok(plain);
        }
        if let Some(z) = &slot.go_gzip {
            return Ok(z.clone());
        }
        let z = gzip(&plain)?;
        slot.go_gzip = Some(z.clone());
        Ok(z)
    }

    /// The cached `/go` body when it is available without any file-system access.
    pub fn cached_go_body(&self, sid: &str, encoding: Encoding) -> Option<Bytes> {
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
            Encoding::Identity => slot.go_cache.clone()?,
            Encoding::Gzip => slot.go_gzip.clone()?,
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
                self.persist(sid, snap)?;
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
        let mut guard = lock(&slot);
        let existed = self.remove_files(sid)?;
        *guard = Slot::default();
        drop(guard);
        drop(slot);
        lock(&self.cache).remove(sid);
        Ok(existed)
    }

    fn remove_files(&self, sid: &str) -> Result<bool, EnvError> {
        let path = self.session_path(sid);
        let existed = match std::fs::remove_file(&path) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => return Err(EnvError::io("delete session", &path, e)),
        };
        let dir = self.uploads_dir(sid);
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(existed),
            Err(e) => Err(EnvError::io("delete uploads", &dir, e)),
        }
    }

    /// Deletes sessions untouched for longer than the TTL (as of `now`).
    pub fn gc(&self, now: SystemTime) -> Result<GcReport, EnvError> {
        let dir = self.root.join("sessions");
        let mut report = GcReport::default();
        let entries =
            std::fs::read_dir(&dir).map_err(|e| EnvError::io("list sessions", &dir, e))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(sid) = name.strip_suffix(".json") else {
                continue;
            };
            if validate_sid(sid).is_err() {
                continue;
            }
            let path = self.session_path(sid);
            let disk_time = || std::fs::metadata(&path).and_then(|m| m.modified()).ok();
            let is_expired = |last: Option<SystemTime>| {
                last.is_some_and(|t| now.duration_since(t).unwrap_or_default() > self.ttl)
            };
            // Cheap check first, without promoting the session in the LRU.
            let cached = lock(&self.cache).peek(sid).cloned();
            let mem_access = cached.and_then(|s| lock(&s).last_access);
            if !is_expired([disk_time(), mem_access].into_iter().flatten().max()) {
                report.alive += 1;
                continue;
            }
            let slot = self.slot(sid);
            let mut guard = lock(&slot);
            if is_expired([disk_time(), guard.last_access].into_iter().flatten().max()) {
                self.remove_files(sid)?;
                *guard = Slot::default();
                drop(guard);
                drop(slot);
                lock(&self.cache).remove(sid);
                report.expired += 1;
            } else {
                report.alive += 1;
            }
        }
        self.sweep_tmp(now);
        Ok(report)
    }

    /// Removes temp files left by a crash mid-write (older than a minute).
    fn sweep_tmp(&self, now: SystemTime) {
        let dir = self.root.join("tmp");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return;
        };
        for entry in entries.flatten() {
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| now.duration_since(t).unwrap_or_default() > Duration::from_secs(60));
            if old {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// Root directory of this app's sessions.
    pub fn root(&self) -> &Path {
        &self.root
    }
}
