//! The task store as a library: migrations, atomic rounds, decisions and undo, votes, events.

use std::path::Path;
use std::time::Duration;

use serde_json::json;
use tuplewright::engine::store::{
    DecisionSource, Labels, RewardRun, RoundRecord, ScriptRun, Scripts, Store, StoreError,
    TaskRecord, TupleStatus, Usage, Vote, SCHEMA_VERSION,
};

fn open(path: &Path) -> Store {
    Store::open(path, Duration::from_secs(5)).unwrap()
}

fn task(id: &str) -> TaskRecord {
    TaskRecord {
        task_id: id.into(),
        instruction: "Open a.xlsx and bold row 1.".into(),
        context: "a.xlsx exists".into(),
        labels: Labels {
            domain: Some("Spreadsheet".into()),
            apps: vec!["libreoffice_calc".into()],
            difficulty: Some("easy".into()),
            ..Labels::default()
        },
        app_type: None,
        original_json: json!({"task_id": id, "extra": [1, 2]}),
        origin: "test".into(),
    }
}

fn round(id: &str, setup: &str) -> RoundRecord {
    RoundRecord {
        task_id: id.into(),
        round_no: None,
        verdict: "fail".into(),
        source: "loop".into(),
        scripts: Scripts {
            setup: Some(setup.into()),
            golden: Some("golden".into()),
            reward: Some("print('REWARD: 1.0')".into()),
        },
        review_md: "# Round 1 Review\n## Verdict: FAIL\n".into(),
        scan_findings: json!([{"rule": "dynamic_import", "span": [3, 10]}]),
        generator_model: Some("gen-model".into()),
        discriminator_model: Some("disc-model".into()),
        started_at: "2026-01-01T00:00:00.000Z".into(),
        finished_at: "2026-01-01T00:01:00.000Z".into(),
        script_runs: vec![ScriptRun {
            script: "setup".into(),
            exit_code: None,
            stdout: String::new(),
            stderr: "killed".into(),
            duration_ms: 120_000,
            failure: Some("timeout".into()),
        }],
        reward_runs: vec![RewardRun {
            endpoint: "golden".into(),
            reward: Some(0.7),
            components: json!([{"name": "c1", "points": 0.7, "status": "PASS"}]),
            exit_code: Some(0),
            stdout: "REWARD: 0.7\n".into(),
            stderr: String::new(),
            duration_ms: 50,
            failure: None,
        }],
        usage: vec![Usage {
            stage: "generator".into(),
            model: "gen-model".into(),
            input_tokens: 100,
            output_tokens: 50,
            cost_usd: Some(0.0011),
        }],
    }
}

#[test]
fn store_is_wal_with_foreign_keys_and_current_schema() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("s.db"));
    let mode: String = store
        .conn()
        .sqlite()
        .unwrap()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let fk: i64 = store
        .conn()
        .sqlite()
        .unwrap()
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fk, 1);
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(store.upgraded_from(), 0);
}

#[test]
fn version_1_store_is_upgraded_in_place_keeping_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(include_str!("fixtures/store_v1.sql"))
            .unwrap();
    }
    let mut store = open(&path);
    assert_eq!(store.upgraded_from(), 1);
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let old = store.task("libreoffice_calc_old_001").unwrap();
    assert_eq!(old.status, "final");
    assert_eq!(old.task.labels.source_pass, None);
    // v3 moved the verbatim input JSON into task_sources.
    assert_eq!(
        old.task.original_json["task_id"],
        "libreoffice_calc_old_001"
    );
    let rounds = store.rounds("libreoffice_calc_old_001").unwrap();
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0].round.source, "loop");
    assert_eq!(
        rounds[0].round.scripts.setup.as_deref(),
        Some("print(\"hi\")")
    );
    // The new tables work on the upgraded store.
    store
        .write(|tx| {
            tx.append_event("test", Some("libreoffice_calc_old_001"), &json!({}))?;
            tx.record_rollout(&tuplewright::engine::store::Rollout {
                task_id: "libreoffice_calc_old_001".into(),
                model: "teacher".into(),
                trial: 1,
                reward: Some(1.0),
                judge_verdict: Some("success".into()),
                failure: None,
                detail: json!({}),
                created_at: None,
            })
        })
        .unwrap();
    assert!(store.check_integrity().unwrap().is_empty());
    drop(store);
    // Re-opening does not migrate again.
    assert_eq!(open(&path).upgraded_from(), SCHEMA_VERSION);
}

