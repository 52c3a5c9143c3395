//! Group commit for one app's sessions: every write is appended to `journal.log` and the writes
//! that arrived together share one `fdatasync`; only then are they acknowledged.
//!
//! One committer thread owns the log. A writer hands it a record ([`Journal::submit`]) while
//! holding its session's lock, so records of one session keep their order, and waits for the
//! answer without the lock. The committer takes everything queued, appends it in one write,
//! syncs once and answers every writer of the batch. Records that arrive while a batch is being
//! synced form the next batch, so the batch grows with the number of writers waiting, never with
//! a timer.
//!
//! A put close to the session's previous one in the log is logged as a patch of it (the bytes
//! they do not share, see [`codec`]): a UI's successive states differ in a few bytes, so a
//! sync writes a few hundred bytes per request instead of the whole state.
//!
//! **The synced log is the durable copy; session files lag behind it.** After the sync each
//! session's last record of the batch, when it is a put, becomes its *pending* state ([`Journal::latest`], what a
//! reader that has no cached copy must use) and the session files are brought up to date later,
//! once per session however many writes it had: when the oldest pending record is
//! `file_lag` old, when pending records hold [`PENDING_BYTES`], before a checkpoint, on
//! [`Journal::flush`] and when the journal is dropped (atomic rename, no sync of their own). A
//! busy session is thus written to its file a few times a second instead of once per request.
//! When the log passes `checkpoint_bytes` the files are brought up to date, synced, and the log
//! is emptied by starting a new lap at its head ([`codec`]): the file is reused in place and
//! grown in [`GROW_BYTES`] steps of zeros, so a sync overwrites allocated blocks and, apart from
//! the growth steps, changes no metadata (no file-system journal commit per sync). On open, the log is replayed into the session files (records are length- and
//! CRC-checked; a torn tail left by a crash mid-append was never acknowledged and is dropped),
//! so an acknowledged write survives any crash. After an I/O failure the journal refuses every
//! later write with that error (the files on disk and the log still hold every acknowledged
//! state; a restart replays the log).

mod bases;
mod batch;
mod codec;
mod files;

use std::collections::{HashMap, HashSet};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bases::Bases;
pub use batch::Arrival;
use batch::{Arrivals, Batch, Done};
use codec::{encode, encode_put, header, HEADER};
use files::{replay, Files};

use super::EnvError;

/// Pending records holding this many bytes are written to their files at once.
pub const PENDING_BYTES: usize = 32 << 20;

/// What a record does to a session file.
#[derive(Debug, Clone)]
pub enum Op {
    /// Replace the session file with these bytes.
    Put(Vec<u8>),
    /// Remove the session file.
    Delete,
}

/// The committer's answer to one record: `Err` carries why it is not durable.
pub type Ack = mpsc::Receiver<Result<(), String>>;

/// [`Ack`] for a writer on an async runtime: awaited, so no thread blocks for the sync.
pub type AsyncAck = tokio::sync::oneshot::Receiver<Result<(), String>>;

struct Job {
    sid: String,
    op: Op,
    done: Done,
}

enum Msg {
    Write(Job),
    /// Bring every session file up to date, then answer.
    Flush(mpsc::SyncSender<Result<(), String>>),
}

/// Counters of the committer (for tests, `/health` and the benchmark).
#[derive(Debug, Default)]
pub struct JournalStats {
    /// Records handed to the committer (durable or not yet).
    pub submitted: AtomicU64,
    /// Records made durable.
    pub records: AtomicU64,
    /// Batches (each one append and one sync).
    pub batches: AtomicU64,
    /// Bytes of records logged (patches count their own size, not the state's).
    pub logged_bytes: AtomicU64,
    /// Records of the largest batch so far.
    pub max_batch: AtomicU64,
    /// Session files written (at most one per session and file flush).
    pub files_written: AtomicU64,
    /// Times the pending records were written to their files.
    pub file_flushes: AtomicU64,
    /// Bytes of pending records now (acknowledged, not in their files yet).
    pub pending_bytes: AtomicU64,
    /// Checkpoints (log emptied).
    pub checkpoints: AtomicU64,
    /// Nanoseconds spent appending to the log and syncing it.
    pub sync_nanos: AtomicU64,
    /// Nanoseconds spent bringing session files up to date and checkpointing.
    pub apply_nanos: AtomicU64,
    /// Nanoseconds the committer waited for arriving writers before a sync.
    pub delay_nanos: AtomicU64,
}

