//! The faces over a PostgreSQL store (issue 20): `stats`, `export` and the workbench's data
//! loaders give the same output on PostgreSQL as on SQLite for the same run. One worker takes six
//! tasks through every stage (loop, the scripted critics' vote, an oracle rollout, the replay
//! check) on a SQLite store, which `store copy` (verified by counts and hashes) moves into a fresh
//! PostgreSQL database; then each face reads both stores. The real binary, the scripted agents,
//! the real sandbox and a real PostgreSQL (`.ci/setup`).

use std::collections::BTreeMap;
use std::path::Path;

use tuplewright::engine::store::testdb::TestDb;
use tuplewright::engine::store::Store;
use tuplewright::tui::{data, filter_data, live_data, reward_data, rollouts_data, state_data};

use crate::pg_support;
use crate::run_support::private_config;
use pg_support::{many_tasks, ok, spawn_worker_args, tw, wait_exit, BUSY};

/// Every file under `root` (relative path → bytes).
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn stdout(mut c: std::process::Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{c:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// What the workbench's loaders show of `store`, as text (one entry per loader and task).
fn workbench(store: &Store) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let rows = data::load_rows(store).unwrap();
    out.insert("rows".into(), format!("{rows:#?}"));
    out.insert(
        "rows_page".into(),
        format!("{:#?}", data::load_rows_page(store, 3).unwrap()),
    );
    out.insert(
        "stats".into(),
        format!("{:#?}", data::load_stats(store).unwrap()),
    );
    out.insert(
        "live".into(),
        format!("{:#?}", live_data::load_live(store, false).unwrap()),
    );
    let trials = rollouts_data::load_trials(store, None).unwrap();
    out.insert("trials".into(), format!("{trials:#?}"));
    for r in &rows {
        let t = &r.id;
        out.insert(
            format!("detail {t}"),
            format!("{:#?}", data::load_detail(store, t).unwrap()),
        );
        out.insert(
            format!("filter {t}"),
            format!("{:#?}", filter_data::load_filter(store, t).unwrap()),
        );
        out.insert(
            format!("rewards {t}"),
            format!("{:#?}", reward_data::load_rewards(store, t).unwrap()),
        );
        out.insert(
            format!("states {t}"),
            format!("{:#?}", state_data::load_states(store, t).unwrap()),
        );
    }
    let ids: Vec<i64> = store
        .conn()
        .query_map("SELECT id FROM rollouts ORDER BY id", [], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for id in ids {
        out.insert(
            format!("trial {id}"),
            format!("{:#?}", rollouts_data::load_trial(store, id).unwrap()),
        );
    }
    out
}

#[test]
fn stats_export_and_the_workbench_loaders_read_postgresql_as_they_read_sqlite() {
    let Some(db) = TestDb::create("faces_read_postgresql_as_sqlite") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let extra = "[rollout]\ntrials = 1\n";
    let (cfg, _) = private_config(dir.path(), extra);
    let sqlite = dir.path().join("tw.db");
    let mut import = tw(&cfg, &sqlite);
    import.arg("import").arg(many_tasks(dir.path(), 6));
    ok(import);
    let args = ["--stages", "loop,filter,rollout,verify", "--slots", "2"];
    let mut w = spawn_worker_args(&cfg, &sqlite, &dir.path().join("w.log"), &args);
    let st = wait_exit(&mut w, "the staged worker", 900);
    let log = std::fs::read_to_string(dir.path().join("w.log")).unwrap_or_default();
    assert!(st.success(), "{st}: {log}");
    let mut copy = tw(&cfg, &sqlite);
    copy.args(["store", "copy"]).arg(&sqlite).arg(db.path());
    ok(copy);

    let url = db.path();
    let (a, b) = (
        Store::open(&sqlite, BUSY).unwrap(),
        Store::open(&url, BUSY).unwrap(),
    );
    let rollouts: i64 = a
        .conn()
        .query_row("SELECT COUNT(*) FROM rollouts", [], |r| r.get(0))
        .unwrap();
    assert!(rollouts >= 1, "the run made no rollout to show");

    // stats, as JSON and as text.
    for extra in [&["--json"][..], &[][..]] {
        let run = |store: &Path| {
            let mut c = tw(&cfg, store);
            c.arg("stats").args(extra);
            stdout(c)
        };
        let (on_sqlite, on_pg) = (run(&sqlite), run(&url));
        assert!(on_sqlite.contains("cost"), "{on_sqlite}");
        assert_eq!(on_sqlite, on_pg, "stats {extra:?} differ");
    }

    // export: the same bundles, byte for byte.
    let (out_a, out_b) = (
        dir.path().join("export-sqlite"),
        dir.path().join("export-pg"),
    );
    for (store, out) in [(&sqlite, &out_a), (&url, &out_b)] {
        let mut c = tw(&cfg, store);
        c.arg("export").arg("--out").arg(out).args([
            "--status",
            "voted",
            "--status",
            "final",
            "--include-unverified",
        ]);
        ok(c);
    }
    let (ta, tb) = (tree(&out_a), tree(&out_b));
    assert!(
        ta.keys().any(|k| k.ends_with(".json")),
        "nothing exported: {:?}",
        ta.keys().collect::<Vec<_>>()
    );
    assert_eq!(
        ta.keys().collect::<Vec<_>>(),
        tb.keys().collect::<Vec<_>>(),
        "exported files differ"
    );
    for (k, v) in &ta {
        assert!(tb[k] == *v, "{k} differs between the exports");
    }

    // The workbench's loaders.
    let (wa, wb) = (workbench(&a), workbench(&b));
    assert!(wa.len() > 6 * 4, "{} views", wa.len());
    for (k, v) in &wa {
        assert_eq!(
            Some(v),
            wb.get(k),
            "the workbench's {k} differs on PostgreSQL"
        );
    }
    assert_eq!(wa.len(), wb.len());
}
