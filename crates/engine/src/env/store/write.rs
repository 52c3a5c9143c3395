//! A write to one session, in two halves around the journal's sync: `begin` (under the
//! session's lock: the new snapshot is made and its record queued) and `finish` (once the
//! record's answer is in: the snapshot becomes what readers see, or, when it is not durable,
//! the cached copy is dropped). Between them no lock is held. A blocking caller waits for the
//! answer on its thread ([`journal::wait`]); `POST /post` to a cached session awaits it on the
//! server's runtime ([`SessionStore::apply_cached`]), so no thread is parked per write and no
//! hand-off to the blocking pool is paid.

use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::super::apps::App;
use super::super::journal::{self, Journal, Op};
use super::super::session::{Prepared, Snapshot};
use super::super::{validate_sid, EnvError};
use super::{lock, SessionStore, Slot, SLOT_OVERHEAD};

/// A write whose journal record is queued.
pub(super) struct Begun {
    slot: Arc<Mutex<Slot>>,
    seq: u64,
    snap: Snapshot,
}

impl SessionStore {
    /// Applies `f` to the session's newest snapshot and waits until the write is durable.
    pub(super) fn write(
        &self,
        sid: &str,
        reset: bool,
        f: impl FnOnce(&mut Snapshot, &App) -> Result<(), EnvError>,
    ) -> Result<String, EnvError> {
        let (begun, ack) = self.begin(sid, reset, f, |j, sid, op| j.submit(sid, op))?;
        let result = journal::wait(ack);
        self.finish(begun, result)
    }

    /// [`SessionStore::apply_prepared`] without blocking a thread, for `POST /post` on the
    /// server's runtime, when the session is cached (no file to read) and the action is not a
    /// `reset` (which deletes files). Otherwise `prepared` comes back for
    /// [`SessionStore::apply_prepared`] on a blocking thread.
    ///
    /// The wait for the sync and `finish` run as a task of their own, so a client that goes
    /// away mid-write (its handler dropped) still leaves the cache holding what the journal
    /// made durable.
    ///
    /// `arrival` (the writer announced on its way, see [`journal::Arrival`]) is let go once
    /// the record is queued, not before: a sync that waits for this writer then finds its
    /// record instead of a writer count of zero.
    pub async fn apply_cached(
        self: &Arc<Self>,
        sid: &str,
        prepared: Prepared,
        arrival: journal::Arrival,
    ) -> Result<Result<String, EnvError>, Prepared> {
        if prepared.is_reset() || !self.is_loaded(sid) {
            return Err(prepared);
        }
        // Evicted since the check: `begin` reads the file (small, and rare).
        let begun = self.begin(
            sid,
            false,
            |snap, app| snap.apply_prepared(app, prepared),
            |j, sid, op| {
                let queued = j.submit_async(sid, op);
                drop(arrival);
                queued
            },
        );
        let (begun, ack) = match begun {
            Ok(b) => b,
            Err(e) => return Ok(Err(e)),
        };
        let store = self.clone();
        let finished = tokio::spawn(async move {
            let result = journal::wait_async(ack).await;
            store.finish(begun, result)
        });
        Ok(finished.await.unwrap_or_else(|e| {
            Err(EnvError::Journal(format!(
                "the write's completion task failed: {e}"
            )))
        }))
    }

    /// Whether the session's snapshot is in memory (its slot may be busy).
    fn is_loaded(&self, sid: &str) -> bool {
        let slot = lock(&self.cache).peek(sid).cloned();
        slot.is_some_and(|s| lock(&s).snap.is_some())
    }

    /// Under the session's lock: the new snapshot (`f` applied to the newest one, acknowledged
    /// or not), room for it in the budget, the uploads deleted for a `reset`, and its record
    /// queued with `submit`; the snapshot is the session's head until its answer arrives.
    fn begin<A>(
        &self,
        sid: &str,
        reset: bool,
        f: impl FnOnce(&mut Snapshot, &App) -> Result<(), EnvError>,
        submit: impl FnOnce(&Journal, &str, Op) -> Result<A, EnvError>,
    ) -> Result<(Begun, A), EnvError> {
        validate_sid(sid)?;
        let slot_arc = self.slot(sid);
        let mut slot = lock(&slot_arc);
        self.load(sid, &mut slot)?;
        let mut snap = match (&slot.head, &slot.snap) {
            (Some((_, head)), _) => head.clone(),
            (None, Some(snap)) => snap.clone(),
            (None, None) => Snapshot::defaults(&self.app),
        };
        f(&mut snap, &self.app)?;
        self.admit(sid, snap.held_bytes() + SLOT_OVERHEAD)?;
        if reset {
            let dir = self.uploads_dir(sid);
            match std::fs::remove_dir_all(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(EnvError::io("delete uploads", &dir, e)),
            }
        }
        let ack = submit(&self.journal, sid, Op::Put(snap.file_bytes(&self.app)))?;
        slot.next_seq += 1;
        let seq = slot.next_seq;
        slot.head = Some((seq, snap.clone()));
        self.reaccount(&mut slot);
        drop(slot);
        let begun = Begun {
            slot: slot_arc,
            seq,
            snap,
        };
        Ok((begun, ack))
    }

    /// Once the record's answer is in: the snapshot becomes what readers see (unless a later
    /// write already did), or, when it is not durable, the cached copy is forgotten (the file
    /// and the journal hold the last acknowledged state). Returns the new `state_id`.
    fn finish(&self, begun: Begun, result: Result<(), EnvError>) -> Result<String, EnvError> {
        let Begun {
            slot: slot_arc,
            seq,
            snap,
        } = begun;
        let mut slot = lock(&slot_arc);
        if slot.head.as_ref().is_some_and(|(s, _)| *s == seq) {
            slot.head = None;
        }
        match result {
            Ok(()) if seq > slot.seq => {
                slot.snap = Some(snap.clone());
                slot.seq = seq;
                slot.on_disk = true;
                slot.go_parts = None;
                slot.go_gzip = None;
                slot.go_kept = false;
                let now = SystemTime::now();
                slot.last_access = Some(now);
                slot.last_touch = Some(now);
            }
            Ok(()) => {}
            Err(e) => {
                slot.head = None;
                slot.snap = None;
                slot.go_parts = None;
                slot.go_gzip = None;
                slot.go_kept = false;
                self.reaccount(&mut slot);
                return Err(e);
            }
        }
        self.reaccount(&mut slot);
        drop(slot);
        drop(slot_arc);
        self.make_room(0);
        Ok(snap.state_id)
    }
}