/// Each session's last acknowledged `Put` that its file does not hold yet.
type PendingMap = Arc<Mutex<HashMap<String, Arc<Vec<u8>>>>>;

/// The group-commit journal of one app's session directory.
pub struct Journal {
    tx: Mutex<Option<mpsc::Sender<Msg>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    stats: Arc<JournalStats>,
    pending: PendingMap,
    arrivals: Arc<Arrivals>,
    /// Taken by the committer before it gathers a batch; tests hold it to queue records first.
    #[cfg_attr(not(test), allow(dead_code))]
    gate: Arc<Mutex<()>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Journal {
    /// Opens the journal of `root` (`root/journal.log`), replaying what it holds into the
    /// session files first, and starts the committer.
    pub fn open(
        root: &Path,
        fsync: bool,
        checkpoint_bytes: u64,
        file_lag: Duration,
    ) -> Result<Journal, EnvError> {
        let files = Files {
            sessions: root.join("sessions"),
            tmp: root.join("tmp"),
            fsync,
        };
        let path = root.join("journal.log");
        let log = replay(&path, &files)?;
        let (tx, rx) = mpsc::channel::<Msg>();
        let stats = Arc::new(JournalStats::default());
        let gate = Arc::new(Mutex::new(()));
        let pending = PendingMap::default();
        let arrivals = Arc::new(Arrivals::default());
        let committer = Committer {
            arrivals: arrivals.clone(),
            gate: gate.clone(),
            log: log.file,
            lap: log.lap,
            pos: HEADER,
            allocated: log.allocated,
            path: path.clone(),
            files,
            checkpoint_bytes: checkpoint_bytes.max(1 << 20),
            dirty: HashSet::new(),
            bases: Bases::default(),
            pending: pending.clone(),
            pending_bytes: 0,
            pending_since: None,
            file_lag,
            broken: None,
            stats: stats.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("env-journal".into())
            .spawn(move || committer.run(rx))
            .map_err(|e| EnvError::io("start journal committer for", &path, e))?;
        Ok(Journal {
            tx: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
            stats,
            pending,
            arrivals,
            gate,
        })
    }

    /// Sets the longest time the committer waits for arriving writers before a sync (zero:
    /// never waits). Without a sync (fsync off) it never waits.
    pub fn set_commit_delay(&self, delay: Duration) {
        self.arrivals
            .delay_nanos
            .store(nanos(delay), Ordering::Relaxed);
    }

    /// Announces a writer that will submit soon (see [`Arrival`]).
    pub fn arrival(&self) -> Arrival {
        self.arrivals.coming.fetch_add(1, Ordering::Relaxed);
        Arrival(self.arrivals.clone())
    }

    fn send(&self, msg: Msg) -> Result<(), EnvError> {
        let tx = lock(&self.tx);
        if tx.as_ref().is_some_and(|tx| tx.send(msg).is_ok()) {
            Ok(())
        } else {
            Err(EnvError::Journal(
                "the journal committer has stopped".to_string(),
            ))
        }
    }

    /// Queues a record; the answer arrives on the returned channel once it is durable (from
    /// then on [`Journal::latest`] returns it until the session file holds it).
    pub fn submit(&self, sid: &str, op: Op) -> Result<Ack, EnvError> {
        let (done, ack) = mpsc::sync_channel(1);
        self.queue(sid, op, Done::Wait(done))?;
        Ok(ack)
    }

    /// [`Journal::submit`] for a writer on an async runtime ([`wait_async`] awaits the answer).
    pub fn submit_async(&self, sid: &str, op: Op) -> Result<AsyncAck, EnvError> {
        let (done, ack) = tokio::sync::oneshot::channel();
        self.queue(sid, op, Done::Wake(done))?;
        Ok(ack)
    }

    fn queue(&self, sid: &str, op: Op, done: Done) -> Result<(), EnvError> {
        self.send(Msg::Write(Job {
            sid: sid.to_string(),
            op,
            done,
        }))?;
        self.stats.submitted.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// [`Journal::submit`] and wait for the answer.
    pub fn commit(&self, sid: &str, op: Op) -> Result<(), EnvError> {
        wait(self.submit(sid, op)?)
    }

    /// The session file's bytes as of its last acknowledged write when the file does not hold
    /// them yet; `None` when the file (or its absence, after a delete) is up to date.
    pub fn latest(&self, sid: &str) -> Option<Arc<Vec<u8>>> {
        lock(&self.pending).get(sid).cloned()
    }

    /// Brings every session file up to date with the acknowledged records (not synced: the log
    /// stays the durable copy until the next checkpoint).
    pub fn flush(&self) -> Result<(), EnvError> {
        let (done, ack) = mpsc::sync_channel(1);
        self.send(Msg::Flush(done))?;
        wait(ack)
    }

    /// The committer's counters.
    pub fn stats(&self) -> &JournalStats {
        &self.stats
    }

    /// Stops the committer from gathering its next batch until the guard is dropped (tests
    /// queue records with it, then check they share one sync).
    #[cfg(test)]
    pub(crate) fn hold(&self) -> MutexGuard<'_, ()> {
        lock(&self.gate)
    }
}

/// Waits for a submitted record's answer.
pub fn wait(ack: Ack) -> Result<(), EnvError> {
    answered(ack.recv().ok())
}

/// Awaits an [`AsyncAck`].
pub async fn wait_async(ack: AsyncAck) -> Result<(), EnvError> {
    answered(ack.await.ok())
}

fn answered(answer: Option<Result<(), String>>) -> Result<(), EnvError> {
    match answer {
        Some(r) => r.map_err(EnvError::Journal),
        None => Err(EnvError::Journal(
            "the journal committer stopped before answering".to_string(),
        )),
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        lock(&self.tx).take();
        if let Some(t) = lock(&self.thread).take() {
            let _ = t.join();
        }
    }
}

struct Committer {
    gate: Arc<Mutex<()>>,
    arrivals: Arc<Arrivals>,
    log: std::fs::File,
    /// The lap the records are written under (see [`codec`]).
    lap: u64,
    /// Where the next batch is written.
    pos: u64,
    /// The log's size: its blocks are allocated and written, so overwriting changes no metadata.
    allocated: u64,
    path: PathBuf,
    files: Files,
    checkpoint_bytes: u64,
    /// Sessions whose files were written since the last checkpoint (synced by it).
    dirty: HashSet<String>,
    /// What the next put of each session may be logged as a patch of.
    bases: Bases,
    pending: PendingMap,
    pending_bytes: usize,
    /// When the oldest pending record was acknowledged.
    pending_since: Option<Instant>,
    file_lag: Duration,
    broken: Option<String>,
    stats: Arc<JournalStats>,
}

/// Most bytes one batch appends (further records wait for the next batch).
const BATCH_BYTES: usize = 64 << 20;

/// The log grows by at least this much at a time, written as zeros with the batch that needs it,
/// so that most syncs overwrite allocated blocks and change no metadata.
const GROW_BYTES: u64 = 4 << 20;

fn nanos(d: Duration) -> u64 {
    d.as_nanos().min(u64::MAX as u128) as u64
}

impl Committer {
    fn run(mut self, rx: mpsc::Receiver<Msg>) {
        loop {
            let first = match self.pending_since {
                Some(since) => {
                    let wait = (since + self.file_lag).saturating_duration_since(Instant::now());
                    match rx.recv_timeout(wait) {
                        Ok(msg) => msg,
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            let _ = self.guarded(Self::flush_files);
                            continue;
                        }
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    }
                }
                None => match rx.recv() {
                    Ok(msg) => msg,
                    Err(_) => break,
                },
            };
            drop(lock(&self.gate));
            let mut batch = Batch::default();
            batch.take(first, &rx);
            if self.files.fsync && !batch.jobs.is_empty() {
                self.wait_for_arrivals(&mut batch, &rx);
            }
            let Batch { jobs, flushes, .. } = batch;
            let (records, answers): (Vec<_>, Vec<_>) =
                jobs.into_iter().map(|j| ((j.sid, j.op), j.done)).unzip();
            let result = if records.is_empty() {
                Ok(())
            } else {
                self.guarded(|c| c.commit(records))
            };
            for done in answers {
                done.send(result.clone());
            }
            if !flushes.is_empty() {
                let flushed = self.guarded(Self::flush_files);
                for done in flushes {
                    let _ = done.send(flushed.clone());
                }
            }
        }
        // Dropped: leave the files up to date (the log keeps the records until a checkpoint).
        let _ = self.guarded(Self::flush_files);
    }

    /// Arrival-side batching: while writers are on their way (see [`Arrival`]), waits up to
    /// the commit delay for their records before the batch is synced.
    fn wait_for_arrivals(&mut self, batch: &mut Batch, rx: &mpsc::Receiver<Msg>) {
        let delay = Duration::from_nanos(self.arrivals.delay_nanos.load(Ordering::Relaxed));
        if delay.is_zero() || self.arrivals.coming.load(Ordering::Relaxed) == 0 {
            return;
        }
        let started = Instant::now();
        let until = started + delay;
        while batch.bytes < BATCH_BYTES && self.arrivals.coming.load(Ordering::Relaxed) > 0 {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match rx.recv_timeout(left) {
                Ok(msg) => batch.take(msg, rx),
                // Timed out; a disconnect is seen by the next receive.
                Err(_) => break,
            }
        }
        self.stats
            .delay_nanos
            .fetch_add(nanos(started.elapsed()), Ordering::Relaxed);
    }

    /// Runs `f` unless the journal is broken; an I/O error breaks it for good.
    fn guarded(&mut self, f: impl FnOnce(&mut Self) -> std::io::Result<()>) -> Result<(), String> {
        if let Some(why) = &self.broken {
            return Err(why.clone());
        }
        f(self).map_err(|e| {
            let why = format!(
                "the state server could not make writes durable ({e}; journal {}); \
                 it refuses writes until restarted",
                self.path.display()
            );
            tracing::error!(%why);
            self.broken = Some(why.clone());
            why
        })
    }

    fn commit(&mut self, batch: Vec<(String, Op)>) -> std::io::Result<()> {
        let started = Instant::now();
        let mut buf = Vec::new();
        // A put is logged as a patch of the session's previous put of this lap when that is
        // smaller; its bytes are then kept as the next one's base and as the pending state.
        let batch: Vec<(String, Option<Arc<Vec<u8>>>)> = batch
            .into_iter()
            .map(|(sid, op)| match op {
                Op::Put(bytes) => {
                    encode_put(&mut buf, Some(self.lap), &sid, &bytes, self.bases.get(&sid));
                    let bytes = Arc::new(bytes);
                    self.bases.put(&sid, bytes.clone());
                    (sid, Some(bytes))
                }
                Op::Delete => {
                    encode(&mut buf, Some(self.lap), &sid, &Op::Delete);
                    self.bases.remove(&sid);
                    (sid, None)
                }
            })
            .collect();
        let end = self.pos + buf.len() as u64;
        if end > self.allocated {
            let grown = end.max(self.allocated + GROW_BYTES);
            write_zeros(&self.log, end, grown)?;
            self.allocated = grown;
        }
        self.log.write_all_at(&buf, self.pos)?;
        if self.files.fsync {
            self.log.sync_data()?;
        }
        let synced = Instant::now();
        self.pos = end;
        let records = batch.len() as u64;
        self.stats
            .logged_bytes
            .fetch_add(buf.len() as u64, Ordering::Relaxed);
        // Every record is in the synced log now; a session's file only needs its last one. A
        // delete takes effect at once (rare, and cheap); a put waits in `pending`.
        let mut last: HashMap<String, Option<Arc<Vec<u8>>>> = HashMap::with_capacity(batch.len());
        for (sid, op) in batch {
            last.insert(sid, op);
        }
        let mut pending = lock(&self.pending);
        for (sid, op) in last {
            match op {
                Some(bytes) => {
                    self.pending_bytes += bytes.len();
                    if let Some(old) = pending.insert(sid, bytes) {
                        self.pending_bytes -= old.len();
                    }
                }
                None => {
                    self.files.delete(&sid)?;
                    if let Some(old) = pending.remove(&sid) {
                        self.pending_bytes -= old.len();
                    }
                    self.dirty.insert(sid);
                }
            }
        }
        let any_pending = !pending.is_empty();
        drop(pending);
        if !any_pending {
            self.pending_since = None;
        }
        if any_pending {
            self.pending_since.get_or_insert(synced);
        }
        let stats = &self.stats;
        stats.records.fetch_add(records, Ordering::Relaxed);
        stats.batches.fetch_add(1, Ordering::Relaxed);
        stats.max_batch.fetch_max(records, Ordering::Relaxed);
        stats
            .pending_bytes
            .store(self.pending_bytes as u64, Ordering::Relaxed);
        stats
            .sync_nanos
            .fetch_add(nanos(synced - started), Ordering::Relaxed);
        if self.pending_bytes >= PENDING_BYTES {
            self.flush_files()?;
        }
        if self.pos - HEADER >= self.checkpoint_bytes {
            self.checkpoint()?;
        }
        Ok(())
    }

    /// Writes each pending record to its session file, then forgets it.
    fn flush_files(&mut self) -> std::io::Result<()> {
        let started = Instant::now();
        let todo: Vec<(String, Arc<Vec<u8>>)> = lock(&self.pending)
            .iter()
            .map(|(sid, bytes)| (sid.clone(), bytes.clone()))
            .collect();
        for (sid, bytes) in &todo {
            self.files.put(sid, bytes)?;
            self.dirty.insert(sid.clone());
        }
        // Only this thread changes the map, so every entry is still the one written above;
        // readers that find none read the file, which holds it now.
        lock(&self.pending).clear();
        self.pending_bytes = 0;
        self.pending_since = None;
        let stats = &self.stats;
        stats
            .files_written
            .fetch_add(todo.len() as u64, Ordering::Relaxed);
        stats.file_flushes.fetch_add(1, Ordering::Relaxed);
        stats.pending_bytes.store(0, Ordering::Relaxed);
        stats
            .apply_nanos
            .fetch_add(nanos(started.elapsed()), Ordering::Relaxed);
        Ok(())
    }

    /// Files up to date and synced, then the log emptied: a new lap starts at its head, over
    /// the old records, which stop counting once the header names the new lap.
    fn checkpoint(&mut self) -> std::io::Result<()> {
        self.flush_files()?;
        let started = Instant::now();
        self.files.sync(&self.dirty)?;
        let lap = self.lap.wrapping_add(1);
        self.log.write_all_at(&header(lap), 0)?;
        if self.files.fsync {
            self.log.sync_data()?;
        }
        self.lap = lap;
        self.pos = HEADER;
        self.bases.clear();
        self.dirty.clear();
        self.stats.checkpoints.fetch_add(1, Ordering::Relaxed);
        self.stats
            .apply_nanos
            .fetch_add(nanos(started.elapsed()), Ordering::Relaxed);
        Ok(())
    }
}

/// Writes zeros over `from..to` of `file`.
fn write_zeros(file: &std::fs::File, from: u64, to: u64) -> std::io::Result<()> {
    static ZEROS: [u8; 64 << 10] = [0; 64 << 10];
    let mut at = from;
    while at < to {
        let n = (to - at).min(ZEROS.len() as u64) as usize;
        file.write_all_at(&ZEROS[..n], at)?;
        at += n as u64;
    }
    Ok(())
}

/// The records the log file at `path` holds (of its current lap), for tests that check it.
#[cfg(test)]
pub(crate) fn logged_records(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| codec::decode_file(&b).count)
}

#[cfg(test)]
mod tests;
