//! The store's controls with real worker processes on a real PostgreSQL (issue 20): `job pause`
//! drains every worker (the tasks in flight finish, nothing new is claimed), `job cancel`
//! abandons the tasks in flight like Ctrl-C (left pending, no partial round, leases released) and
//! stops every worker with status 3, and a spent global token budget stops every worker from
//! claiming (status 4). The real binary, the scripted agents and the real sandbox; skipped with a
//! loud message only when no PostgreSQL is reachable and `CI` is unset.

use std::path::Path;
use std::time::{Duration, Instant};

use tuplewright::engine::store::testdb::TestDb;
use tuplewright::engine::store::Store;

use crate::pg_support;
use pg_support::{
    assert_drained_exactly_once, config, count, many_tasks, ok, spawn_worker_args, tw, wait_exit,
    wait_for, BUSY,
};

const CANCELLED: i32 = 3;
const BUDGET: i32 = 4;

fn job(cfg: &Path, url: &Path, args: &[&str]) -> String {
    let mut c = tw(cfg, url);
    c.arg("job").args(args);
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "job {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn events(store: &Store, kind: &str) -> i64 {
    count(
        store,
        &format!("SELECT COUNT(*) FROM events WHERE kind = '{kind}'"),
    )
}

fn accepted(store: &Store) -> i64 {
    count(
        store,
        "SELECT COUNT(*) FROM tuples WHERE status = 'loop_accepted'",
    )
}

fn worker(cfg: &Path, url: &Path, dir: &Path, name: &str) -> std::process::Child {
    let log = dir.join(format!("{name}.log"));
    spawn_worker_args(
        cfg,
        url,
        &log,
        &["--slots", "1", "--control-poll-ms", "100"],
    )
}

fn log(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap_or_default()
}

#[test]
fn pause_drains_and_cancel_abandons_the_tasks_of_every_worker_process() {
    let Some(db) = TestDb::create("pause_drains_and_cancel_abandons") else {
        return;
    };
    let n = 16;
    let dir = tempfile::tempdir().unwrap();
    let (cfg, url) = (config(dir.path()), db.path());
    let mut import = tw(&cfg, &url);
    import.arg("import").arg(many_tasks(dir.path(), n));
    ok(import);
    let store = Store::open(&url, BUSY).unwrap();
    let mut ws = vec![
        worker(&cfg, &url, dir.path(), "a"),
        worker(&cfg, &url, dir.path(), "b"),
    ];
    let leases = |s: &Store| count(s, "SELECT COUNT(*) FROM task_leases");
    wait_for("some progress with tasks in flight", 600, || {
        accepted(&store) >= 2 && leases(&store) >= 1
    });

    // Pause: both workers notice, the tasks in flight finish (nothing abandoned), none is claimed.
    assert!(job(&cfg, &url, &["pause"]).contains("paused for every worker"));
    wait_for("both workers to drain after the pause", 300, || {
        events(&store, "worker.paused") == 2 && leases(&store) == 0
    });
    assert_eq!(
        events(&store, "task.interrupted"),
        0,
        "a pause abandoned a task"
    );
    let held = accepted(&store);
    assert!(held < n as i64, "the queue was drained before the pause");
    let until = Instant::now() + Duration::from_secs(3);
    while Instant::now() < until {
        assert_eq!(leases(&store), 0, "a paused worker claimed a task");
        assert_eq!(
            accepted(&store),
            held,
            "a paused worker finished a new task"
        );
        for w in &mut ws {
            assert!(w.try_wait().unwrap().is_none(), "a paused worker exited");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = job(&cfg, &url, &["status"]);
    assert!(status.contains("\"paused\""), "{status}");

    // Resume, then cancel while tasks are in flight: abandoned, back to pending, workers exit 3.
    assert!(job(&cfg, &url, &["resume"]).contains("resumed"));
    wait_for("both workers to claim again", 300, || {
        events(&store, "worker.resumed") == 2 && leases(&store) == 2
    });
    assert!(job(&cfg, &url, &["cancel"]).contains("cancelled for every worker"));
    for (w, name) in ws.iter_mut().zip(["a", "b"]) {
        let st = wait_exit(w, "a cancelled worker", 120);
        assert_eq!(st.code(), Some(CANCELLED), "{}", log(dir.path(), name));
        assert!(log(dir.path(), name).contains("job is cancelled"));
    }
    assert_eq!(leases(&store), 0, "a cancelled worker left its lease");
    let interrupted = events(&store, "task.interrupted");
    assert!(interrupted >= 1, "the cancel abandoned no task in flight");
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM tuples WHERE status = 'in_loop'"
        ),
        0,
        "an abandoned task was not put back to pending"
    );
    assert_eq!(events(&store, "worker.stopped"), 2);
    // No partial round: every stored round is complete (numbered densely, with its event).
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM rounds"),
        events(&store, "round.recorded")
    );

    // A worker started while the job is cancelled exits at once, claiming nothing.
    let before = count(&store, "SELECT COUNT(*) FROM rounds");
    let mut late = worker(&cfg, &url, dir.path(), "late");
    let st = wait_exit(&mut late, "a worker started after the cancel", 120);
    assert_eq!(st.code(), Some(CANCELLED), "{}", log(dir.path(), "late"));
    assert_eq!(count(&store, "SELECT COUNT(*) FROM rounds"), before);

    // Resume: new workers continue the abandoned tasks; every task accepted exactly once.
    job(&cfg, &url, &["resume"]);
    let mut ws = [
        worker(&cfg, &url, dir.path(), "c"),
        worker(&cfg, &url, dir.path(), "d"),
    ];
    for (w, name) in ws.iter_mut().zip(["c", "d"]) {
        let st = wait_exit(w, "a worker after resume", 900);
        assert!(st.success(), "{}", log(dir.path(), name));
    }
    assert_drained_exactly_once(&store, n);
}

