//! The foundation through the real binary: import, export, stats, config, and several processes
//! sharing one store (a writer killed mid-transaction; a reader following a writer's events).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;
use tuplewright::engine::store::Store;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples");
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn tw(store: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tuplewright").unwrap();
    cmd.arg("--store").arg(store).arg("--no-tui");
    // Config: the default name in the store's directory (absent unless a test writes it).
    cmd.current_dir(store.parent().unwrap());
    cmd.env_remove("TUPLEWRIGHT_STORE")
        .env_remove("TUPLEWRIGHT_CONFIG");
    cmd
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("tuplewright")
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

fn count(store: &Store, sql: &str) -> i64 {
    store.conn().query_row(sql, [], |r| r.get(0)).unwrap()
}

#[test]
fn import_examples_then_export_twice_gives_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let out = tw(&db)
        .arg("import")
        .arg(format!("{EXAMPLES}/tasks.json"))
        .arg(format!("{EXAMPLES}/bundles"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("7 new"), "{out}");
    // Idempotent re-import.
    let again = tw(&db)
        .arg("import")
        .arg(EXAMPLES)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(again)
        .unwrap()
        .contains("0 new, 0 updated, 7 unchanged, 0 round(s)"));

    let list = tw(&db)
        .args(["tasks", "list", "--status", "imported"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let list = String::from_utf8(list).unwrap();
    assert!(
        list.contains("slack_release_digest_001") && list.contains("3 task(s)"),
        "{list}"
    );

    let a = dir.path().join("a");
    tw(&db)
        .arg("export")
        .arg("--include-unverified")
        .arg("--out")
        .arg(&a)
        .assert()
        .success();
    let first = snapshot(&a);
    assert_eq!(first.len(), 3 * 7, "{:?}", first.keys());
    tw(&db)
        .arg("export")
        .arg("--include-unverified")
        .arg("--out")
        .arg(&a)
        .assert()
        .success();
    assert_eq!(snapshot(&a), first);
    let b = dir.path().join("b");
    tw(&db)
        .arg("export")
        .arg("--include-unverified")
        .arg("--out")
        .arg(&b)
        .assert()
        .success();
    assert_eq!(snapshot(&b), first);

    // config.json has the exact public shape, fields in order, relative names by default.
    let cfg: Value = serde_json::from_slice(&first["os_archive_logs_001/config.json"]).unwrap();
    let keys: Vec<&str> = cfg
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "instruction",
            "id",
            "app_type",
            "config",
            "evaluator",
            "generated_at",
            "adversarial_rounds"
        ]
    );
    assert_eq!(
        cfg["config"][0]["parameters"]["files"][0]["url"],
        "initial_setup.py"
    );
    assert_eq!(
        cfg["config"][0]["parameters"]["files"][0]["path"],
        "/home/user/initial_setup.py"
    );
    assert_eq!(
        cfg["config"][1]["parameters"]["command"],
        "python3 /home/user/initial_setup.py"
    );
    assert_eq!(
        cfg["evaluator"],
        serde_json::json!({"type": "python", "url": "reward.py"})
    );
    assert_eq!(cfg["generated_at"], "2026-02-11T08:00:00Z");
    // Filter fields survive; optional task fields are kept in task_config.json.
    let slack: Value =
        serde_json::from_slice(&first["slack_release_digest_001/config.json"]).unwrap();
    assert_eq!(
        (slack["reject"].clone(), slack["adversarial_rounds"].clone()),
        (Value::Bool(false), 3.into())
    );
    let tc: Value =
        serde_json::from_slice(&first["slack_release_digest_001/task_config.json"]).unwrap();
    assert_eq!(
        (tc["mock"].clone(), tc["port"].clone()),
        ("slack".into(), 8012.into())
    );
    let meta: Value =
        serde_json::from_slice(&first["libreoffice_calc_padded_ids_001/meta.json"]).unwrap();
    // Imported bundles are unverified until `verify` replays them.
    assert_eq!(meta["status"], "imported");
    assert_eq!(
        meta["provenance"]["tool_version"],
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(meta["decisions"][0]["after"], "imported");
    assert_eq!(
        first["libreoffice_calc_padded_ids_001/reward.py"],
        std::fs::read(format!(
            "{EXAMPLES}/bundles/libreoffice_calc_padded_ids_001/reward.py"
        ))
        .unwrap()
    );

    // A configured URL prefix, with {task_id} substituted.
    let c = dir.path().join("c");
    tw(&db)
        .arg("export")
        .arg("--include-unverified")
        .arg("--out")
        .arg(&c)
        .args(["--url-prefix", "https://h.example/{task_id}/"])
        .assert()
        .success();
    let cfg: Value =
        serde_json::from_slice(&std::fs::read(c.join("os_archive_logs_001/config.json")).unwrap())
            .unwrap();
    assert_eq!(
        cfg["evaluator"]["url"],
        "https://h.example/os_archive_logs_001/reward.py"
    );

    // Our own export re-imports, keeping labels from meta.json.
    // A leftover temporary directory of a killed export is not input.
    let junk = a.join(".tw-tmp-junk-1");
    std::fs::create_dir(&junk).unwrap();
    std::fs::write(junk.join("config.json"), "{}").unwrap();
    let db2 = dir.path().join("s2.db");
    let out = tw(&db2)
        .arg("import")
        .arg(&a)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out)
        .unwrap()
        .contains("3 bundle(s): 3 new"));
    let store = Store::open(&db2, Duration::from_secs(5)).unwrap();
    let t = store.task("slack_release_digest_001").unwrap();
    assert_eq!(
        (t.status.as_str(), t.task.labels.difficulty.as_deref()),
        ("imported", Some("medium"))
    );
}