#[test]
fn store_from_a_newer_binary_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    drop(open(&path));
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let err = Store::open(&path, Duration::from_secs(1)).err().unwrap();
    assert!(matches!(err, StoreError::TooNew { found: 99, .. }));
    assert!(
        err.to_string()
            .contains("newer than this tuplewright supports"),
        "{err}"
    );
}

#[test]
fn whole_round_is_recorded_atomically_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
    let id = store
        .write(|tx| {
            let id = tx.record_round(&round("t_001", "setup v1"))?;
            tx.append_event("round.recorded", Some("t_001"), &json!({"round": id}))?;
            Ok::<_, StoreError>(id)
        })
        .unwrap();
    let stored = store.rounds("t_001").unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].id, id);
    assert_eq!(stored[0].round.round_no, Some(1));
    assert_eq!(
        stored[0].round.script_runs[0].failure.as_deref(),
        Some("timeout")
    );
    assert_eq!(stored[0].round.reward_runs[0].reward, Some(0.7));
    assert_eq!(stored[0].round.usage[0].input_tokens, 100);
    assert_eq!(
        stored[0].script_shas[0].as_deref(),
        Some(tuplewright::engine::store::sha256_hex("setup v1").as_str())
    );
    // A failure after the round was written rolls the round, its blobs, runs and event back.
    let events_before = store.last_event_seq().unwrap();
    let res: Result<(), StoreError> = store.write(|tx| {
        tx.record_round(&round("t_001", "setup v2"))?;
        tx.append_event("round.recorded", Some("t_001"), &json!({}))?;
        Err(StoreError::Invalid("agent crashed".into()))
    });
    assert!(res.is_err());
    assert_eq!(store.rounds("t_001").unwrap().len(), 1);
    assert_eq!(store.last_event_seq().unwrap(), events_before);
    assert_eq!(
        store
            .blob(&tuplewright::engine::store::sha256_hex("setup v2"))
            .unwrap(),
        None
    );
    // Unknown task: refused.
    let err = store
        .write(|tx| tx.record_round(&round("nope", "x")))
        .unwrap_err();
    assert!(matches!(err, StoreError::UnknownTask(_)));
    // Round numbers continue.
    store
        .write(|tx| tx.record_round(&round("t_001", "setup v3")))
        .unwrap();
    assert_eq!(store.rounds("t_001").unwrap()[1].round.round_no, Some(2));
}

#[test]
fn decisions_are_append_only_and_undo_compensates() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
    store
        .write(|tx| {
            tx.record_decision(
                "t_001",
                TupleStatus::LoopAccepted,
                "loop",
                DecisionSource::Policy,
                "agreed",
                None,
            )?;
            tx.record_decision(
                "t_001",
                TupleStatus::Dropped,
                "ana",
                DecisionSource::Human,
                "dup",
                None,
            )
        })
        .unwrap();
    assert_eq!(store.task("t_001").unwrap().status, "dropped");
    let undo = store
        .write(|tx| tx.undo_last_decision("t_001", "ana", DecisionSource::Human, "oops"))
        .unwrap()
        .unwrap();
    assert_eq!(
        (undo.before.as_str(), undo.after.as_str()),
        ("dropped", "loop_accepted")
    );
    let log = store.decisions("t_001").unwrap();
    assert_eq!(log.len(), 3);
    assert_eq!(log[2].compensates, Some(log[1].id));
    assert_eq!(store.task("t_001").unwrap().status, "loop_accepted");
    assert_eq!(store.effective_status("t_001").unwrap(), "loop_accepted");
    // The next undo targets the first decision (the second is already undone).
    store
        .write(|tx| tx.undo_last_decision("t_001", "ana", DecisionSource::Human, "again"))
        .unwrap();
    assert_eq!(store.task("t_001").unwrap().status, "pending");
    let none = store
        .write(|tx| tx.undo_last_decision("t_001", "ana", DecisionSource::Human, "more"))
        .unwrap();
    assert!(none.is_none());
    // The source column is constrained.
    let bad = store.conn().sqlite().unwrap().execute(
        "INSERT INTO decisions (task_id, actor, source, before, after, created_at) VALUES ('t_001','x','robot','a','b','t')",
        [],
    );
    assert!(bad.is_err());
}