fn spend(store: &mut Store, tokens: i64) {
    store
        .write(|tx| {
            tx.conn().execute(
                "INSERT INTO usage (task_id, round_id, stage, model, input_tokens, \
                 output_tokens, created_at) VALUES (NULL, NULL, 'loop', 'stand-in', ?1, 0, \
                 '2026-01-01T00:00:00.000Z')",
                tuplewright::engine::store::db::params![tokens],
            )
        })
        .unwrap();
}

#[test]
fn a_spent_token_budget_stops_every_worker_from_claiming() {
    let Some(db) = TestDb::create("a_spent_token_budget_stops_claims") else {
        return;
    };
    let n = 10;
    let dir = tempfile::tempdir().unwrap();
    let (cfg, url) = (config(dir.path()), db.path());
    let mut import = tw(&cfg, &url);
    import.arg("import").arg(many_tasks(dir.path(), n));
    ok(import);
    let mut store = Store::open(&url, BUSY).unwrap();
    // Tokens another worker's LLM calls recorded (the scripted agents spend none).
    assert!(job(&cfg, &url, &["budget", "--tokens", "1000"]).contains("set to 1000"));
    spend(&mut store, 1000);

    // Spent before it starts: the worker claims nothing and says why.
    let mut w = worker(&cfg, &url, dir.path(), "spent");
    let st = wait_exit(&mut w, "a worker over budget", 120);
    assert_eq!(st.code(), Some(BUDGET), "{}", log(dir.path(), "spent"));
    assert!(log(dir.path(), "spent").contains("1000 of 1000 tokens"));
    assert_eq!(count(&store, "SELECT COUNT(*) FROM rounds"), 0);

    // Raised: two workers run until the budget is spent mid-run, then finish what they hold.
    job(&cfg, &url, &["budget", "--tokens", "2000"]);
    let mut ws = [
        worker(&cfg, &url, dir.path(), "a"),
        worker(&cfg, &url, dir.path(), "b"),
    ];
    wait_for("some tuples accepted within the budget", 600, || {
        accepted(&store) >= 2
    });
    spend(&mut store, 1000);
    for (w, name) in ws.iter_mut().zip(["a", "b"]) {
        let st = wait_exit(w, "a worker whose budget ran out", 300);
        assert_eq!(st.code(), Some(BUDGET), "{}", log(dir.path(), name));
    }
    assert_eq!(
        events(&store, "task.interrupted"),
        0,
        "the budget abandoned a task in flight"
    );
    assert_eq!(count(&store, "SELECT COUNT(*) FROM task_leases"), 0);
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM tuples WHERE status = 'in_loop'"
        ),
        0
    );
    let done = accepted(&store);
    assert!(
        done < n as i64,
        "the workers drained the whole queue past the budget"
    );

    // Cleared: the rest is drained.
    job(&cfg, &url, &["budget", "--clear"]);
    let mut w = worker(&cfg, &url, dir.path(), "after");
    assert!(wait_exit(&mut w, "a worker without budget", 900).success());
    assert_drained_exactly_once(&store, n);
}
