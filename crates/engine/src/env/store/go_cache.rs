//! The `/go` tail of an evicted session, kept on disk beside its file (`sessions/<sid>.go`), so
//! that the session's next cold read serves `/go` without parsing its two snapshots and
//! diffing them again.
//!
//! The tail (`,"state_diff":…,"changes":…}`) depends only on the two snapshots, which the
//! `state_id` of the current one and the session file pin down; the file is written when an
//! evicted slot had computed it, replaced atomically (temporary file + rename) and not synced:
//! it is a cache, checked on every read (format tag, the state's id, a CRC-32 of the tail) and
//! ignored when anything does not match, so a stale or torn file only costs the recomputation.

use std::io::Write;
use std::path::PathBuf;

use axum::body::Bytes;

use super::SessionStore;

/// The first bytes of a kept tail: format tag, then the state's id and the CRC-32 in hex.
const TAG: &[u8] = b"twgo1 ";

/// A tail to keep for an evicted session.
pub(super) struct KeptTail {
    pub sid: String,
    pub state_id: String,
    pub tail: Bytes,
}

impl SessionStore {
    fn go_path(&self, sid: &str) -> PathBuf {
        self.root.join("sessions").join(format!("{sid}.go"))
    }

    /// The kept tail of `sid` when it belongs to the state `state_id` and is intact.
    pub(super) fn kept_go_tail(&self, sid: &str, state_id: &str) -> Option<Bytes> {
        let bytes = std::fs::read(self.go_path(sid)).ok()?;
        let rest = bytes.strip_prefix(TAG)?;
        let (id, rest) = rest.split_at_checked(state_id.len())?;
        let rest = rest.strip_prefix(b" ")?;
        let (crc, rest) = rest.split_at_checked(8)?;
        let tail = rest.strip_prefix(b"\n")?;
        let crc = u32::from_str_radix(std::str::from_utf8(crc).ok()?, 16).ok()?;
        let intact = id == state_id.as_bytes() && crc32fast::hash(tail) == crc;
        let start = bytes.len() - tail.len();
        intact.then(|| Bytes::from(bytes).slice(start..))
    }

    /// Writes the tails of evicted sessions (best effort: a failure only means the next cold
    /// read recomputes the diff).
    pub(super) fn keep_go_tails(&self, kept: Vec<KeptTail>) {
        for k in kept {
            if let Err(e) = self.write_go_tail(&k) {
                tracing::debug!(sid = %k.sid, "keeping the /go tail: {e}");
            }
        }
    }

    fn write_go_tail(&self, k: &KeptTail) -> std::io::Result<()> {
        let tmp = self.root.join("tmp");
        let mut file = tempfile::NamedTempFile::new_in(&tmp)?;
        file.write_all(TAG)?;
        writeln!(file, "{} {:08x}", k.state_id, crc32fast::hash(&k.tail))?;
        file.write_all(&k.tail)?;
        file.persist(self.go_path(&k.sid)).map_err(|e| e.error)?;
        Ok(())
    }

    /// Removes a session's kept tail (the session is deleted or expired).
    pub(super) fn drop_go_tail(&self, sid: &str) {
        let _ = std::fs::remove_file(self.go_path(sid));
    }
}
