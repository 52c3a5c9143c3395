//! Stored environment states (schema v5): upgrade from v4, round and rollout states, blob sharing.

use serde_json::json;

use super::{open, round, task};

fn snap(
    endpoint: tuplewright::engine::store::StateEndpoint,
    env: &str,
    json: &str,
) -> tuplewright::engine::store::StateSnapshot {
    tuplewright::engine::store::StateSnapshot {
        endpoint,
        env: env.into(),
        json: json.into(),
        volatile: vec!["**.lastViewedAt".into()],
    }
}

#[test]
fn version_4_store_upgrades_to_5_and_old_rounds_have_no_states() {
    use tuplewright::engine::store::StateEndpoint::*;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v4.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for sql in [
            include_str!("../../crates/base/src/store/migrations/v1.sql"),
            include_str!("../../crates/base/src/store/migrations/v2.sql"),
            include_str!("../../crates/base/src/store/migrations/v3.sql"),
            include_str!("../../crates/base/src/store/migrations/v4.sql"),
        ] {
            conn.execute_batch(sql).unwrap();
        }
        conn.execute_batch(
            "PRAGMA user_version = 4;
             INSERT INTO tasks (task_id, instruction, created_at, updated_at) VALUES ('t_old', 'x', 'now', 'now');
             INSERT INTO tuples (task_id, status, updated_at) VALUES ('t_old', 'final', 'now');
             INSERT INTO rounds (task_id, round_no, verdict, started_at, finished_at) VALUES ('t_old', 1, 'pass', 'a', 'b');",
        )
        .unwrap();
    }
    let mut store = open(&path);
    assert_eq!(store.upgraded_from(), 4);
    assert_eq!(
        store.schema_version().unwrap(),
        tuplewright::engine::store::SCHEMA_VERSION
    );
    let rounds = store.rounds("t_old").unwrap();
    assert_eq!(rounds.len(), 1);
    assert!(store.round_states(rounds[0].id).unwrap().is_empty());
    assert!(store.rollout_states("t_old").unwrap().is_empty());
    // The new table works on the upgraded store.
    store
        .write(|tx| {
            tx.record_round_states(rounds[0].id, &[snap(Initial, "team-chat", r#"{"a":1}"#)])
        })
        .unwrap();
    let states = store.round_states(rounds[0].id).unwrap();
    assert_eq!(states.len(), 1);
    assert_eq!(states[0].state, json!({"a": 1}));
    assert!(store.check_integrity().unwrap().is_empty());
}

#[test]
fn round_and_rollout_states_round_trip_and_share_blobs() {
    use tuplewright::engine::store::StateEndpoint::*;
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
    let seed = r#"{"channels":[],"lastViewedAt":1}"#;
    let id = store
        .write(|tx| {
            tx.record_round_with_states(
                &round("t_001", "setup"),
                &[
                    snap(Golden, "team-chat", r#"{"channels":[{"id":"C1"}]}"#),
                    snap(Initial, "team-chat", seed),
                    snap(Initial, "files", r#"{"a.txt":{"size":1}}"#),
                ],
            )
        })
        .unwrap();
    let states = store.round_states(id).unwrap();
    let order: Vec<(_, &str)> = states
        .iter()
        .map(|s| (s.endpoint, s.env.as_str()))
        .collect();
    assert_eq!(
        order,
        [
            (Initial, "files"),
            (Initial, "team-chat"),
            (Golden, "team-chat")
        ]
    );
    assert_eq!(states[1].volatile, ["**.lastViewedAt"]);
    assert_eq!(states[1].sha, tuplewright::engine::store::sha256_hex(seed));
    // A rollout's final state; the same JSON as the seed is not stored twice.
    let blobs_before: i64 = store
        .conn()
        .sqlite()
        .unwrap()
        .query_row("SELECT COUNT(*) FROM blobs", [], |r| r.get(0))
        .unwrap();
    store
        .write(|tx| {
            let rid = tx.record_rollout(&tuplewright::engine::store::Rollout {
                task_id: "t_001".into(),
                model: "oracle".into(),
                trial: 2,
                reward: Some(1.0),
                judge_verdict: None,
                failure: None,
                detail: json!({}),
                created_at: None,
            })?;
            tx.record_rollout_states(rid, &[snap(Final, "team-chat", seed)])
        })
        .unwrap();
    let blobs_after: i64 = store
        .conn()
        .sqlite()
        .unwrap()
        .query_row("SELECT COUNT(*) FROM blobs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(blobs_after, blobs_before);
    let trials = store.rollout_states("t_001").unwrap();
    assert_eq!(trials.len(), 1);
    assert_eq!((trials[0].model.as_str(), trials[0].trial), ("oracle", 2));
    assert_eq!(trials[0].states[0].state["lastViewedAt"], 1);
    // Endpoints are checked, and a failed write leaves nothing behind.
    let err = store
        .write(|tx| {
            tx.record_round_with_states(
                &round("t_001", "setup 2"),
                &[snap(Final, "team-chat", "{}")],
            )
        })
        .unwrap_err();
    assert!(
        err.to_string().contains("must be initial or golden"),
        "{err}"
    );
    assert_eq!(store.rounds("t_001").unwrap().len(), 1);
    // The same env and endpoint twice in one round is refused by the schema.
    let dup = store.write(|tx| tx.record_round_states(id, &[snap(Initial, "team-chat", "{}")]));
    assert!(dup.is_err());
}

#[test]
fn latest_event_of_a_kind_for_a_tuple_is_an_index_lookup() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("t.db"));
    let plan: Vec<String> = store
        .conn()
        .sqlite()
        .unwrap()
        .prepare(
            "EXPLAIN QUERY PLAN SELECT payload FROM events WHERE kind = 'x' AND task_id = 't' \
             ORDER BY seq DESC LIMIT 1",
        )
        .unwrap()
        .query_map([], |r| r.get::<_, String>(3))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        plan.iter().any(|p| p.contains("events_task_kind")),
        "the v6 index is used: {plan:?}"
    );
}
