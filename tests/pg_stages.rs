//! Worker stages on a real PostgreSQL store (issue 20): two worker processes with `--stages
//! loop,filter,rollout,verify` take each task through the loop, the scripted critics' vote, the
//! oracle probe's rollouts and the replay check, each stage exactly once under one lease; a worker
//! started afterwards finds every stage already done for each tuple's current round and records
//! nothing. The real binary, the scripted agents and critics, the real sandbox.

use std::path::Path;

use tuplewright::engine::store::testdb::TestDb;
use tuplewright::engine::store::Store;

use crate::pg_support;
use crate::run_support::private_config;
use pg_support::{count, many_tasks, ok, spawn_worker_args, tw, wait_exit, BUSY};

const STAGES: [&str; 4] = ["--stages", "loop,filter,rollout,verify", "--slots", "1"];

fn worker(cfg: &Path, url: &Path, dir: &Path, name: &str) -> std::process::Child {
    spawn_worker_args(cfg, url, &dir.join(format!("{name}.log")), &STAGES)
}

/// Per table, the rows a stage writes: (rounds, votes, rollouts, decisions).
fn rows(store: &Store) -> [i64; 4] {
    ["rounds", "votes", "rollouts", "decisions"]
        .map(|t| count(store, &format!("SELECT COUNT(*) FROM {t}")))
}

#[test]
fn workers_run_every_stage_once_under_one_lease_and_a_later_worker_finds_them_done() {
    let Some(db) = TestDb::create("workers_run_every_stage_once") else {
        return;
    };
    let n = 6;
    let dir = tempfile::tempdir().unwrap();
    let extra = "[store]\nlease_ttl_ms = 5000\nlease_heartbeat_ms = 500\n[rollout]\ntrials = 1\n";
    let (cfg, _) = private_config(dir.path(), extra);
    let url = db.path();
    let mut import = tw(&cfg, &url);
    import.arg("import").arg(many_tasks(dir.path(), n));
    ok(import);
    let mut ws = [
        worker(&cfg, &url, dir.path(), "a"),
        worker(&cfg, &url, dir.path(), "b"),
    ];
    for (w, name) in ws.iter_mut().zip(["a", "b"]) {
        let st = wait_exit(w, "a staged worker", 900);
        let log = std::fs::read_to_string(dir.path().join(format!("{name}.log"))).unwrap();
        assert!(st.success(), "{st}: {log}");
    }
    let store = Store::open(&url, BUSY).unwrap();
    let per_task = |sql: &str| -> Vec<(String, i64)> {
        store
            .conn()
            .query_map(sql, [], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    // Every task left the loop and was voted on exactly once (one scripted voter).
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM tuples WHERE status IN ('pending', 'in_loop', 'loop_accepted')"
        ),
        0,
        "statuses: {:?}",
        store.status_counts().unwrap()
    );
    let votes = per_task("SELECT task_id, COUNT(*) FROM votes GROUP BY task_id ORDER BY task_id");
    assert_eq!(votes.len(), n, "every tuple voted on: {votes:?}");
    assert!(
        votes.iter().all(|(_, k)| *k == 1),
        "a vote ran twice: {votes:?}"
    );
    // Each voted tuple: one oracle trial (trials = 1), then one verify replay as its last round.
    let voted: Vec<String> = store
        .conn()
        .query_map(
            "SELECT task_id FROM tuples WHERE status IN ('voted', 'final') ORDER BY task_id",
            [],
            |r| r.get(0),
        )
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!voted.is_empty(), "the scripted critics kept no tuple");
    let trials =
        per_task("SELECT task_id, COUNT(*) FROM rollouts GROUP BY task_id ORDER BY task_id");
    assert_eq!(
        trials.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(),
        voted,
        "rollouts ran on exactly the voted tuples"
    );
    assert!(
        trials.iter().all(|(_, k)| *k == 1),
        "a rollout ran twice: {trials:?}"
    );
    let verifies =
        per_task("SELECT task_id, COUNT(*) FROM rounds WHERE source = 'verify' GROUP BY task_id ORDER BY task_id");
    assert_eq!(
        verifies.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(),
        voted,
        "verify replayed exactly the voted tuples"
    );
    assert!(
        verifies.iter().all(|(_, k)| *k == 1),
        "a verify ran twice: {verifies:?}"
    );
    assert_eq!(count(&store, "SELECT COUNT(*) FROM task_leases"), 0);

    // A later worker finds every stage done: it writes nothing and exits at once.
    let before = rows(&store);
    let mut late = worker(&cfg, &url, dir.path(), "late");
    assert!(wait_exit(&mut late, "a worker with nothing to do", 300).success());
    assert_eq!(
        rows(&store),
        before,
        "a stage ran again on a tuple already done"
    );
}
