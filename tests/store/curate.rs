//! Issue 33: schema v13 (decision groups, notes), bulk decisions with a group undo, notes and tags
//! in meta.json, and two curators' agreement — on SQLite and on PostgreSQL.

use tuplewright::engine::bundle::meta::meta_json;
use tuplewright::engine::curate::agreement::{agreement, CONFLICT_ACTOR};
use tuplewright::engine::curate::bulk::{apply_group, preview, undo_group, BulkRequest};
use tuplewright::engine::curate::notes::{add_note, NoteRequest};
use tuplewright::engine::curate::{ConflictPolicy, CurateConfig, CurateError};
use tuplewright::engine::filter::Action;
use tuplewright::engine::store::{DecisionSource, Store, TupleStatus};

use super::{open, task};

/// A store whose tuples `ids` passed the loop (status loop_accepted) and `pending` did not.
fn accepted(store: &mut Store, ids: &[&str], pending: &[&str]) {
    for id in ids.iter().chain(pending) {
        store.write(|tx| tx.upsert_task(&task(id))).unwrap();
    }
    for id in ids {
        store
            .write(|tx| {
                tx.record_decision(
                    id,
                    TupleStatus::LoopAccepted,
                    "loop",
                    DecisionSource::Policy,
                    "agreed",
                    None,
                )
            })
            .unwrap();
    }
}

fn status(store: &Store, id: &str) -> String {
    store.task(id).unwrap().status
}

fn bulk<'a>(ids: &'a [String], action: Action, actor: &'a str) -> BulkRequest<'a> {
    BulkRequest {
        task_ids: ids,
        action,
        actor,
        reason: "batch",
        policy: ConflictPolicy::LaterWins,
    }
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The whole bulk cycle on one store (run on SQLite and on PostgreSQL).
fn bulk_cycle(store: &mut Store) {
    accepted(store, &["a", "b", "c"], &["p"]);
    let set = ids(&["a", "b", "c", "p", "a", "nope"]);
    let req = bulk(&set, Action::Reject, "ana");
    let plan = preview(store, &req).unwrap();
    assert_eq!(plan.decided, ["a", "b", "c"], "duplicates once, in order");
    assert_eq!(plan.skipped.len(), 2, "{:?}", plan.skipped);
    assert!(
        plan.skipped[0].why.contains("pending"),
        "{:?}",
        plan.skipped
    );
    let out = apply_group(store, &req).unwrap();
    assert_eq!(out.decided, plan.decided);
    assert!(out.group_id.starts_with('g'), "{}", out.group_id);
    for id in ["a", "b", "c"] {
        assert_eq!(status(store, id), "dropped");
        let last = store.decisions(id).unwrap().pop().unwrap();
        assert_eq!(last.group_id.as_deref(), Some(out.group_id.as_str()));
        assert_eq!(
            (last.actor.as_str(), last.source.as_str()),
            ("ana", "human")
        );
        assert!(last.reason.starts_with("reject: batch"), "{}", last.reason);
    }
    assert_eq!(status(store, "p"), "pending", "skipped, untouched");
    assert_eq!(store.group_decisions(&out.group_id).unwrap().len(), 3);
    // `c` is decided again by hand after the group: the group undo leaves it.
    store
        .write(|tx| {
            tx.record_decision(
                "c",
                TupleStatus::Voted,
                "bo",
                DecisionSource::Human,
                "keep: fine",
                None,
            )
        })
        .unwrap();
    let undo = undo_group(store, &out.group_id, "ana", "wrong batch").unwrap();
    assert_eq!(undo.undone, ["b", "a"], "newest first");
    assert_eq!(undo.skipped.len(), 1);
    assert_eq!(undo.skipped[0].task_id, "c");
    assert_eq!(status(store, "a"), "loop_accepted");
    assert_eq!(status(store, "b"), "loop_accepted");
    assert_eq!(status(store, "c"), "voted");
    let undos: Vec<_> = store
        .group_decisions(&out.group_id)
        .unwrap()
        .into_iter()
        .filter(|d| d.compensates.is_some())
        .collect();
    assert_eq!(
        undos.len(),
        2,
        "one compensating record per tuple, same group"
    );
    // Undoing again changes nothing.
    let again = undo_group(store, &out.group_id, "ana", "").unwrap();
    assert!(again.undone.is_empty(), "{again:?}");
    assert!(matches!(
        undo_group(store, "g-none", "ana", ""),
        Err(CurateError::Invalid(_))
    ));
}

#[test]
fn bulk_decision_is_one_record_per_tuple_in_a_group_and_undoes_as_a_group() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    bulk_cycle(&mut store);
}

