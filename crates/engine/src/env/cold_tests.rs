//! Unit tests of cold reads: a session read back after its eviction keeps its exact text and
//! `state_id`, serves `/go` from the tail kept beside its file, and the cache is bounded by
//! bytes, not by a session count.

use axum::body::Bytes;
use serde_json::json;

use super::limits_tests::{bare_app, config, state_of};
use super::post_body;
use super::session::{Action, Prepared};
use super::store::Encoding;
use super::{ServerConfig, SessionStore};

fn body_bytes(store: &SessionStore, sid: &str) -> Vec<u8> {
    let chunks = store.go_body(sid, Encoding::Identity).unwrap();
    chunks.parts().flat_map(|p| p.iter().copied()).collect()
}

/// Evicts every session written before by writing twice the budget's worth of others (the
/// cache evicts least recently used first).
fn evict_all(store: &SessionStore, budget: u64) {
    let before = store.cache_stats().evictions;
    for i in 0..16 {
        let sid = format!("filler-{i}");
        store
            .apply(&sid, Action::Set, Some(state_of(budget as usize / 8, &sid)))
            .unwrap();
    }
    assert!(
        store.cache_stats().evictions > before,
        "{:?}",
        store.cache_stats()
    );
}

#[test]
fn a_state_keeps_its_text_and_id_across_an_eviction() {
    let dir = tempfile::tempdir().unwrap();
    let budget = 4 << 20;
    let store = SessionStore::open(bare_app(), &config(dir.path(), budget)).unwrap();
    // A UI's own number spellings: set_current keeps the client's text, and so must a reload.
    let body = Bytes::from_static(br#"{"price":1.50,"stock":1e3,"name":"x"}"#);
    let raw = post_body::RawState::new(std::str::from_utf8(&body).unwrap());
    let prepared = Prepared::from_raw(&bare_app(), Action::SetCurrent, Some(raw), &body).unwrap();
    let id = store.apply_prepared("typed", prepared).unwrap();
    let before = store.snapshot("typed").unwrap();
    store.flush_files().unwrap();
    evict_all(&store, budget);
    let after = store.snapshot("typed").unwrap();
    assert_eq!(
        after.state_id, id,
        "the state's id changed when it was read back"
    );
    assert_eq!(after.current.json, before.current.json);
}

#[test]
fn a_cold_go_is_served_from_the_kept_tail_and_a_damaged_tail_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let budget = 8 << 20;
    let store = SessionStore::open(bare_app(), &config(dir.path(), budget)).unwrap();
    store
        .apply("doc", Action::Set, Some(state_of(512 * 1024, "doc")))
        .unwrap();
    store
        .apply("doc", Action::Merge, Some(json!({"edited": true})))
        .unwrap();
    let warm = body_bytes(&store, "doc");
    store.flush_files().unwrap();
    evict_all(&store, budget);
    let kept = dir.path().join("bench-app/sessions/doc.go");
    assert!(kept.exists(), "the evicted session's /go tail was not kept");
    assert_eq!(
        body_bytes(&store, "doc"),
        warm,
        "cold /go from the kept tail"
    );
    // A torn or foreign tail is never served: the diff is computed again.
    let mut bytes = std::fs::read(&kept).unwrap();
    let last = bytes.len() - 2;
    bytes[last] ^= 0x20;
    std::fs::write(&kept, &bytes).unwrap();
    evict_all(&store, budget);
    assert_eq!(
        body_bytes(&store, "doc"),
        warm,
        "cold /go past a damaged tail"
    );
    // A new state makes the kept tail stale: it is not used for the new state.
    store
        .apply("doc", Action::Merge, Some(json!({"edited": "twice"})))
        .unwrap();
    let fresh = body_bytes(&store, "doc");
    assert_ne!(fresh, warm);
    store.flush_files().unwrap();
    evict_all(&store, budget);
    assert_eq!(body_bytes(&store, "doc"), fresh);
    // Deleting the session deletes its kept tail.
    store.delete("doc").unwrap();
    assert!(!kept.exists(), "a deleted session's tail was left behind");
}

#[test]
fn the_cache_is_bounded_by_bytes_not_by_a_session_count() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.path().to_path_buf(),
        fsync: false,
        cache_bytes: 256 << 20,
        ..ServerConfig::default()
    };
    let store = SessionStore::open(bare_app(), &cfg).unwrap();
    for i in 0..2_000 {
        let sid = format!("s{i}");
        store
            .apply(&sid, Action::Set, Some(json!({"n": i})))
            .unwrap();
    }
    let stats = store.cache_stats();
    assert_eq!(
        (stats.sessions, stats.evictions),
        (2_000, 0),
        "small sessions were evicted with the byte budget far from full: {stats:?}"
    );
}
