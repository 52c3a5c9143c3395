//! The session files the journal brings up to date, and the replay of a log into them on open.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use super::codec::decode;
use super::Op;
use crate::engine::env::EnvError;

/// Where the committer writes.
pub(super) struct Files {
    pub(super) sessions: PathBuf,
    pub(super) tmp: PathBuf,
    pub(super) fsync: bool,
}

impl Files {
    pub(super) fn session(&self, sid: &str) -> PathBuf {
        self.sessions.join(format!("{sid}.json"))
    }

    /// Applies a replayed record to its session file.
    pub(super) fn apply(&self, sid: &str, op: &Op) -> std::io::Result<()> {
        match op {
            Op::Put(bytes) => self.put(sid, bytes),
            Op::Delete => self.delete(sid),
        }
    }

    /// Replaces the session file with `bytes` (temp file, then rename; no sync).
    pub(super) fn put(&self, sid: &str, bytes: &[u8]) -> std::io::Result<()> {
        let tmp = self.tmp.join(format!("{sid}.journal.tmp"));
        let write = || -> std::io::Result<()> {
            let mut f = File::create(&tmp)?;
            f.write_all(bytes)?;
            fs::rename(&tmp, self.session(sid))
        };
        write().inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })
    }

    /// Removes the session file (absent is fine).
    pub(super) fn delete(&self, sid: &str) -> std::io::Result<()> {
        match fs::remove_file(self.session(sid)) {
            Err(e) if e.kind() != ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Makes the current content of `sids`' files (and the directory) durable.
    pub(super) fn sync(&self, sids: &HashSet<String>) -> std::io::Result<()> {
        if !self.fsync {
            return Ok(());
        }
        for sid in sids {
            match File::open(self.session(sid)) {
                Ok(f) => f.sync_all()?,
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        File::open(&self.sessions)?.sync_all()
    }
}

pub(super) fn replay(path: &Path, files: &Files) -> Result<(), EnvError> {
    let mut log = Vec::new();
    match File::open(path) {
        Ok(mut f) => {
            f.read_to_end(&mut log)
                .map_err(|e| EnvError::io("read journal", path, e))?;
        }
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(EnvError::io("open journal", path, e)),
    }
    if log.is_empty() {
        return Ok(());
    }
    let (records, torn) = decode(&log);
    if let Some(at) = torn {
        tracing::warn!(journal = %path.display(), offset = at, dropped = log.len() - at,
            "journal ends in an incomplete record (a crash mid-append; never acknowledged): dropped");
    }
    let mut touched = HashSet::new();
    for (sid, op) in &records {
        files
            .apply(sid, op)
            .map_err(|e| EnvError::io("replay journal into", files.session(sid), e))?;
        touched.insert(sid.clone());
    }
    let sync = Files {
        sessions: files.sessions.clone(),
        tmp: files.tmp.clone(),
        fsync: true,
    };
    sync.sync(&touched)
        .map_err(|e| EnvError::io("sync replayed sessions in", &files.sessions, e))?;
    let f = File::options()
        .write(true)
        .open(path)
        .map_err(|e| EnvError::io("truncate journal", path, e))?;
    f.set_len(0)
        .and_then(|_| f.sync_all())
        .map_err(|e| EnvError::io("truncate journal", path, e))?;
    tracing::info!(journal = %path.display(), records = records.len(), "journal replayed");
    Ok(())
}
