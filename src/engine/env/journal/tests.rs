//! Tests of the group-commit journal: record framing, replay, and batching.

use std::fs;
use std::time::Duration;

use super::codec::{decode, encode};
use super::*;

/// Files never catch up on their own within a test: only `flush`, a checkpoint or a drop.
const NEVER: Duration = Duration::from_secs(3600);

#[test]
fn records_round_trip_and_a_torn_tail_is_dropped() {
    let mut log = Vec::new();
    encode(&mut log, "a", &Op::Put(b"{\"x\":1}".to_vec()));
    encode(&mut log, "b-2", &Op::Delete);
    let whole = log.len();
    encode(&mut log, "c", &Op::Put(vec![7; 100]));
    let (recs, torn) = decode(&log[..log.len() - 3]);
    assert_eq!(torn, Some(whole));
    assert_eq!(recs.len(), 2);
    assert!(matches!(&recs[0], (s, Op::Put(b)) if s == "a" && b == b"{\"x\":1}"));
    assert!(matches!(&recs[1], (s, Op::Delete) if s == "b-2"));
    let mut bad = log.clone();
    bad[whole + 9] ^= 0xff;
    assert_eq!(decode(&bad).1, Some(whole));
    assert_eq!(decode(&log).0.len(), 3);
}

#[test]
fn replay_brings_session_files_up_to_date_and_empties_the_log() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["sessions", "tmp"] {
        fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let mut log = Vec::new();
    encode(&mut log, "s1", &Op::Put(b"old".to_vec()));
    encode(&mut log, "s1", &Op::Put(b"new".to_vec()));
    encode(&mut log, "s2", &Op::Put(b"gone".to_vec()));
    encode(&mut log, "s2", &Op::Delete);
    log.extend_from_slice(&[9, 0, 0]);
    fs::write(dir.path().join("journal.log"), &log).unwrap();
    let j = Journal::open(dir.path(), true, 1 << 20, NEVER).unwrap();
    assert_eq!(
        fs::read(dir.path().join("sessions/s1.json")).unwrap(),
        b"new"
    );
    assert!(!dir.path().join("sessions/s2.json").exists());
    assert_eq!(
        fs::metadata(dir.path().join("journal.log")).unwrap().len(),
        0
    );
    j.commit("s3", Op::Put(b"three".to_vec())).unwrap();
    j.flush().unwrap();
    assert_eq!(
        fs::read(dir.path().join("sessions/s3.json")).unwrap(),
        b"three"
    );
    assert!(fs::metadata(dir.path().join("journal.log")).unwrap().len() > 5);
}

/// Waits (generous deadline, no fixed sleep) until `n` records have been submitted.
fn until_submitted(j: &Journal, n: u64) {
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while j.stats().submitted.load(Ordering::Relaxed) < n {
        assert!(
            Instant::now() < deadline,
            "only {:?} of {n} records submitted",
            j.stats()
        );
        std::thread::yield_now();
    }
}

#[test]
fn records_queued_together_share_one_sync_and_each_session_file_is_written_once() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["sessions", "tmp"] {
        fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let j = Journal::open(dir.path(), true, 1 << 20, NEVER).unwrap();
    let acks = {
        let _held = j.hold();
        let ops = [
            ("a", Op::Put(b"a1".to_vec())),
            ("b", Op::Put(b"b1".to_vec())),
            ("a", Op::Put(b"a2".to_vec())),
            ("b", Op::Delete),
            ("c", Op::Delete),
            ("c", Op::Put(b"c1".to_vec())),
            ("a", Op::Put(b"a3".to_vec())),
        ];
        let acks: Vec<Ack> = ops
            .into_iter()
            .map(|(sid, op)| j.submit(sid, op).unwrap())
            .collect();
        until_submitted(&j, 7);
        acks
    };
    for ack in acks {
        wait(ack).unwrap();
    }
    let st = j.stats();
    assert_eq!(st.records.load(Ordering::Relaxed), 7);
    assert_eq!(st.batches.load(Ordering::Relaxed), 1, "{st:?}");
    assert_eq!(st.max_batch.load(Ordering::Relaxed), 7);
    // Acknowledged, durable in the log, not yet in the files: readers get the pending records.
    let read = |sid: &str| fs::read(dir.path().join(format!("sessions/{sid}.json"))).ok();
    assert_eq!(st.files_written.load(Ordering::Relaxed), 0, "{st:?}");
    assert_eq!(read("a"), None);
    assert_eq!(j.latest("a").as_deref(), Some(&b"a3".to_vec()));
    assert_eq!(j.latest("b"), None, "a delete takes effect at once");
    assert_eq!(j.latest("c").as_deref(), Some(&b"c1".to_vec()));
    assert_eq!(st.pending_bytes.load(Ordering::Relaxed), 4);
    j.flush().unwrap();
    assert_eq!(st.files_written.load(Ordering::Relaxed), 2, "{st:?}");
    assert_eq!(j.latest("a"), None);
    assert_eq!(read("a").as_deref(), Some(&b"a3"[..]));
    assert_eq!(read("b"), None);
    assert_eq!(read("c").as_deref(), Some(&b"c1"[..]));
    // A crash after the sync and before the files were written: the log brings them back.
    drop(j);
    fs::write(dir.path().join("sessions/a.json"), b"").unwrap();
    fs::remove_file(dir.path().join("sessions/c.json")).unwrap();
    fs::write(dir.path().join("sessions/b.json"), b"stale").unwrap();
    let log = fs::read(dir.path().join("journal.log")).unwrap();
    assert_eq!(
        decode(&log).0.len(),
        7,
        "every record is in the log, not only the last"
    );
    let _j = Journal::open(dir.path(), true, 1 << 20, NEVER).unwrap();
    assert_eq!(read("a").as_deref(), Some(&b"a3"[..]));
    assert_eq!(read("b"), None);
    assert_eq!(read("c").as_deref(), Some(&b"c1"[..]));
}