#[test]
fn votes_keep_the_critic_json_and_require_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
    let vote = json!({"verdict": "modify_query", "severity": "P1", "confidence": 0.8,
        "training_pool_fit": "good", "query_issues": [{"type": "ambiguity", "severity": "medium", "evidence": "x"}]});
    store
        .write(|tx| {
            tx.record_vote(&Vote {
                task_id: "t_001".into(),
                critic: "c1".into(),
                model: Some("m".into()),
                vote: vote.clone(),
                created_at: None,
            })
        })
        .unwrap();
    assert_eq!(store.votes("t_001").unwrap()[0].vote, vote);
    let err = store
        .write(|tx| {
            tx.record_vote(&Vote {
                task_id: "t_001".into(),
                critic: "c2".into(),
                model: None,
                vote: json!({}),
                created_at: None,
            })
        })
        .unwrap_err();
    assert!(err.to_string().contains("no verdict"), "{err}");
}

#[test]
fn upsert_is_idempotent_and_events_are_read_after_a_seq() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    use tuplewright::engine::store::Upsert;
    assert_eq!(
        store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap(),
        Upsert::Inserted
    );
    let mut moved = task("t_001");
    moved.origin = "elsewhere".into();
    assert_eq!(
        store.write(|tx| tx.upsert_task(&moved)).unwrap(),
        Upsert::Unchanged
    );
    moved.instruction = "Open b.xlsx".into();
    assert_eq!(
        store.write(|tx| tx.upsert_task(&moved)).unwrap(),
        Upsert::Updated
    );
    assert_eq!(
        store.task("t_001").unwrap().task.original_json,
        json!({"task_id": "t_001", "extra": [1, 2]})
    );
    let seqs: Vec<i64> = store
        .write(|tx| {
            (0..5)
                .map(|i| tx.append_event("k", None, &json!({"i": i})))
                .collect::<Result<_, _>>()
        })
        .unwrap();
    assert!(seqs.windows(2).all(|w| w[1] > w[0]));
    let after = store.events_after(seqs[1], 100).unwrap();
    assert_eq!(after.len(), 3);
    assert_eq!(after[0].seq, seqs[2]);
    assert_eq!(after[0].payload, json!({"i": 2}));
    assert_eq!(store.events_after(seqs[1], 2).unwrap().len(), 2);
}

#[test]
fn stats_on_the_example_tasks_match_hand_counts() {
    use tuplewright::engine::bundle::import::import_path;
    use tuplewright::engine::config::StatsConfig;
    use tuplewright::engine::stats::{compute, Population};
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples/tasks.json");
    let summary = import_path(&mut store, &examples).unwrap();
    assert_eq!((summary.inserted, summary.problems.len()), (4, 0));
    // No final tuple yet: `auto` describes every task.
    let s = compute(&store, &StatsConfig::default(), Population::Auto).unwrap();
    assert_eq!((s.population, s.population_size), (Population::All, 4));
    let verbs: Vec<(&str, usize)> = s
        .top_verbs
        .iter()
        .map(|v| (v.name.as_str(), v.count))
        .collect();
    // "Open ...", "Please configure ...", "I want to extract ...", "Set the topic ...".
    assert_eq!(
        verbs,
        [("configure", 1), ("extract", 1), ("open", 1), ("set", 1)]
    );
    assert_eq!(s.cross_app_tasks.count, 1);
    assert_eq!(s.app_pairs.len(), 1);
    assert_eq!(
        (s.app_pairs[0].name.as_str(), s.app_pairs[0].count),
        ("calc + pdf", 1)
    );
    assert_eq!(s.difficulty_totals.hard, 1);
    let hard = s
        .coverage_targets
        .iter()
        .find(|t| t.name == "hard tasks")
        .unwrap();
    assert_eq!((hard.value_percent, hard.met), (25.0, false));
    let cross = s
        .coverage_targets
        .iter()
        .find(|t| t.name == "cross-app tasks")
        .unwrap();
    assert!(!cross.met);
    let scen = &s.coverage_targets[0];
    assert_eq!(
        (scen.name.as_str(), scen.value_percent, scen.met),
        ("largest domain category (Spreadsheet & Data)", 50.0, false)
    );
    assert_eq!(
        s.instruction_lengths.buckets[0].count + s.instruction_lengths.buckets[1].count,
        4
    );
    assert_eq!(s.yield_per_stage.not_yet_looped, 4);
    assert_eq!(s.costs.cost_usd, 0.0);
    // Final-only population is empty here, not an error.
    let f = compute(&store, &StatsConfig::default(), Population::Final).unwrap();
    assert_eq!(f.population_size, 0);
}