#[test]
fn bulk_decision_and_group_undo_on_postgresql() {
    use tuplewright::engine::store::testdb::TestDb;
    let Some(db) = TestDb::create("bulk_decision_and_group_undo") else {
        return;
    };
    let mut store = Store::open(&db.path(), std::time::Duration::from_secs(5)).unwrap();
    bulk_cycle(&mut store);
    notes_cycle(&mut store);
    two_curators(&mut store);
}

/// Notes and tags, then meta.json.
fn notes_cycle(store: &mut Store) {
    accepted(store, &["n1"], &[]);
    let cfg = CurateConfig {
        tags: ids(&["leak", "ambiguous", "hard-query"]),
        ..Default::default()
    };
    let note = |store: &mut Store, text: &str, add: &[String], remove: &[String]| {
        add_note(
            store,
            &cfg,
            &NoteRequest {
                task_id: "n1",
                author: "ana",
                text,
                add,
                remove,
            },
        )
    };
    note(
        store,
        "reward reads the wrong folder",
        &ids(&["leak", "ambiguous"]),
        &[],
    )
    .unwrap();
    note(store, "", &[], &ids(&["ambiguous"])).unwrap();
    assert!(matches!(
        note(store, "x", &ids(&["typo"]), &[]),
        Err(CurateError::UnknownTag { .. })
    ));
    assert!(
        note(store, " ", &[], &[]).is_err(),
        "a note that says nothing"
    );
    assert_eq!(store.tags("n1").unwrap(), ["leak"]);
    assert_eq!(store.notes("n1").unwrap().len(), 2);
    let t = store.task("n1").unwrap();
    let meta = meta_json(store, &t, &[], &[]).unwrap();
    assert_eq!(meta["tags"], serde_json::json!(["leak"]));
    assert_eq!(meta["notes"][0]["text"], "reward reads the wrong folder");
    assert_eq!(
        meta["notes"][0]["tags"],
        serde_json::json!(["ambiguous", "leak"])
    );
    assert_eq!(meta["notes"][1]["author"], "ana");
}

#[test]
fn notes_and_tags_round_trip_to_meta_json() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    notes_cycle(&mut store);
    // A tuple without notes has neither key (re-exports of older bundles stay byte-identical).
    accepted(&mut store, &["plain"], &[]);
    let t = store.task("plain").unwrap();
    let meta = meta_json(&store, &t, &[], &[]).unwrap();
    assert!(meta.get("notes").is_none() && meta.get("tags").is_none());
}