#[test]
fn malformed_inputs_are_rejected_precisely_and_the_rest_imported() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let assert = tw(&db)
        .arg("import")
        .arg(format!("{FIXTURES}/bad_tasks.json"))
        .arg(format!("{FIXTURES}/broken.json"))
        .arg(format!("{FIXTURES}/bad_bundles"))
        .assert()
        .code(1);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    for expected in [
        "bad_tasks.json: [1]: field `difficulty`: expected one of easy|medium|hard, got \"extreme\"",
        "bad_tasks.json: [2]: field `task_instruction`: missing",
        "bad_tasks.json: [3]: field `task_id`: \"../escape\" is not a valid task id",
        "bad_tasks.json: [4]: expected a task object, got a string",
        "bad_tasks.json: [5]: field `domains[1]`: expected a string, got a number",
        "broken.json: not valid JSON (line 3, column",
        "missing_reward: missing reward.py",
        "bad_config/config.json: field `config[0].type`: missing or not a string",
    ] {
        assert!(err.contains(expected), "missing {expected:?} in:\n{err}");
    }
    assert!(out.contains("2 new") && out.contains("8 rejected"), "{out}");
    let store = Store::open(&db, Duration::from_secs(5)).unwrap();
    assert_eq!(count(&store, "SELECT COUNT(*) FROM tasks"), 2);
    assert_eq!(
        store.task("good_task_002").unwrap().task.labels.apps,
        ["libreoffice_writer"]
    );
}

#[test]
fn config_unknown_key_is_named_and_default_is_printable() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    std::fs::write(
        dir.path().join("tuplewright.toml"),
        "[export]\nurl_prefx = \"x\"\n",
    )
    .unwrap();
    let a = tw(&db).arg("config").assert().code(2);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("at `export.url_prefx`: unknown field"),
        "{err}"
    );
    let default = tw(&db)
        .args(["config", "--default"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    std::fs::write(dir.path().join("tuplewright.toml"), &default).unwrap();
    let eff = tw(&db)
        .arg("config")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(eff)
        .unwrap()
        .contains("busy_timeout_ms = 5000"));
}