#[test]
fn a_busy_session_file_is_written_once_per_lag_and_catches_up_without_a_flush() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["sessions", "tmp"] {
        fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let j = Journal::open(dir.path(), true, 1 << 20, Duration::from_millis(200)).unwrap();
    for i in 0..50 {
        j.commit("busy", Op::Put(format!("v{i}").into_bytes()))
            .unwrap();
    }
    let path = dir.path().join("sessions/busy.json");
    let deadline = Instant::now() + Duration::from_secs(60);
    while fs::read(&path).ok().as_deref() != Some(&b"v49"[..]) {
        assert!(
            Instant::now() < deadline,
            "the file never caught up: {:?}",
            j.stats()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(j.latest("busy"), None);
    let st = j.stats();
    assert_eq!(st.records.load(Ordering::Relaxed), 50);
    // 50 acknowledged writes, each synced on its own (one writer), far fewer file writes.
    assert_eq!(st.batches.load(Ordering::Relaxed), 50);
    let files = st.files_written.load(Ordering::Relaxed);
    assert!(
        (1..50).contains(&files),
        "{files} file writes for 50 records"
    );
}

#[test]
fn a_checkpoint_writes_and_syncs_the_pending_files_before_emptying_the_log() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["sessions", "tmp"] {
        fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    // 1 MiB checkpoint (the floor): the fourth 300 KB record passes it.
    let j = Journal::open(dir.path(), true, 1, NEVER).unwrap();
    for i in 0..4u8 {
        j.commit(&format!("s{i}"), Op::Put(vec![b'a' + i; 300 << 10]))
            .unwrap();
    }
    let st = j.stats();
    assert_eq!(st.checkpoints.load(Ordering::Relaxed), 1, "{st:?}");
    assert_eq!(
        fs::metadata(dir.path().join("journal.log")).unwrap().len(),
        0
    );
    for i in 0..4u8 {
        assert_eq!(j.latest(&format!("s{i}")), None);
        let file = fs::read(dir.path().join(format!("sessions/s{i}.json"))).unwrap();
        assert_eq!(file, vec![b'a' + i; 300 << 10]);
    }
}

/// Long enough that a test never sees it run out by chance, so a wait that happened shows.
const LONG_DELAY: Duration = Duration::from_secs(120);

fn open_with_dirs(dir: &std::path::Path, fsync: bool) -> Journal {
    for sub in ["sessions", "tmp"] {
        fs::create_dir_all(dir.join(sub)).unwrap();
    }
    Journal::open(dir, fsync, 1 << 20, NEVER).unwrap()
}

fn wait_for(what: &str, ok: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while !ok() {
        assert!(std::time::Instant::now() < deadline, "timed out: {what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_sync_waits_for_a_writer_on_its_way_and_shares_it() {
    use std::sync::atomic::Ordering::Relaxed;
    let dir = tempfile::tempdir().unwrap();
    let j = std::sync::Arc::new(open_with_dirs(dir.path(), true));
    j.set_commit_delay(LONG_DELAY);
    let coming = j.arrival();
    let first = {
        let j = j.clone();
        std::thread::spawn(move || j.commit("a", Op::Put(b"1".to_vec())))
    };
    wait_for("the first record queued", || {
        j.stats().submitted.load(Relaxed) == 1
    });
    // The announced writer arrives (its guard goes once its record is queued): one sync.
    drop(coming);
    j.commit("b", Op::Put(b"2".to_vec())).unwrap();
    first.join().unwrap().unwrap();
    assert_eq!(j.stats().records.load(Relaxed), 2);
    assert_eq!(j.stats().batches.load(Relaxed), 1, "{:?}", j.stats());
    assert_eq!(j.stats().max_batch.load(Relaxed), 2);
    assert!(j.stats().delay_nanos.load(Relaxed) > 0);
}

#[test]
fn a_lone_writer_or_an_unsynced_journal_is_never_held_back() {
    use std::sync::atomic::Ordering::Relaxed;
    for (fsync, announced) in [(true, false), (false, true)] {
        let dir = tempfile::tempdir().unwrap();
        let j = open_with_dirs(dir.path(), fsync);
        j.set_commit_delay(LONG_DELAY);
        // With fsync off even a writer on its way does not hold the batch back.
        let coming = announced.then(|| j.arrival());
        let started = std::time::Instant::now();
        for i in 0..5 {
            j.commit("solo", Op::Put(vec![b'0' + i])).unwrap();
        }
        assert!(
            started.elapsed() < LONG_DELAY / 4,
            "fsync={fsync}: waited {:?} for writers that were not coming",
            started.elapsed()
        );
        assert_eq!(j.stats().batches.load(Relaxed), 5);
        assert_eq!(j.stats().delay_nanos.load(Relaxed), 0);
        drop(coming);
    }
}