/// Two curators on six tuples: cu1 keeps 1–4 and rejects 5–6; cu2 keeps 1–3, rejects 4–6.
/// Agreed 5 of 6; p_e = (4/6)(3/6) + (2/6)(3/6) = 1/2; κ = (5/6 − 1/2) / (1/2) = 2/3.
fn two_curators(store: &mut Store) {
    let names = ["k1", "k2", "k3", "k4", "k5", "k6"];
    accepted(store, &names, &[]);
    let decide = |store: &mut Store, who: &str, keep: &[&str], reject: &[&str]| {
        let (k, r) = (ids(keep), ids(reject));
        apply_group(store, &bulk(&k, Action::Keep, who)).unwrap();
        apply_group(store, &bulk(&r, Action::Reject, who)).unwrap();
    };
    decide(store, "cu1", &names[..4], &names[4..]);
    decide(store, "cu2", &names[..3], &names[3..]);
    let a = agreement(store).unwrap();
    let pair = a
        .pairs
        .iter()
        .find(|p| (p.a.as_str(), p.b.as_str()) == ("cu1", "cu2"))
        .unwrap_or_else(|| panic!("{a:?}"));
    assert_eq!((pair.tuples, pair.agreed), (6, 5));
    let k = pair.kappa.unwrap();
    assert!((k - 2.0 / 3.0).abs() < 1e-9, "κ = {k}");
    assert!(a
        .disagreements
        .iter()
        .any(|d| d.task_id == "k4" && d.a.1 == "keep" && d.b.1 == "reject"));
    let json = serde_json::to_value(&a).unwrap();
    assert!(json["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["a"] == "cu1" && p["tuples"] == 6));
    assert!(json["disagreeing_tuples"].as_u64().unwrap() >= 1);
}

#[test]
fn kappa_on_a_small_two_curator_store() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    two_curators(&mut store);
    // stats --json carries it.
    let s = tuplewright::engine::stats::compute(
        &store,
        &Default::default(),
        tuplewright::engine::stats::Population::All,
    )
    .unwrap();
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(v["agreement"]["pairs"][0]["agreed"], 5);
    // The Stats text (workbench screen 8, `tuplewright stats`) lists the contested tuple with
    // both curators' decisions beside κ.
    let text = tuplewright::engine::stats::render(&s);
    let line = text.lines().find(|l| l.trim_start().starts_with("k4 "));
    let line = line.unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("cu1 keep · cu2 reject"), "{line}");
}

#[test]
fn third_decides_sends_a_contested_tuple_back_until_a_third_curator_decides() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    accepted(&mut store, &["x"], &[]);
    let one = ids(&["x"]);
    let with = |action, who| BulkRequest {
        policy: ConflictPolicy::ThirdDecides,
        ..bulk(&one, action, who)
    };
    apply_group(&mut store, &with(Action::Keep, "ana")).unwrap();
    assert_eq!(status(&store, "x"), "voted");
    let g = apply_group(&mut store, &with(Action::Reject, "bo")).unwrap();
    assert_eq!(status(&store, "x"), "needs_human", "contested");
    let last = store.decisions("x").unwrap().pop().unwrap();
    assert_eq!(last.actor, CONFLICT_ACTOR);
    assert!(
        last.reason.contains("ana keep vs bo reject"),
        "{}",
        last.reason
    );
    // bo's group undo takes the queueing back too.
    undo_group(&mut store, &g.group_id, "bo", "").unwrap();
    assert_eq!(status(&store, "x"), "voted");
    apply_group(&mut store, &with(Action::Reject, "bo")).unwrap();
    apply_group(&mut store, &with(Action::Reject, "cy")).unwrap();
    assert_eq!(status(&store, "x"), "dropped", "the third curator decided");
}

