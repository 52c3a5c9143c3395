//! Garbage collection of one app's sessions: the TTL sweep and crash leftovers in `tmp/`.

use std::time::{Duration, SystemTime};

use super::lock;
use super::{GcReport, SessionStore};
use crate::env::{validate_sid, EnvError};

impl SessionStore {
    /// Deletes sessions untouched for longer than the TTL (as of `now`).
    pub fn gc(&self, now: SystemTime) -> Result<GcReport, EnvError> {
        // Every acknowledged session has its file before the directory is listed.
        self.flush_files()?;
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
            let guard = lock(&slot);
            if is_expired([disk_time(), guard.last_access].into_iter().flatten().max()) {
                self.remove_files(sid)?;
                self.drop_go_tail(sid);
                self.forget(sid, guard);
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
}
