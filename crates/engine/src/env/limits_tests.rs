//! Unit tests of the session store's limits: the byte budget (eviction to disk, refusal), the
//! memory a cached session holds, and the group-commit journal across a restart.

use std::sync::Arc;

use serde_json::{json, Value};

use super::session::Action;
use super::store::Encoding;
use super::{App, EnvError, ServerConfig, SessionStore};

/// An app with an empty seed, so a session's state is exactly what was written.
pub(super) fn bare_app() -> Arc<App> {
    let manifest = "name = \"bench-app\"\ntitle = \"Bench\"\nkind = \"state-api\"\n\
                    port = 3999\ndescription = \"limits\"\n";
    Arc::new(App::parse("limits", manifest, Some("{}")).unwrap())
}

pub(super) fn config(dir: &std::path::Path, cache_bytes: u64) -> ServerConfig {
    ServerConfig {
        port: Some(0),
        state_dir: dir.to_path_buf(),
        fsync: false,
        cache_capacity: 100_000,
        cache_bytes,
        ..ServerConfig::default()
    }
}

/// A state whose compact JSON is about `bytes` long, distinct per `tag`.
pub(super) fn state_of(bytes: usize, tag: &str) -> Value {
    let items: Vec<Value> = (0..bytes / 64)
        .map(|i| json!({"id": format!("{tag}-{i}"), "title": "An everyday item, made to last"}))
        .collect();
    json!({"items": items})
}

#[test]
fn many_large_sessions_stay_within_the_byte_budget_and_read_back_intact() {
    let dir = tempfile::tempdir().unwrap();
    let budget = 8 << 20;
    let store = SessionStore::open(bare_app(), &config(dir.path(), budget)).unwrap();
    let size = 200 * 1024;
    for i in 0..120 {
        let sid = format!("big-{i}");
        store
            .apply(&sid, Action::Set, Some(state_of(size, &sid)))
            .unwrap();
        store
            .apply(&sid, Action::Merge, Some(json!({"step": i})))
            .unwrap();
        store.go_body(&sid, Encoding::Identity).unwrap();
        store.go_body(&sid, Encoding::Gzip).unwrap();
        let stats = store.cache_stats();
        assert!(
            stats.bytes <= budget,
            "after session {i}: {} bytes held, budget {budget}",
            stats.bytes
        );
    }
    let stats = store.cache_stats();
    assert!(stats.evictions >= 80, "{stats:?}");
    assert!(stats.sessions < 60, "{stats:?}");
    // Evicted sessions come back from disk intact.
    for i in [0, 1, 59, 119] {
        let sid = format!("big-{i}");
        let snap = store.snapshot(&sid).unwrap();
        let mut want = state_of(size, &sid);
        want["step"] = json!(i);
        assert_eq!(snap.current.value().unwrap(), want, "{sid}");
        assert!(store.cache_stats().bytes <= budget);
    }
}

#[test]
fn a_cached_session_holds_well_under_four_times_its_json() {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::open(bare_app(), &config(dir.path(), 1 << 30)).unwrap();
    let n = 50;
    let mut json_bytes = 0;
    for i in 0..n {
        let sid = format!("s{i}");
        let state = state_of(50 * 1024, &sid);
        json_bytes += serde_json::to_vec(&state).unwrap().len() as u64;
        store.apply(&sid, Action::Set, Some(state)).unwrap();
        store
            .apply(&sid, Action::Merge, Some(json!({"changed": true})))
            .unwrap();
        store.go_body(&sid, Encoding::Identity).unwrap();
    }
    let held = store.cache_stats().bytes;
    // Two snapshots (initial and current differ by one key) plus the diff: about 2x.
    let ratio = held as f64 / json_bytes as f64;
    assert!(ratio < 2.5, "cached sessions hold {ratio:.2}x their JSON");
    assert!(ratio > 1.9, "the accounting misses a snapshot: {ratio:.2}x");
}