#[test]
fn version_12_store_upgrades_to_13_with_groups_and_notes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v12.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        let all = [
            include_str!("../../crates/base/src/store/migrations/v1.sql"),
            include_str!("../../crates/base/src/store/migrations/v2.sql"),
            include_str!("../../crates/base/src/store/migrations/v3.sql"),
            include_str!("../../crates/base/src/store/migrations/v4.sql"),
            include_str!("../../crates/base/src/store/migrations/v5.sql"),
            include_str!("../../crates/base/src/store/migrations/v6.sql"),
            include_str!("../../crates/base/src/store/migrations/v7.sql"),
            include_str!("../../crates/base/src/store/migrations/v8.sql"),
            include_str!("../../crates/base/src/store/migrations/v9.sql"),
            include_str!("../../crates/base/src/store/migrations/v10.sql"),
            include_str!("../../crates/base/src/store/migrations/v11.sql"),
            include_str!("../../crates/base/src/store/migrations/v12.sql"),
        ];
        for sql in all {
            conn.execute_batch(sql).unwrap();
        }
        conn.execute_batch(
            "PRAGMA user_version = 12;
             INSERT INTO tasks (task_id, instruction, created_at, updated_at) VALUES ('old', 'x', 'now', 'now');
             INSERT INTO tuples (task_id, status, updated_at) VALUES ('old', 'dropped', 'now');
             INSERT INTO decisions (task_id, actor, source, before, after, reason, created_at)
               VALUES ('old', 'ana', 'human', 'voted', 'dropped', 'reject: dup', 'now');",
        )
        .unwrap();
    }
    let mut store = open(&path);
    assert_eq!(store.upgraded_from(), 12);
    assert_eq!(
        store.schema_version().unwrap(),
        tuplewright::engine::store::SCHEMA_VERSION
    );
    let old = store.decisions("old").unwrap();
    assert_eq!(old.len(), 1);
    assert_eq!(old[0].group_id, None, "decisions before v13 have no group");
    assert!(store.notes("old").unwrap().is_empty());
    store
        .write(|tx| tx.add_note("old", "ana", "kept for the record", &ids(&["dup"])))
        .unwrap();
    assert_eq!(store.tags("old").unwrap(), ["dup"]);
    assert!(store.check_integrity().unwrap().is_empty());
}

/// A bulk decision of N tuples writes exactly N decision records under one group (and, per tuple,
/// one `decision` and one `filter.outcome` event); its undo writes exactly N compensating records
/// under the same group and puts every status back. Also a group whose tuples carry two of its
/// decisions each (a curator's and the conflict policy's) undoes exactly, newest first.
#[test]
fn bulk_decision_of_n_tuples_is_n_records_one_group_and_undo_restores_exactly() {
    const N: usize = 60;
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    let names: Vec<String> = (0..N).map(|i| format!("t{i:03}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    accepted(&mut store, &refs, &[]);
    let before: Vec<String> = names.iter().map(|id| status(&store, id)).collect();
    let events_before = store.last_event_seq().unwrap();
    let out = apply_group(&mut store, &bulk(&names, Action::Reject, "ana")).unwrap();
    assert_eq!(out.decided, names);
    let group = store.group_decisions(&out.group_id).unwrap();
    assert_eq!(group.len(), N, "one record per tuple");
    let events = store.events_after(events_before, 10 * N).unwrap();
    for kind in ["decision", "filter.outcome"] {
        assert_eq!(
            events.iter().filter(|e| e.kind == kind).count(),
            N,
            "{kind}"
        );
    }
    for (d, id) in group.iter().zip(&names) {
        assert_eq!((&d.task_id, d.before.as_str()), (id, "loop_accepted"));
    }
    let undo = undo_group(&mut store, &out.group_id, "ana", "").unwrap();
    assert_eq!(undo.undone.len(), N);
    let after: Vec<String> = names.iter().map(|id| status(&store, id)).collect();
    assert_eq!(after, before, "every status back");
    let all = store.group_decisions(&out.group_id).unwrap();
    assert_eq!(all.len(), 2 * N, "one compensating record per tuple");
    for d in all.iter().filter(|d| d.compensates.is_some()) {
        let target = group.iter().find(|g| Some(g.id) == d.compensates).unwrap();
        assert_eq!((&d.task_id, &d.after), (&target.task_id, &target.before));
    }
    // Two decisions of one group per tuple: bo's reject and the conflict policy's queueing.
    let with = |action, who| BulkRequest {
        policy: ConflictPolicy::ThirdDecides,
        ..bulk(&names, action, who)
    };
    apply_group(&mut store, &with(Action::Keep, "ana")).unwrap();
    let g = apply_group(&mut store, &with(Action::Reject, "bo")).unwrap();
    assert_eq!(store.group_decisions(&g.group_id).unwrap().len(), 2 * N);
    assert!(names.iter().all(|id| status(&store, id) == "needs_human"));
    let u = undo_group(&mut store, &g.group_id, "bo", "").unwrap();
    assert_eq!(u.undone.len(), N, "a tuple named once: {u:?}");
    assert!(u.skipped.is_empty(), "{u:?}");
    assert!(names.iter().all(|id| status(&store, id) == "voted"));
}

/// The SQLite connection keeps its query plans (QPSG): a cached per-tuple lookup is not
/// re-parsed on every binding (#33: a tenth of a 10,000-tuple bulk decision's time).
#[test]
fn the_store_connection_keeps_its_query_plans() {
    use rusqlite::config::DbConfig;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let store = open(&path);
    let conn = store.conn().sqlite().expect("a SQLite store");
    assert!(conn
        .db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG)
        .unwrap());
    drop(store);
    let ro = Store::open_readonly(&path, std::time::Duration::from_secs(5)).unwrap();
    let conn = ro.conn().sqlite().expect("a SQLite store");
    assert!(conn
        .db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG)
        .unwrap());
}

