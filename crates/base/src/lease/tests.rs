//! Lease semantics on a real store, each test run on SQLite and on PostgreSQL (`on_sqlite::*`,
//! `on_postgres::*`): exclusivity, eligibility in the claim's transaction, expiry and takeover, a
//! dead owner detected at once, heartbeats, fencing and release.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::sqlite::{list, SqliteLeases};
use super::*;
use crate::store::testdb::TestDb;
use crate::store::{DecisionSource, Labels, Store, TaskRecord};

const BUSY: Duration = Duration::from_secs(10);

/// Where a test's store lives: a temporary directory, or a database of its own.
enum Fx {
    Sqlite(tempfile::TempDir),
    Pg(TestDb),
}

impl Fx {
    fn path(&self) -> PathBuf {
        match self {
            Fx::Sqlite(dir) => dir.path().join("leases.db"),
            Fx::Pg(db) => db.path(),
        }
    }
}

macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(#[test]
            fn $name() {
                super::$name(super::Fx::Sqlite(tempfile::tempdir().unwrap()))
            })*
        }
        mod on_postgres {
            $(#[test]
            fn $name() {
                if let Some(db) = crate::store::testdb::TestDb::create(stringify!($name)) {
                    super::$name(super::Fx::Pg(db))
                }
            })*
        }
    };
}

on_both!(
    a_leased_task_cannot_be_claimed_by_another_owner_until_released,
    eligibility_is_checked_in_the_claim_transaction,
    an_expired_lease_is_taken_over_and_its_old_owner_is_fenced_out,
    a_dead_owner_on_this_host_is_detected_at_once,
    a_dead_owners_lease_on_a_finished_task_is_cleared_not_left_behind,
    heartbeats_renew_held_leases_and_release_happens_on_drop,
    racing_threads_claim_each_task_exactly_once,
    claim_first_skips_held_and_ineligible_tasks,
    racing_claim_first_takes_each_task_exactly_once,
    claim_first_takes_over_a_stale_lease_before_free_tasks,
    the_threads_of_one_keeper_never_claim_first_one_task_twice,
);

fn store_with(fx: &Fx, ids: &[&str]) -> PathBuf {
    let path = fx.path();
    let mut store = Store::open(&path, BUSY).unwrap();
    store
        .write(|tx| {
            for id in ids {
                tx.upsert_task(&TaskRecord {
                    task_id: id.to_string(),
                    instruction: format!("do {id}"),
                    context: String::new(),
                    labels: Labels::default(),
                    app_type: None,
                    original_json: serde_json::json!({"task_id": id}),
                    origin: "test".into(),
                })?;
            }
            Ok::<_, StoreError>(())
        })
        .unwrap();
    path
}

fn keeper(path: &Path, owner: Owner, ttl_ms: u64, heartbeat_ms: u64) -> LeaseKeeper {
    let settings = LeaseSettings {
        ttl: Duration::from_millis(ttl_ms),
        heartbeat: Duration::from_millis(heartbeat_ms),
    };
    LeaseKeeper::new(
        Box::new(SqliteLeases::open(path, BUSY).unwrap()),
        owner,
        settings,
    )
    .unwrap()
}

/// An owner on another host: only expiry can free its leases.
fn foreign(name: &str) -> Owner {
    Owner {
        id: format!("{name}:1:abcd"),
        host: format!("{name}-host"),
        boot_id: "other-boot".into(),
        pid: 1,
        pid_start: None,
    }
}

fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn a_leased_task_cannot_be_claimed_by_another_owner_until_released(fx: Fx) {
    let path = store_with(&fx, &["t1"]);
    let a = keeper(&path, Owner::current(), 60_000, 10_000);
    let b = keeper(&path, Owner::current(), 60_000, 10_000);
    assert_eq!(
        a.claim("t1", "loop", None, None).unwrap(),
        Claim::Taken { took_over: None }
    );
    // Claiming again renews; the other owner is refused and told who holds it.
    assert_eq!(
        a.claim("t1", "loop", None, None).unwrap(),
        Claim::Taken { took_over: None }
    );
    match b.claim("t1", "rollout", None, None).unwrap() {
        Claim::Held(l) => {
            assert_eq!(l.owner, a.owner().id);
            assert_eq!((l.stage.as_str(), l.pid), ("loop", std::process::id()));
        }
        other => panic!("expected Held, got {other:?}"),
    }
    assert_eq!(b.held_elsewhere(&["t1".into()]).unwrap().len(), 1);
    a.release("t1").unwrap();
    assert!(b.held_elsewhere(&["t1".into()]).unwrap().is_empty());
    assert_eq!(
        b.claim("t1", "rollout", None, None).unwrap(),
        Claim::Taken { took_over: None }
    );
    assert!(matches!(
        b.claim("nope", "loop", None, None),
        Err(StoreError::UnknownTask(_))
    ));
}

