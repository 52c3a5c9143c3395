//! Tests of `SessionStore::apply_cached`, the write path of `POST /post` to a cached session
//! on the server's runtime (the sync is awaited, no blocking thread): writes share one sync,
//! readers never see a write before it is durable, a write whose client went away still
//! reaches the cache, and what is not cached or is a `reset` is handed back.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use super::limits_tests::{bare_app, config, state_of};
use super::session::{Action, Prepared};
use super::{ServerConfig, SessionStore};

fn durable_store(dir: &std::path::Path) -> (Arc<SessionStore>, ServerConfig) {
    let cfg = ServerConfig {
        fsync: true,
        ..config(dir, 1 << 30)
    };
    (Arc::new(SessionStore::open(bare_app(), &cfg).unwrap()), cfg)
}

fn set_current(store: &SessionStore, tag: &str) -> Prepared {
    Prepared::new(
        store.app(),
        Action::SetCurrent,
        Some(state_of(4 * 1024, tag)),
    )
    .unwrap()
}

/// Polls `ok` until it holds (generous deadline for a loaded 2-core machine).
fn wait_until(what: &str, ok: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn cached_writes_on_the_runtime_share_one_sync_and_readers_see_them_only_once_durable() {
    let dir = tempfile::tempdir().unwrap();
    let (store, cfg) = durable_store(dir.path());
    let sids: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
    let mut old = Vec::new();
    for sid in &sids {
        old.push(
            store
                .apply(sid, Action::Set, Some(json!({"v": "old"})))
                .unwrap(),
        );
    }
    let stats = store.journal_stats();
    let (batches, submitted) = (stats.batches.load(Relaxed), stats.submitted.load(Relaxed));
    let rt = runtime();
    let held = store.hold_journal();
    let writes: Vec<_> = sids
        .iter()
        .map(|sid| {
            let (store, sid) = (store.clone(), sid.clone());
            let prepared = set_current(&store, &sid);
            rt.spawn(async move { store.apply_cached(&sid, prepared, store.arrival()).await })
        })
        .collect();
    wait_until("8 records queued", || {
        stats.submitted.load(Relaxed) == submitted + 8
    });
    // Queued, not durable: readers still see the acknowledged state.
    for (sid, id) in sids.iter().zip(&old) {
        assert_eq!(&store.snapshot(sid).unwrap().state_id, id, "{sid}");
    }
    drop(held);
    let ids: Vec<String> = writes
        .into_iter()
        .map(|w| {
            let written = rt.block_on(w).unwrap();
            written.unwrap_or_else(|_| panic!("a cached session was handed back"))
        })
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(stats.batches.load(Relaxed), batches + 1, "{stats:?}");
    for (sid, id) in sids.iter().zip(&ids) {
        assert_eq!(&store.snapshot(sid).unwrap().state_id, id, "{sid}");
        assert_ne!(id, &old[0]);
    }
    drop(rt);
    drop(Arc::into_inner(store).unwrap());
    let store = SessionStore::open(bare_app(), &cfg).unwrap();
    for (sid, id) in sids.iter().zip(&ids) {
        let snap = store.snapshot(sid).unwrap();
        assert_eq!(&snap.state_id, id, "{sid} after restart");
        assert_eq!(snap.initial.value().unwrap(), json!({"v": "old"}));
    }
}

#[test]
fn a_cached_write_whose_client_went_away_still_reaches_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _cfg) = durable_store(dir.path());
    store
        .apply("gone", Action::SetCurrent, Some(json!({"v": 1})))
        .unwrap();
    let stats = store.journal_stats();
    let submitted = stats.submitted.load(Relaxed);
    let rt = runtime();
    let held = store.hold_journal();
    let prepared = set_current(&store, "late");
    let handler = {
        let store = store.clone();
        rt.spawn(async move { store.apply_cached("gone", prepared, store.arrival()).await })
    };
    wait_until("the record queued", || {
        stats.submitted.load(Relaxed) == submitted + 1
    });
    // The client hangs up: its handler future is dropped while the sync is pending.
    handler.abort();
    let _ = rt.block_on(handler);
    drop(held);
    let expected =
        super::session::state_id(&serde_json::to_vec(&state_of(4 * 1024, "late")).unwrap());
    wait_until("the cache to hold the durable write", || {
        store.snapshot("gone").unwrap().state_id == expected
    });
}

#[test]
fn an_uncached_session_or_a_reset_is_handed_back_for_the_blocking_path() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _cfg) = durable_store(dir.path());
    let rt = runtime();
    let fresh = set_current(&store, "x");
    let back = rt.block_on(store.apply_cached("never-loaded", fresh, store.arrival()));
    assert!(
        back.is_err(),
        "an uncached session was written on the runtime"
    );
    store
        .apply("loaded", Action::SetCurrent, Some(json!({"v": 1})))
        .unwrap();
    let reset = Prepared::new(store.app(), Action::Reset, None).unwrap();
    let back = rt.block_on(store.apply_cached("loaded", reset, store.arrival()));
    assert!(back.is_err(), "a reset was run on the runtime");
    let write = set_current(&store, "y");
    let done = rt.block_on(store.apply_cached("loaded", write, store.arrival()));
    assert!(matches!(done, Ok(Ok(_))));
}
