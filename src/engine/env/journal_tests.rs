//! Tests of the group-commit journal: record framing, replay, and batching.

use super::*;

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
    let j = Journal::open(dir.path(), true, 1 << 20).unwrap();
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
    let j = Journal::open(dir.path(), true, 1 << 20).unwrap();
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
    assert_eq!(st.files_written.load(Ordering::Relaxed), 3, "{st:?}");
    let read = |sid: &str| fs::read(dir.path().join(format!("sessions/{sid}.json"))).ok();
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
    let _j = Journal::open(dir.path(), true, 1 << 20).unwrap();
    assert_eq!(read("a").as_deref(), Some(&b"a3"[..]));
    assert_eq!(read("b"), None);
    assert_eq!(read("c").as_deref(), Some(&b"c1"[..]));
}
