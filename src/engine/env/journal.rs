//! Group commit for one app's sessions: every write is appended to `journal.log` and the writes
//! that arrived together share one `fdatasync`; only then are they acknowledged.
//!
//! One committer thread owns the log. A writer hands it a record ([`Journal::submit`]) while
//! holding its session's lock, so records of one session keep their order, and waits for the
//! answer without the lock. The committer takes everything queued, appends it in one write,
//! syncs once, then brings the session files up to date (atomic rename, no sync of their own;
//! only the batch's last record of each session is written, the earlier ones being superseded
//! and already in the synced log) and answers every writer of the batch. Records that arrive
//! while a batch is being synced form the next batch, so the batch grows with the number of
//! writers waiting, never with a timer. When the log passes `checkpoint_bytes` the session
//! files written since the last checkpoint are synced and the log is emptied. On open, the log
//! is replayed into the session files (records are length- and CRC-checked; a torn tail left by
//! a crash mid-append was never acknowledged and is dropped), so an acknowledged write survives
//! any crash. After an I/O failure the journal refuses every later write with that error (the
//! files on disk still hold the last acknowledged state; a restart replays the log).

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use super::EnvError;

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

struct Job {
    sid: String,
    op: Op,
    done: mpsc::SyncSender<Result<(), String>>,
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
    /// Records of the largest batch so far.
    pub max_batch: AtomicU64,
    /// Session files written after the syncs (at most one per session and batch).
    pub files_written: AtomicU64,
    /// Checkpoints (log emptied).
    pub checkpoints: AtomicU64,
    /// Nanoseconds spent appending to the log and syncing it.
    pub sync_nanos: AtomicU64,
    /// Nanoseconds spent bringing session files up to date and checkpointing.
    pub apply_nanos: AtomicU64,
}

/// The group-commit journal of one app's session directory.
pub struct Journal {
    tx: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    stats: Arc<JournalStats>,
    /// Taken by the committer before it gathers a batch; tests hold it to queue records first.
    #[cfg_attr(not(test), allow(dead_code))]
    gate: Arc<Mutex<()>>,
}

/// Where the committer writes.
struct Files {
    sessions: PathBuf,
    tmp: PathBuf,
    fsync: bool,
}

impl Files {
    fn session(&self, sid: &str) -> PathBuf {
        self.sessions.join(format!("{sid}.json"))
    }