/// Issue 33 (set-based writes): a bulk decision is one act written set-based — every decision
/// record, its `decision` event and its `filter.outcome` event carry the one decision time, the
/// events are numbered consecutively in the order of the tuples (each tuple's decision event right
/// before its outcome, which names it), and so are the undo's records and events.
#[test]
fn a_bulk_decision_is_one_act_numbered_in_tuple_order() {
    const N: usize = 400;
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    let names: Vec<String> = (0..N).map(|i| format!("t{i:04}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    accepted(&mut store, &refs, &[]);
    let last = store.last_event_seq().unwrap();
    let out = apply_group(&mut store, &bulk(&names, Action::Keep, "ana")).unwrap();
    let events = store.events_after(last, 10 * N).unwrap();
    assert_eq!(events.len(), 2 * N);
    for (k, id) in names.iter().enumerate() {
        let (d, o) = (&events[2 * k], &events[2 * k + 1]);
        assert_eq!(
            (d.kind.as_str(), o.kind.as_str()),
            ("decision", "filter.outcome")
        );
        assert_eq!(
            (d.task_id.as_deref(), o.task_id.as_deref()),
            (Some(id.as_str()), Some(id.as_str()))
        );
        assert_eq!(
            (d.seq, o.seq),
            (last + 1 + 2 * k as i64, last + 2 + 2 * k as i64)
        );
        assert_eq!(o.payload["decision_id"], d.payload["id"]);
        assert_eq!(d.payload["group"], out.group_id.as_str());
    }
    let group = store.group_decisions(&out.group_id).unwrap();
    let time = group[0].created_at.clone();
    assert!(
        group.iter().all(|d| d.created_at == time),
        "one decision time"
    );
    assert!(
        events.iter().all(|e| e.time == time),
        "events at the decision time"
    );
    let last = store.last_event_seq().unwrap();
    let undo = undo_group(&mut store, &out.group_id, "ana", "").unwrap();
    assert_eq!(undo.undone.len(), N);
    let events = store.events_after(last, 10 * N).unwrap();
    assert_eq!(events.len(), N, "one decision event per undone tuple");
    let undos: Vec<_> = store
        .group_decisions(&out.group_id)
        .unwrap()
        .into_iter()
        .filter(|d| d.compensates.is_some())
        .collect();
    for (e, d) in events.iter().zip(&undos) {
        assert_eq!(e.payload["id"], d.id);
        assert_eq!(e.payload["compensates"], d.compensates.unwrap());
        assert_eq!(
            (e.time.as_str(), d.created_at.as_str()),
            (undos[0].created_at.as_str(), undos[0].created_at.as_str())
        );
    }
    assert!(names.iter().all(|id| status(&store, id) == "loop_accepted"));
}
