//! The committer's batch: the records gathered for one sync, where each answer goes, and the
//! writers announced as on their way (arrival-side batching).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use super::{Job, Msg, Op, BATCH_BYTES};

/// Where the committer sends a record's answer.
pub(super) enum Done {
    /// A thread blocked in [`super::wait`].
    Wait(mpsc::SyncSender<Result<(), String>>),
    /// A task awaiting [`super::wait_async`] (sending wakes it).
    Wake(tokio::sync::oneshot::Sender<Result<(), String>>),
}

impl Done {
    pub(super) fn send(self, result: Result<(), String>) {
        // A writer that stopped waiting (its client went away) needs no answer.
        let _ = match self {
            Done::Wait(tx) => tx.send(result).map_err(drop),
            Done::Wake(tx) => tx.send(result).map_err(drop),
        };
    }
}

/// Writers on their way to the journal (reading or preparing a request), and how long the
/// committer may wait for them before a sync.
#[derive(Debug, Default)]
pub(super) struct Arrivals {
    pub(super) coming: AtomicUsize,
    pub(super) delay_nanos: AtomicU64,
}

/// A writer on its way to [`super::Journal::submit`]: while it exists, the committer may hold a sync
/// back (up to the commit delay) so that the writer's record shares it. Dropped when the
/// writer has done the work before its submission (or gave up).
#[must_use = "the arrival counts only while the guard is held"]
pub struct Arrival(pub(super) Arc<Arrivals>);

impl Drop for Arrival {
    fn drop(&mut self) {
        self.0.coming.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What the committer gathered for one sync.
#[derive(Default)]
pub(super) struct Batch {
    pub(super) jobs: Vec<Job>,
    pub(super) flushes: Vec<mpsc::SyncSender<Result<(), String>>>,
    pub(super) bytes: usize,
}

impl Batch {
    /// Adds `msg` and everything already queued behind it (up to [`BATCH_BYTES`]).
    pub(super) fn take(&mut self, msg: Msg, rx: &mpsc::Receiver<Msg>) {
        let mut next = Some(msg);
        while let Some(msg) = next.take() {
            match msg {
                Msg::Write(job) => {
                    if let Op::Put(b) = &job.op {
                        self.bytes += b.len();
                    }
                    self.jobs.push(job);
                }
                Msg::Flush(done) => self.flushes.push(done),
            }
            if self.bytes < BATCH_BYTES {
                next = rx.try_recv().ok();
            }
        }
    }
}