fn eligibility_is_checked_in_the_claim_transaction(fx: Fx) {
    let path = store_with(&fx, &["t1", "t2"]);
    let k = keeper(&path, Owner::current(), 60_000, 10_000);
    let mark = k.decision_mark().unwrap();
    let mut store = Store::open(&path, BUSY).unwrap();
    store
        .write(|tx| {
            tx.record_decision(
                "t1",
                TupleStatus::LoopAccepted,
                "other",
                DecisionSource::Policy,
                "done elsewhere",
                None,
            )
        })
        .unwrap();
    let pending = [TupleStatus::Pending, TupleStatus::InLoop];
    assert_eq!(
        k.claim("t1", "loop", Some(&pending), None).unwrap(),
        Claim::Ineligible {
            status: "loop_accepted".into()
        }
    );
    assert_eq!(
        k.claim("t1", "loop", None, Some(mark)).unwrap(),
        Claim::Changed {
            status: "loop_accepted".into()
        }
    );
    assert!(k.held().is_empty(), "a refused claim holds nothing");
    assert_eq!(
        k.claim("t2", "loop", Some(&pending), Some(mark)).unwrap(),
        Claim::Taken { took_over: None }
    );
}

fn an_expired_lease_is_taken_over_and_its_old_owner_is_fenced_out(fx: Fx) {
    let path = store_with(&fx, &["t1"]);
    // The foreign owner never renews (its heartbeat is far slower than its ttl).
    let old = keeper(&path, foreign("old"), 300, 3_600_000);
    let new = keeper(&path, Owner::current(), 60_000, 10_000);
    assert!(matches!(
        old.claim("t1", "loop", None, None).unwrap(),
        Claim::Taken { .. }
    ));
    assert!(matches!(
        new.claim("t1", "loop", None, None).unwrap(),
        Claim::Held(_)
    ));
    let mut took = None;
    wait_for("the lease to expire", || {
        match new.claim("t1", "loop", None, None).unwrap() {
            Claim::Taken { took_over } => {
                took = took_over;
                true
            }
            _ => false,
        }
    });
    let (prev, reason) = took.expect("the takeover names the stale lease");
    assert_eq!(
        (prev.owner.as_str(), reason),
        ("old:1:abcd", TakeoverReason::Expired)
    );
    let mut store = Store::open(&path, BUSY).unwrap();
    let events = store.events_after(0, 100).unwrap();
    let ev = events
        .iter()
        .find(|e| e.kind == "lease.taken_over")
        .expect("a lease.taken_over event");
    assert_eq!(ev.payload["reason"], "expired");
    assert_eq!(ev.payload["from"], "old:1:abcd");
    // The old owner's writes now roll back, and its renewal reports the loss.
    let r = store.write(|tx| {
        old.fence(tx, "t1")?;
        tx.record_decision(
            "t1",
            TupleStatus::InLoop,
            "old",
            DecisionSource::Policy,
            "",
            None,
        )
    });
    assert!(matches!(r, Err(StoreError::LeaseLost { .. })), "{r:?}");
    assert_eq!(store.effective_status("t1").unwrap(), "pending");
    store.write(|tx| new.fence(tx, "t1")).unwrap();
}

fn a_dead_owner_on_this_host_is_detected_at_once(fx: Fx) {
    let path = store_with(&fx, &["t1"]);
    let ghost = Owner::exited("dead").unwrap();
    let dead_pid = ghost.pid;
    let me = Owner::current();
    // An hour-long ttl: only the dead pid can explain the takeover.
    let g = keeper(&path, ghost, 3_600_000, 3_600_000);
    assert!(matches!(
        g.claim("t1", "loop", None, None).unwrap(),
        Claim::Taken { .. }
    ));
    std::mem::forget(g); // a killed process releases nothing
    let k = keeper(&path, me, 60_000, 10_000);
    match k.claim("t1", "loop", None, None).unwrap() {
        Claim::Taken {
            took_over: Some((prev, reason)),
        } => {
            assert_eq!(prev.pid, dead_pid);
            assert_eq!(reason, TakeoverReason::DeadProcess);
        }
        other => panic!("expected a takeover, got {other:?}"),
    }
}