#[test]
fn bundle_write_swaps_whole_directories_and_leaves_no_temporaries() {
    use tuplewright::engine::bundle::export::write_bundle;
    let dir = tempfile::tempdir().unwrap();
    let v1 = vec![
        ("config.json", b"{}\n".to_vec()),
        ("reward.py", b"a".to_vec()),
    ];
    assert!(write_bundle(dir.path(), "t_001", &v1).unwrap());
    assert!(
        !write_bundle(dir.path(), "t_001", &v1).unwrap(),
        "identical bytes: untouched"
    );
    // An extra file from an older layout disappears with the swap.
    std::fs::write(dir.path().join("t_001/stale.txt"), "x").unwrap();
    let v2 = vec![
        ("config.json", b"{\"a\": 1}\n".to_vec()),
        ("reward.py", b"b".to_vec()),
    ];
    assert!(write_bundle(dir.path(), "t_001", &v2).unwrap());
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("t_001"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(names, ["config.json", "reward.py"]);
    assert_eq!(
        std::fs::read(dir.path().join("t_001/reward.py")).unwrap(),
        b"b"
    );
    let top: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(top, ["t_001"]);
}

#[test]
fn reimporting_a_bundle_keeps_later_decisions() {
    use tuplewright::engine::bundle::import::import_path;
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    let bundles = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples/bundles");
    let first = import_path(&mut store, &bundles).unwrap();
    assert_eq!((first.inserted, first.rounds_recorded), (3, 3));
    let id = "os_archive_logs_001";
    assert_eq!(store.task(id).unwrap().status, "imported");
    store
        .write(|tx| {
            tx.record_decision(
                id,
                TupleStatus::Dropped,
                "ana",
                DecisionSource::Human,
                "dup",
                None,
            )
        })
        .unwrap();
    let again = import_path(&mut store, &bundles).unwrap();
    assert_eq!((again.unchanged, again.rounds_recorded), (3, 0));
    assert_eq!(store.task(id).unwrap().status, "dropped");
    assert_eq!(store.decisions(id).unwrap().len(), 2);
    assert_eq!(
        store.rounds("libreoffice_calc_padded_ids_001").unwrap()[0]
            .round
            .round_no,
        Some(2)
    );
}

mod curate;
mod curate_cli;
mod states;
mod steps;

#[test]
fn stats_do_not_count_an_undone_human_decision_as_decided_by_a_person() {
    use tuplewright::engine::config::StatsConfig;
    use tuplewright::engine::stats::{compute, Population};
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    let decide = |store: &mut Store, id: &str, to: TupleStatus, source: DecisionSource| {
        store
            .write(|tx| tx.record_decision(id, to, "who", source, "r", None))
            .unwrap();
    };
    for id in ["kept", "undone", "redone"] {
        store.write(|tx| tx.upsert_task(&task(id))).unwrap();
        decide(&mut store, id, TupleStatus::Voted, DecisionSource::Policy);
        decide(&mut store, id, TupleStatus::Final, DecisionSource::Human);
    }
    let undo = |store: &mut Store, id: &str| {
        store
            .write(|tx| tx.undo_last_decision(id, "ana", DecisionSource::Human, "oops"))
            .unwrap()
            .unwrap();
    };
    // `undone`: the person's keep is undone, the policy's decision is in effect again.
    undo(&mut store, "undone");
    // `redone`: a second human decision undone; the first human one is in effect again.
    decide(
        &mut store,
        "redone",
        TupleStatus::Dropped,
        DecisionSource::Human,
    );
    undo(&mut store, "redone");
    assert_eq!(store.effective_status("undone").unwrap(), "voted");
    assert_eq!(store.effective_status("redone").unwrap(), "final");
    let s = compute(&store, &StatsConfig::default(), Population::All).unwrap();
    let y = &s.yield_per_stage;
    assert_eq!(
        y.human_decided_tuples, 2,
        "kept and redone, not undone: {y:?}"
    );
    assert_eq!((y.human_decisions, y.human_undos), (6, 2));
}