#[test]
fn a_state_that_cannot_fit_is_refused_with_a_clear_error_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let budget = 1 << 20;
    let store = SessionStore::open(bare_app(), &config(dir.path(), budget)).unwrap();
    store
        .apply("s", Action::Set, Some(json!({"small": 1})))
        .unwrap();
    let err = store
        .apply("s", Action::SetCurrent, Some(state_of(2 << 20, "x")))
        .unwrap_err();
    assert!(matches!(err, EnvError::OverBudget { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("\"s\"") && msg.contains("cache_bytes") && msg.contains("larger"),
        "{msg}"
    );
    assert_eq!(
        store.snapshot("s").unwrap().current.value().unwrap(),
        json!({"small": 1})
    );
    assert_eq!(store.cache_stats().refused, 1);
}

#[test]
fn an_acknowledged_write_survives_a_restart_even_if_its_session_file_was_lost() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        fsync: true,
        ..config(dir.path(), 1 << 30)
    };
    let store = SessionStore::open(bare_app(), &cfg).unwrap();
    store
        .apply("keep", Action::Set, Some(json!({"n": 1})))
        .unwrap();
    store
        .apply("keep", Action::SetCurrent, Some(json!({"n": 2})))
        .unwrap();
    let file = store.root().join("sessions/keep.json");
    drop(store);
    // What an unsynced rename can leave after a power loss: an empty file.
    std::fs::write(&file, b"").unwrap();
    let store = SessionStore::open(bare_app(), &cfg).unwrap();
    let snap = store.snapshot("keep").unwrap();
    assert_eq!(snap.current.value().unwrap(), json!({"n": 2}));
    assert_eq!(snap.initial.value().unwrap(), json!({"n": 1}));
    assert_eq!(
        crate::env::journal::logged_records(&store.root().join("journal.log")),
        0,
        "the replayed journal is emptied"
    );
}

#[test]
fn concurrent_writes_share_journal_syncs() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        fsync: true,
        ..config(dir.path(), 1 << 30)
    };
    let store = Arc::new(SessionStore::open(bare_app(), &cfg).unwrap());
    let threads: Vec<_> = (0..16)
        .map(|t| {
            let store = store.clone();
            std::thread::spawn(move || {
                for i in 0..20 {
                    // Half the writers share one session: its order must hold too.
                    let sid = if t % 2 == 0 {
                        "shared".to_string()
                    } else {
                        format!("own-{t}")
                    };
                    store
                        .apply(&sid, Action::Merge, Some(json!({format!("t{t}"): i})))
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let stats = store.journal_stats();
    let records = stats.records.load(std::sync::atomic::Ordering::Relaxed);
    let batches = stats.batches.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(records, 320);
    assert!(batches < records, "{batches} syncs for {records} writes");
    let shared = store.snapshot("shared").unwrap().current.value().unwrap();
    for t in (0..16).step_by(2) {
        assert_eq!(shared[format!("t{t}")], json!(19), "{shared}");
    }
}

/// 16 writers, each in `apply` at the same time, to one shared session or to one session each:
/// all 16 records must reach the journal while it is held (a writer keeping its session's lock
/// across the wait would stop the others at the lock) and then share one sync, with the shared
/// session's file written once.
#[test]
fn writers_waiting_together_share_one_sync_whether_one_session_or_many() {
    use std::sync::atomic::Ordering::Relaxed;
    for shared in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let cfg = ServerConfig {
            fsync: true,
            ..config(dir.path(), 1 << 30)
        };
        let store = Arc::new(SessionStore::open(bare_app(), &cfg).unwrap());
        let stats = store.journal_stats();
        let held = store.hold_journal();
        let writers: Vec<_> = (0..16)
            .map(|t| {
                let store = store.clone();
                std::thread::spawn(move || {
                    let sid = if shared {
                        "one".into()
                    } else {
                        format!("own-{t}")
                    };
                    let state = state_of(4 * 1024, &format!("w{t}"));
                    let id = store.apply(&sid, Action::SetCurrent, Some(state)).unwrap();
                    (sid, id)
                })
            })
            .collect();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while stats.submitted.load(Relaxed) < 16 {
            assert!(
                std::time::Instant::now() < deadline,
                "shared={shared}: only {} of 16 writers reached the journal",
                stats.submitted.load(Relaxed)
            );
            std::thread::yield_now();
        }
        drop(held);
        let ids: Vec<(String, String)> = writers.into_iter().map(|w| w.join().unwrap()).collect();
        assert_eq!(stats.records.load(Relaxed), 16);
        assert_eq!(stats.batches.load(Relaxed), 1, "shared={shared}: {stats:?}");
        // The files lag behind the synced journal; brought up to date, each is written once.
        store.flush_files().unwrap();
        let files = if shared { 1 } else { 16 };
        assert_eq!(stats.files_written.load(Relaxed), files, "{stats:?}");
        // What readers see now is what a restart reads back, and it is one of the writes.
        let before: Vec<_> = ids
            .iter()
            .map(|(sid, _)| store.snapshot(sid).unwrap().state_id)
            .collect();
        assert!(before.iter().all(|id| ids.iter().any(|(_, w)| w == id)));
        drop(Arc::into_inner(store).unwrap());
        let store = SessionStore::open(bare_app(), &cfg).unwrap();
        for ((sid, _), id) in ids.iter().zip(&before) {
            assert_eq!(
                &store.snapshot(sid).unwrap().state_id,
                id,
                "{sid} after restart"
            );
        }
    }
}