fn a_dead_owners_lease_on_a_finished_task_is_cleared_not_left_behind(fx: Fx) {
    let path = store_with(&fx, &["t1", "t2", "t3"]);
    let ghost = Owner::exited("dead").unwrap();
    let dead_pid = ghost.pid;
    let g = keeper(&path, ghost, 3_600_000, 3_600_000);
    for t in ["t1", "t2"] {
        assert!(matches!(
            g.claim(t, "loop", None, None).unwrap(),
            Claim::Taken { .. }
        ));
    }
    // The ghost finished t1 and was killed before it released the lease.
    let mut store = Store::open(&path, BUSY).unwrap();
    store
        .write(|tx| {
            g.fence(tx, "t1")?;
            tx.record_decision(
                "t1",
                TupleStatus::LoopAccepted,
                "loop",
                DecisionSource::Policy,
                "",
                None,
            )
        })
        .unwrap();
    std::mem::forget(g); // a killed process releases nothing
    let live = keeper(&path, foreign("live"), 3_600_000, 3_600_000);
    assert!(matches!(
        live.claim("t3", "loop", None, None).unwrap(),
        Claim::Taken { .. }
    ));
    // A refused claim (t1 is no longer pending) clears the stale lease it found.
    let k = keeper(&path, Owner::current(), 60_000, 10_000);
    let pending = [TupleStatus::Pending];
    assert!(matches!(
        k.claim("t1", "loop", Some(&pending), None).unwrap(),
        Claim::Ineligible { .. }
    ));
    let held = |store: &Store| -> Vec<String> {
        list(store.conn())
            .unwrap()
            .into_iter()
            .map(|l| l.task_id)
            .collect()
    };
    assert_eq!(held(&store), ["t2", "t3"]);
    let events = store.events_after(0, 100).unwrap();
    let ev = events
        .iter()
        .find(|e| e.kind == "lease.cleared")
        .expect("a lease.cleared event");
    assert_eq!(ev.task_id.as_deref(), Some("t1"));
    assert_eq!(ev.payload["reason"], "dead_process");
    assert_eq!(ev.payload["from_pid"], dead_pid);
    // A drained queue clears every stale lease, not a live owner's.
    assert_eq!(k.clear_stale().unwrap(), 1);
    assert_eq!(held(&store), ["t3"]);
    assert_eq!(k.clear_stale().unwrap(), 0);
    assert_eq!(store.effective_status("t1").unwrap(), "loop_accepted");
}

fn heartbeats_renew_held_leases_and_release_happens_on_drop(fx: Fx) {
    let path = store_with(&fx, &["t1"]);
    let k = keeper(&path, Owner::current(), 400, 50);
    assert!(matches!(
        k.claim("t1", "verify", None, None).unwrap(),
        Claim::Taken { .. }
    ));
    let store = Store::open(&path, BUSY).unwrap();
    let first = sqlite::lease_of(store.conn(), "t1").unwrap().unwrap();
    wait_for("several renewals", || k.renewals() >= 3);
    let later = sqlite::lease_of(store.conn(), "t1").unwrap().unwrap();
    assert!(
        later.expires_at > first.expires_at,
        "{later:?} vs {first:?}"
    );
    assert_eq!(later.claimed_at, first.claimed_at);
    // Well past the first expiry, the lease is still live for anyone else.
    wait_for("the first expiry to pass", || {
        crate::store::now() > first.expires_at
    });
    let other = keeper(&path, Owner::current(), 60_000, 10_000);
    assert!(matches!(
        other.claim("t1", "loop", None, None).unwrap(),
        Claim::Held(_)
    ));
    assert!(!k.is_lost("t1"));
    drop(k);
    assert!(sqlite::list(store.conn()).unwrap().is_empty());
}