#[test]
fn stats_json_reports_the_appendix_f_tables() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    tw(&db).args(["synth", "--n", "300"]).assert().success();
    let out = tw(&db)
        .args(["stats", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let s: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(s["population"], "final");
    assert_eq!(s["population_size"], 300);
    assert_eq!(
        s["synthetic_tasks"],
        300 + 300 * 3100 / 32112 + 300 * 1278 / 32112
    );
    assert_eq!(s["yield_per_stage"]["final_tuples"], 300);
    assert_eq!(
        s["instruction_lengths"]["buckets"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    let total: u64 = s["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 300);
    assert_eq!(s["difficulty_totals"]["total"], 300);
    // Three corpus targets, then a minimum and a maximum per app (shared with taskgen --report).
    let targets = s["coverage_targets"].as_array().unwrap();
    assert!(
        targets.len() >= 5 && (targets.len() - 3).is_multiple_of(2),
        "{targets:?}"
    );
    assert!(targets[0]["name"]
        .as_str()
        .unwrap()
        .starts_with("largest domain category ("));
    assert_eq!(s["top_verbs"][0]["name"], "open");
    // 15k input / 5k output... per tuple at $3/$15 per Mtok (default prices).
    let per = s["costs"]["cost_per_final_tuple_usd"].as_f64().unwrap();
    let expected = (10_000.0 * 3.0 + 5_000.0 * 15.0) / 1e6
        * (s["yield_per_stage"]["tasks"].as_f64().unwrap() / 300.0);
    assert!((per - expected).abs() < 0.001, "{per} vs {expected}");
    let human = tw(&db)
        .arg("stats")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let human = String::from_utf8(human).unwrap();
    assert!(
        human.contains("SYNTHETIC")
            && human.contains("Domain x difficulty")
            && human.contains("hard tasks")
    );
}

fn wait_for(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn writer_killed_mid_transaction_leaves_nothing_partial() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let mut child = StdCommand::new(bin())
        .arg("--store")
        .arg(&db)
        // Far more than it can write before the kill below (a fast, idle machine included).
        .args(["--no-tui", "synth", "--n", "100000"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the first 4096-tuple transaction to commit, then kill during the second.
    let reader = || Store::open(&db, Duration::from_secs(5)).ok();
    wait_for("first batch", Duration::from_secs(120), || {
        reader().is_some_and(|s| count(&s, "SELECT COUNT(*) FROM tasks") >= 4096)
    });
    std::thread::sleep(Duration::from_millis(150));
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "the writer finished before it could be killed"
    );

    let store = Store::open(&db, Duration::from_secs(5)).unwrap();
    assert_eq!(store.check_integrity().unwrap(), Vec::<String>::new());
    let tasks = count(&store, "SELECT COUNT(*) FROM tasks");
    assert!(
        tasks > 0 && tasks % 4096 == 0 && tasks < 100_000,
        "tasks = {tasks}"
    );
    // Every stored task is whole: tuple row, round with its scripts and runs, decision, usage.
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM tuples WHERE status != 'pending'"
        ),
        tasks
    );
    assert_eq!(count(&store, "SELECT COUNT(*) FROM rounds"), tasks);
    assert_eq!(count(&store, "SELECT COUNT(*) FROM decisions"), tasks);
    assert_eq!(count(&store, "SELECT COUNT(*) FROM reward_runs"), 2 * tasks);
    assert_eq!(count(&store, "SELECT COUNT(*) FROM usage"), 2 * tasks);
    assert_eq!(count(&store, "SELECT COUNT(*) FROM blobs"), 3 * tasks);
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM events WHERE kind = 'synth.batch'"
        ),
        tasks / 4096
    );
    // One round.recorded and one decision event per task, committed with it.
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM events"),
        tasks / 4096 + 2 * tasks
    );
}

#[test]
fn reader_process_follows_events_appended_by_a_writer_process() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    drop(Store::open(&db, Duration::from_secs(5)).unwrap());
    let mut child = StdCommand::new(bin())
        .arg("--store")
        .arg(&db)
        .args(["--no-tui", "synth", "--n", "9000"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let store = Store::open(&db, Duration::from_secs(5)).unwrap();
    let (mut last, mut seen, mut seen_while_running) = (0, Vec::new(), 0);
    let mut stats_ran_concurrently = false;
    loop {
        let running = child.try_wait().unwrap().is_none();
        for e in store.events_after(last, 10_000).unwrap() {
            assert!(e.seq > last);
            last = e.seq;
            if running {
                seen_while_running += 1;
            }
            seen.push(e);
        }
        if running && !seen.is_empty() && !stats_ran_concurrently {
            // Another reader process, while the writer is still writing.
            tw(&db).args(["stats", "--json"]).assert().success();
            stats_ran_concurrently = true;
        }
        if !running {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(child.wait().unwrap().success());
    for e in store.events_after(last, 100_000).unwrap() {
        seen.push(e);
    }
    assert!(
        seen_while_running >= 1,
        "no event observed while the writer ran"
    );
    let batches = seen.iter().filter(|e| e.kind == "synth.batch").count();
    assert_eq!(batches, 3, "9000 final + rejects = 3 batches of 4096");
    let decisions = seen.iter().filter(|e| e.kind == "decision").count();
    assert_eq!(decisions, 9000 + 9000 * 3100 / 32112 + 9000 * 1278 / 32112);
}