    fn apply(&self, sid: &str, op: &Op) -> std::io::Result<()> {
        let dest = self.session(sid);
        match op {
            Op::Put(bytes) => {
                let tmp = self.tmp.join(format!("{sid}.journal.tmp"));
                let write = || -> std::io::Result<()> {
                    let mut f = File::create(&tmp)?;
                    f.write_all(bytes)?;
                    fs::rename(&tmp, &dest)
                };
                write().inspect_err(|_| {
                    let _ = fs::remove_file(&tmp);
                })
            }
            Op::Delete => match fs::remove_file(&dest) {
                Err(e) if e.kind() != ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
        }
    }

    /// Makes the current content of `sids`' files (and the directory) durable.
    fn sync(&self, sids: &HashSet<String>) -> std::io::Result<()> {
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

fn encode(out: &mut Vec<u8>, sid: &str, op: &Op) {
    let (kind, body): (u8, &[u8]) = match op {
        Op::Put(bytes) => (1, bytes),
        Op::Delete => (2, &[]),
    };
    let len = 2 + sid.len() + body.len();
    out.reserve(8 + len);
    out.extend_from_slice(&(len as u32).to_le_bytes());
    let crc_at = out.len();
    out.extend_from_slice(&[0; 4]);
    let payload_at = out.len();
    out.push(kind);
    out.push(sid.len() as u8);
    out.extend_from_slice(sid.as_bytes());
    out.extend_from_slice(body);
    let crc = crc32fast::hash(&out[payload_at..]);
    out[crc_at..payload_at].copy_from_slice(&crc.to_le_bytes());
}

/// The complete records of a log, in order; the second value is the byte offset where a torn or
/// corrupt tail starts, if there is one.
fn decode(log: &[u8]) -> (Vec<(String, Op)>, Option<usize>) {
    let mut out = Vec::new();
    let mut at = 0;
    while at < log.len() {
        let Some(head) = log.get(at..at + 8) else {
            return (out, Some(at));
        };
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let crc = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let Some(payload) = log.get(at + 8..at + 8 + len) else {
            return (out, Some(at));
        };
        if crc32fast::hash(payload) != crc || payload.len() < 2 {
            return (out, Some(at));
        }
        let sid_len = payload[1] as usize;
        let Some(sid) = payload
            .get(2..2 + sid_len)
            .and_then(|s| std::str::from_utf8(s).ok())
        else {
            return (out, Some(at));
        };
        let op = match payload[0] {
            1 => Op::Put(payload[2 + sid_len..].to_vec()),
            2 => Op::Delete,
            _ => return (out, Some(at)),
        };
        out.push((sid.to_string(), op));
        at += 8 + len;
    }
    (out, None)
}

impl Journal {
    /// Opens the journal of `root` (`root/journal.log`), replaying what it holds into the
    /// session files first, and starts the committer.
    pub fn open(root: &Path, fsync: bool, checkpoint_bytes: u64) -> Result<Journal, EnvError> {
        let files = Files {
            sessions: root.join("sessions"),
            tmp: root.join("tmp"),
            fsync,
        };
        let path = root.join("journal.log");
        replay(&path, &files)?;
        let log = File::options()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| EnvError::io("open journal", &path, e))?;
        let (tx, rx) = mpsc::channel::<Job>();
        let stats = Arc::new(JournalStats::default());
        let gate = Arc::new(Mutex::new(()));
        let committer = Committer {
            gate: gate.clone(),
            log,
            path: path.clone(),
            files,
            checkpoint_bytes: checkpoint_bytes.max(1 << 20),
            written: 0,
            dirty: HashSet::new(),
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
            gate,
        })
    }

    /// Queues a record; the answer arrives on the returned channel once it is durable and the
    /// session file is up to date.
    pub fn submit(&self, sid: &str, op: Op) -> Result<Ack, EnvError> {
        let (done, ack) = mpsc::sync_channel(1);
        let tx = self.tx.lock().unwrap_or_else(|p| p.into_inner());
        let sent = tx.as_ref().is_some_and(|tx| {
            tx.send(Job {
                sid: sid.to_string(),
                op,
                done,
            })
            .is_ok()
        });
        if sent {
            self.stats.submitted.fetch_add(1, Ordering::Relaxed);
            Ok(ack)
        } else {
            Err(EnvError::Journal(
                "the journal committer has stopped".to_string(),
            ))
        }
    }

    /// [`Journal::submit`] and wait for the answer.
    pub fn commit(&self, sid: &str, op: Op) -> Result<(), EnvError> {
        wait(self.submit(sid, op)?)
    }

    /// The committer's counters.
    pub fn stats(&self) -> &JournalStats {
        &self.stats
    }

    /// Stops the committer from gathering its next batch until the guard is dropped (tests
    /// queue records with it, then check they share one sync).
    #[cfg(test)]
    pub(crate) fn hold(&self) -> std::sync::MutexGuard<'_, ()> {
        self.gate.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Waits for a submitted record's answer.
pub fn wait(ack: Ack) -> Result<(), EnvError> {
    match ack.recv() {
        Ok(r) => r.map_err(EnvError::Journal),
        Err(_) => Err(EnvError::Journal(
            "the journal committer stopped before answering".to_string(),
        )),
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        self.tx.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(t) = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = t.join();
        }
    }
}

fn replay(path: &Path, files: &Files) -> Result<(), EnvError> {
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

struct Committer {
    gate: Arc<Mutex<()>>,
    log: File,
    path: PathBuf,
    files: Files,
    checkpoint_bytes: u64,
    written: u64,
    dirty: HashSet<String>,
    broken: Option<String>,
    stats: Arc<JournalStats>,
}

/// Most bytes one batch appends (further records wait for the next batch).
const BATCH_BYTES: usize = 64 << 20;

impl Committer {
    fn run(mut self, rx: mpsc::Receiver<Job>) {
        while let Ok(first) = rx.recv() {
            drop(self.gate.lock().unwrap_or_else(|p| p.into_inner()));
            let mut batch = vec![first];
            let mut bytes = 0;
            while bytes < BATCH_BYTES {
                match rx.try_recv() {
                    Ok(job) => {
                        if let Op::Put(b) = &job.op {
                            bytes += b.len();
                        }
                        batch.push(job);
                    }
                    Err(_) => break,
                }
            }
            let result = match &self.broken {
                Some(why) => Err(why.clone()),
                None => self.commit(&batch).map_err(|e| {
                    let why = format!(
                        "the state server could not make writes durable ({e}; journal {}); \
                         it refuses writes until restarted",
                        self.path.display()
                    );
                    tracing::error!(%why);
                    self.broken = Some(why.clone());
                    why
                }),
            };
            for job in batch {
                let _ = job.done.send(result.clone());
            }
        }
    }

    fn commit(&mut self, batch: &[Job]) -> std::io::Result<()> {
        let started = Instant::now();
        let mut buf = Vec::new();
        for job in batch {
            encode(&mut buf, &job.sid, &job.op);
        }
        self.log.write_all(&buf)?;
        if self.files.fsync {
            self.log.sync_data()?;
        }
        let synced = Instant::now();
        self.written += buf.len() as u64;
        // Every record is in the synced log now; a session's file only needs its last one.
        let last: HashMap<&str, usize> = batch
            .iter()
            .enumerate()
            .map(|(i, job)| (job.sid.as_str(), i))
            .collect();
        for (i, job) in batch.iter().enumerate() {
            if last.get(job.sid.as_str()) == Some(&i) {
                self.files.apply(&job.sid, &job.op)?;
                self.dirty.insert(job.sid.clone());
            }
        }
        let stats = &self.stats;
        stats
            .files_written
            .fetch_add(last.len() as u64, Ordering::Relaxed);
        stats
            .records
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        stats.batches.fetch_add(1, Ordering::Relaxed);
        stats
            .max_batch
            .fetch_max(batch.len() as u64, Ordering::Relaxed);
        if self.written >= self.checkpoint_bytes {
            self.files.sync(&self.dirty)?;
            self.log.set_len(0)?;
            self.log.sync_all()?;
            self.dirty.clear();
            self.written = 0;
            stats.checkpoints.fetch_add(1, Ordering::Relaxed);
        }
        let nanos = |d: std::time::Duration| d.as_nanos().min(u64::MAX as u128) as u64;
        stats
            .sync_nanos
            .fetch_add(nanos(synced - started), Ordering::Relaxed);
        stats
            .apply_nanos
            .fetch_add(nanos(synced.elapsed()), Ordering::Relaxed);
        Ok(())
    }
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;