fn racing_threads_claim_each_task_exactly_once(fx: Fx) {
    let ids: Vec<String> = (0..40).map(|i| format!("t{i:02}")).collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let path = store_with(&fx, &refs);
    let keepers: Vec<Arc<LeaseKeeper>> = (0..4)
        .map(|_| Arc::new(keeper(&path, Owner::current(), 60_000, 10_000)))
        .collect();
    let won: Vec<Vec<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = keepers
            .iter()
            .map(|k| {
                let ids = &ids;
                s.spawn(move || {
                    ids.iter()
                        .filter(|id| {
                            matches!(k.claim(id, "loop", None, None), Ok(Claim::Taken { .. }))
                        })
                        .cloned()
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<String> = won.concat();
    all.sort();
    assert_eq!(all, ids, "every task claimed exactly once: {won:?}");
}

fn claim_first_skips_held_and_ineligible_tasks(fx: Fx) {
    let path = store_with(&fx, &["a", "b", "c"]);
    let other = keeper(&path, Owner::current(), 60_000, 10_000);
    assert!(matches!(
        other.claim("a", "loop", None, None).unwrap(),
        Claim::Taken { .. }
    ));
    let mut store = Store::open(&path, BUSY).unwrap();
    store
        .write(|tx| {
            tx.record_decision(
                "b",
                TupleStatus::Final,
                "x",
                DecisionSource::Policy,
                "",
                None,
            )
        })
        .unwrap();
    let backend = SqliteLeases::open(&path, BUSY).unwrap();
    let me = Owner::current();
    let pending = [TupleStatus::Pending];
    let req = ClaimRequest {
        task_id: "",
        stage: "loop",
        statuses: Some(&pending),
        unchanged_since: None,
        ttl: Duration::from_secs(60),
    };
    let ids: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let (got, claim) = backend.claim_first(&me, &ids, &req).unwrap().unwrap();
    assert_eq!(
        (got.as_str(), claim),
        ("c", Claim::Taken { took_over: None })
    );
    // Now every candidate is refused.
    let third = Owner::current();
    assert_eq!(backend.claim_first(&third, &ids, &req).unwrap(), None);
}

fn racing_claim_first_takes_each_task_exactly_once(fx: Fx) {
    let ids: Vec<String> = (0..60).map(|i| format!("q{i:02}")).collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let path = store_with(&fx, &refs);
    let pending = [TupleStatus::Pending];
    // Four workers drain one queue with claim_first until nothing is left for them.
    let won: Vec<Vec<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (ids, path, pending) = (&ids, &path, &pending);
                s.spawn(move || {
                    let backend = SqliteLeases::open(path, BUSY).unwrap();
                    let me = Owner::current();
                    let req = ClaimRequest {
                        task_id: "",
                        stage: "loop",
                        statuses: Some(pending),
                        unchanged_since: None,
                        ttl: Duration::from_secs(60),
                    };
                    let mut mine = Vec::new();
                    while let Some((id, claim)) = backend.claim_first(&me, ids, &req).unwrap() {
                        assert_eq!(claim, Claim::Taken { took_over: None });
                        // Done with it: a decision makes it ineligible, then the lease goes.
                        let mut store = Store::open(path, BUSY).unwrap();
                        store
                            .write(|tx| {
                                tx.record_decision(
                                    &id,
                                    TupleStatus::LoopAccepted,
                                    "w",
                                    DecisionSource::Policy,
                                    "",
                                    None,
                                )
                            })
                            .unwrap();
                        assert!(backend.release(&me, &id).unwrap());
                        mine.push(id);
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<String> = won.concat();
    all.sort();
    assert_eq!(all, ids, "every task claimed exactly once: {won:?}");
}

fn claim_first_takes_over_a_stale_lease_before_free_tasks(fx: Fx) {
    let path = store_with(&fx, &["a", "b", "c"]);
    // A worker that died holding `c` (its lease is never renewed and lapses).
    let old = keeper(&path, foreign("old"), 300, 3_600_000);
    assert!(matches!(
        old.claim("c", "loop", None, None).unwrap(),
        Claim::Taken { .. }
    ));
    let backend = SqliteLeases::open(&path, BUSY).unwrap();
    let me = Owner::current();
    wait_for("the dead worker's lease to lapse", || {
        let time = crate::store::now();
        backend
            .leases()
            .unwrap()
            .iter()
            .any(|l| l.task_id == "c" && l.stale_for(&me, &time).is_some())
    });
    let pending = [TupleStatus::Pending];
    let req = ClaimRequest {
        task_id: "",
        stage: "loop",
        statuses: Some(&pending),
        unchanged_since: None,
        ttl: Duration::from_secs(60),
    };
    let ids: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let (got, claim) = backend.claim_first(&me, &ids, &req).unwrap().unwrap();
    assert_eq!(
        got, "c",
        "the abandoned task is resumed before the free ones"
    );
    assert!(
        matches!(
            claim,
            Claim::Taken {
                took_over: Some((_, TakeoverReason::Expired))
            }
        ),
        "{claim:?}"
    );
    // Then the free ones, in order.
    let (next, _) = backend.claim_first(&me, &ids, &req).unwrap().unwrap();
    assert_eq!(next, "a");
}

fn the_threads_of_one_keeper_never_claim_first_one_task_twice(fx: Fx) {
    let ids: Vec<String> = (0..12).map(|i| format!("s{i:02}")).collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let path = store_with(&fx, &refs);
    // One worker process, four slots: one owner, one keeper, racing threads.
    let k = keeper(&path, Owner::current(), 60_000, 10_000);
    let pending = [TupleStatus::Pending];
    let won: Vec<Vec<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (k, ids, pending) = (&k, &ids, &pending);
                s.spawn(move || {
                    let mut mine = Vec::new();
                    // Each slot keeps what it claimed (never released): every task once.
                    while let Some(id) = k.claim_first(ids, "loop", Some(pending)).unwrap() {
                        mine.push(id);
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<String> = won.concat();
    all.sort();
    assert_eq!(all, ids, "a task given to two slots of one keeper: {won:?}");
    // Released, a task can be claimed again by the same keeper.
    k.release("s03").unwrap();
    assert_eq!(
        k.claim_first(&ids, "loop", Some(&pending))
            .unwrap()
            .as_deref(),
        Some("s03")
    );
}
