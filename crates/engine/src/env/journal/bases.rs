//! What each session's next record may be a patch of: its previous record in the current lap.

use std::collections::HashMap;
use std::sync::Arc;

/// Bases held at most (beyond these every base is forgotten, and the next record of each
/// session is whole again: a patch is smaller, never required).
pub(super) const BASES_BYTES: usize = 32 << 20;

/// Each session's last put of the current lap, shared with the pending map while the session's
/// file lags behind (no copy of its own then).
#[derive(Default)]
pub(super) struct Bases {
    map: HashMap<String, Arc<Vec<u8>>>,
    bytes: usize,
}

impl Bases {
    /// The last put of `sid` in this lap, if it is still held.
    pub(super) fn get(&self, sid: &str) -> Option<&[u8]> {
        self.map.get(sid).map(|b| b.as_slice())
    }

    /// `sid`'s put of `bytes` was logged.
    pub(super) fn put(&mut self, sid: &str, bytes: Arc<Vec<u8>>) {
        if self.bytes + bytes.len() > BASES_BYTES {
            self.clear();
        }
        self.bytes += bytes.len();
        if let Some(old) = self.map.insert(sid.to_string(), bytes) {
            self.bytes -= old.len();
        }
    }

    /// `sid` was deleted: its next put is whole.
    pub(super) fn remove(&mut self, sid: &str) {
        if let Some(old) = self.map.remove(sid) {
            self.bytes -= old.len();
        }
    }

    /// A new lap: no record may refer to the last one's.
    pub(super) fn clear(&mut self) {
        self.map.clear();
        self.bytes = 0;
    }
}
