//! The session files the journal brings up to date, and the replay of a log into them on open.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use super::codec::{decode_file, header, HEADER};
use super::Op;
use crate::env::EnvError;

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

/// The log file, ready for the committer's next lap.
pub(super) struct OpenLog {
    pub(super) file: File,
    /// The lap the next records belong to (in the header already, durably).
    pub(super) lap: u64,
    /// The file's size: bytes up to here are allocated and written, so overwriting them changes
    /// no metadata.
    pub(super) allocated: u64,
}

/// Replays the log at `path` into the session files (synced), then starts a new lap in it: the
/// header's lap is bumped in place, so the replayed records no longer count and the file's
/// blocks are kept for reuse. A log in the first layout (or none) is replaced by an empty
/// in-place one.
pub(super) fn replay(path: &Path, files: &Files) -> Result<OpenLog, EnvError> {
    let mut log = Vec::new();
    match File::open(path) {
        Ok(mut f) => {
            f.read_to_end(&mut log)
                .map_err(|e| EnvError::io("read journal", path, e))?;
        }
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(EnvError::io("open journal", path, e)),
    }
    let decoded = decode_file(&log);
    if decoded.lap.is_none() && decoded.end < log.len() {
        tracing::warn!(journal = %path.display(), offset = decoded.end,
            dropped = log.len() - decoded.end,
            "journal ends in an incomplete record (a crash mid-append; never acknowledged): dropped");
    }
    let mut touched = HashSet::new();
    for (sid, op) in &decoded.records {
        files
            .apply(sid, op)
            .map_err(|e| EnvError::io("replay journal into", files.session(sid), e))?;
        touched.insert(sid.clone());
    }
    if !touched.is_empty() {
        let sync = Files {
            sessions: files.sessions.clone(),
            tmp: files.tmp.clone(),
            fsync: true,
        };
        sync.sync(&touched)
            .map_err(|e| EnvError::io("sync replayed sessions in", &files.sessions, e))?;
    }
    let lap = decoded.lap.map_or(1, |l| l.wrapping_add(1));
    let start = || -> std::io::Result<OpenLog> {
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        if decoded.lap.is_none() {
            file.set_len(0)?;
        }
        file.write_all_at(&header(lap), 0)?;
        file.sync_all()?;
        let allocated = file.metadata()?.len().max(HEADER);
        Ok(OpenLog {
            file,
            lap,
            allocated,
        })
    };
    let open = start().map_err(|e| EnvError::io("start a journal lap in", path, e))?;
    if decoded.count > 0 {
        tracing::info!(journal = %path.display(), records = decoded.count,
            sessions = decoded.records.len(), "journal replayed");
    }
    Ok(open)
}
