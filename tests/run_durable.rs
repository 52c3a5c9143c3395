//! Nothing lost (issue 13): `run` killed with SIGKILL at several points and resumed ends with every
//! accepted bundle present and complete, K honoured across interruptions, no temporary directory
//! left; a person's rejection during a run is honoured by its export; bad input is one clear error.
//! Everything here is the real binary with the scripted agents and the real sandbox.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::run_support;
use run_support::{bin, open, run, task_file};

/// The private-scratch config (see [`run_support::private_config`]).
fn private_config(dir: &Path) -> (PathBuf, PathBuf) {
    run_support::private_config(dir, "")
}

/// `run` with the private config.
fn run_cfg(cfg: &Path, db: &Path, tasks: &Path, extra: &[&str]) -> Command {
    let mut c = bin();
    c.arg("--config").arg(cfg);
    c.args(["--no-tui", "--store"])
        .arg(db)
        .arg("run")
        .arg(tasks)
        .args(extra);
    c
}

/// The events written so far to a `--events-jsonl` file (a half-written last line is skipped).
fn events(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Spawns `cmd` and SIGKILLs it as soon as its events satisfy `when`. Returns true when it was
/// killed, false when it finished first.
fn kill_when(mut cmd: Command, events_path: &Path, when: &dyn Fn(&[Value]) -> bool) -> bool {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        if when(&events(events_path)) {
            child.kill().unwrap();
            child.wait().unwrap();
            return true;
        }
        assert!(
            Instant::now() < deadline,
            "the run neither ended nor got there"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn kind_is(e: &Value, kind: &str) -> bool {
    e["kind"] == kind
}

fn ids_of(tasks: &Path) -> Vec<String> {
    let v: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(tasks).unwrap()).unwrap();
    v.iter()
        .map(|t| t["task_id"].as_str().unwrap().to_string())
        .collect()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A pid that is certainly gone: a child that exited and was reaped.
fn dead_pid() -> u32 {
    let mut c = Command::new("true").spawn().unwrap();
    let pid = c.id();
    c.wait().unwrap();
    pid
}

#[test]
fn kill_9_at_several_points_then_resume_leaves_every_accepted_bundle_complete() {
    let dir = tempfile::tempdir().unwrap();
    let (cfg, scratch) = private_config(dir.path());
    let tasks = task_file(dir.path(), 6);
    let db = dir.path().join("t.db");
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    // Faults make tasks take several rounds; with K = 2 some run out of rounds, so a resume that
    // restarted a task from round 1 would show up as more than two rounds.
    let args = [
        "--resume",
        "--jobs",
        "2",
        "--max-rounds",
        "2",
        "--fault-rate",
        "0.7",
        "--fault-depth",
        "3",
        "--out",
        out_s,
    ];
    type When = fn(&[Value]) -> bool;
    let points: [(&str, When); 4] = [
        ("in a reward run", |ev| {
            ev.iter()
                .any(|e| kind_is(e, "round.phase") && e["payload"]["phase"] == "reward")
        }),
        ("after a recorded round", |ev| {
            ev.iter().any(|e| kind_is(e, "round.recorded"))
        }),
        ("right after an acceptance", |ev| {
            ev.iter()
                .any(|e| kind_is(e, "job.task") && e["payload"]["outcome"] == "accepted")
        }),
        ("after the last task, in the final export", |ev| {
            ev.iter().any(|e| kind_is(e, "job.finished"))
        }),
    ];
    let mut kills = Vec::new();
    for (i, (name, when)) in points.iter().enumerate() {
        let ev = dir.path().join(format!("events{i}.jsonl"));
        let mut cmd = run_cfg(&cfg, &db, &tasks, &args);
        cmd.arg("--events-jsonl").arg(&ev);
        if kill_when(cmd, &ev, when) {
            kills.push(*name);
        }
        let problems = open(&db).check_integrity().unwrap();
        assert!(problems.is_empty(), "after a kill {name}: {problems:?}");
    }
    eprintln!("killed: {kills:?}");
    assert!(kills.len() >= 3, "too few kills landed: {kills:?}");
    // What a kill in the middle of writing a bundle or running a script leaves behind.
    let dead = dead_pid();
    let half = out.join(format!(".tw-tmp-{}-0-{dead}", ids_of(&tasks)[0]));
    std::fs::create_dir_all(&half).unwrap();
    std::fs::write(half.join("config.json"), "{\"half\": ").unwrap();
    let sandbox_left = scratch.join(format!("tw-sandbox-{dead}-x1y2z3"));
    std::fs::create_dir_all(sandbox_left.join("script")).unwrap();
    std::fs::write(sandbox_left.join("script/reward.py"), "print(1)\n").unwrap();

    let o = run_cfg(&cfg, &db, &tasks, &args).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");

    let store = open(&db);
    assert!(store.check_integrity().unwrap().is_empty());
    let mut accepted = Vec::new();
    for id in ids_of(&tasks) {
        let status = store.effective_status(&id).unwrap();
        assert!(
            status == "loop_accepted" || status == "loop_failed",
            "{id} left {status}"
        );
        let rounds = store.rounds(&id).unwrap();
        assert!(
            (1..=2).contains(&rounds.len()),
            "{id}: {} rounds under --max-rounds 2",
            rounds.len()
        );
        let numbers: Vec<i64> = rounds.iter().map(|r| r.round.round_no.unwrap()).collect();
        assert_eq!(numbers, (1..=rounds.len() as i64).collect::<Vec<_>>());
        if status == "loop_accepted" {
            accepted.push(id);
        }
    }
    assert!(!accepted.is_empty(), "no task was accepted: {stderr}");
    accepted.sort();
    // Exactly the accepted bundles, nothing hidden, byte-identical to a fresh export of each.
    assert_eq!(names(&out), accepted, "{stderr}");
    let fresh = dir.path().join("fresh");
    bin()
        .args(["--store"])
        .arg(&db)
        .args(["export", "--status", "loop_accepted", "--out"])
        .arg(&fresh)
        .output()
        .unwrap();
    for id in &accepted {
        let want = names(&fresh.join(id));
        assert_eq!(want.len(), 7, "{want:?}");
        assert_eq!(names(&out.join(id)), want, "{id}");
        for f in &want {
            assert_eq!(
                std::fs::read(out.join(id).join(f)).unwrap(),
                std::fs::read(fresh.join(id).join(f)).unwrap(),
                "{id}/{f} differs from a fresh export"
            );
        }
    }
    let left: Vec<String> = names(&scratch)
        .into_iter()
        .filter(|n| n.starts_with("tw-sandbox-"))
        .collect();
    assert!(left.is_empty(), "sandbox scratch left behind: {left:?}");
}

#[test]
fn a_tuple_a_person_rejects_during_the_run_is_not_in_its_output() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path(), 5);
    let db = dir.path().join("t.db");
    let out = dir.path().join("out");
    let ev = dir.path().join("events.jsonl");
    let child = run(&db, &tasks, &["--jobs", "1", "--out"])
        .arg(&out)
        .arg("--events-jsonl")
        .arg(&ev)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let first = loop {
        let found = events(&ev)
            .into_iter()
            .find(|e| kind_is(e, "job.task") && e["payload"]["outcome"] == "accepted");
        if let Some(e) = found {
            break e["task_id"].as_str().unwrap().to_string();
        }
        assert!(Instant::now() < deadline, "no task was accepted");
        std::thread::sleep(Duration::from_millis(10));
    };
    let o = bin()
        .arg("--store")
        .arg(&db)
        .args([
            "override",
            &first,
            "reject",
            "--reason",
            "reward checks the wrong channel",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let present = names(&out);
    assert!(
        !present.contains(&first),
        "{first} was rejected: {present:?}"
    );
    assert_eq!(present.len(), 4, "{stderr}");
    assert!(
        stderr.contains(&format!("withdrawn    {first}")),
        "{stderr}"
    );
}

/// The first `n` shipped team-chat tasks, changed by `edit`, written to `tasks.json`.
fn edited_tasks(dir: &Path, n: usize, edit: impl Fn(usize, &mut Value)) -> PathBuf {
    let path = task_file(dir, n);
    let mut v: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (i, t) in v.iter_mut().enumerate() {
        edit(i, t);
    }
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    path
}

#[test]
fn a_run_whose_every_task_is_invalid_exits_2_without_spending_a_round() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = edited_tasks(dir.path(), 2, |_, t| {
        t["template"] = "no_such_template".into();
    });
    let db = dir.path().join("t.db");
    let o = run(&db, &tasks, &["--no-export"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("invalid tasks    2"), "{stderr}");
    assert!(stderr.contains("no_such_template"), "{stderr}");
    let store = open(&db);
    for id in ids_of(&tasks) {
        assert!(store.rounds(&id).unwrap().is_empty(), "{id} spent rounds");
        assert_eq!(store.effective_status(&id).unwrap(), "pending");
    }
}

#[test]
fn missing_slots_are_one_error_up_front_and_the_other_tasks_run() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = edited_tasks(dir.path(), 2, |i, t| {
        if i == 0 {
            t["slots"].as_object_mut().unwrap().remove("channel");
        }
    });
    let ids = ids_of(&tasks);
    let db = dir.path().join("t.db");
    let o = run(&db, &tasks, &["--no-export"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("needs slot(s) channel that `slots` lacks"),
        "{stderr}"
    );
    let store = open(&db);
    assert!(store.rounds(&ids[0]).unwrap().is_empty());
    assert_eq!(store.effective_status(&ids[1]).unwrap(), "loop_accepted");
}

#[test]
fn duplicate_task_ids_in_one_file_are_rejected_naming_both_places() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = edited_tasks(dir.path(), 3, |_, _| {});
    let mut v: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&tasks).unwrap()).unwrap();
    let dup = v[0]["task_id"].as_str().unwrap().to_string();
    v[2]["task_id"] = dup.clone().into();
    std::fs::write(&tasks, serde_json::to_string(&v).unwrap()).unwrap();
    let db = dir.path().join("t.db");
    let o = bin()
        .arg("--store")
        .arg(&db)
        .arg("import")
        .arg(&tasks)
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let file = tasks.display().to_string();
    for (at, other) in [("[0]", "[2]"), ("[2]", "[0]")] {
        let line =
            format!("{file}: {at}: field `task_id`: {dup:?} is also the id of {file}: {other}");
        assert!(all.contains(&line), "missing {line:?} in {all}");
    }
    let store = open(&db);
    assert!(store.task(&dup).is_err(), "a duplicated id was merged");
    assert!(store.task(v[1]["task_id"].as_str().unwrap()).is_ok());
}

#[test]
fn export_refuses_an_unknown_status() {
    let dir = tempfile::tempdir().unwrap();
    let o = bin()
        .arg("--store")
        .arg(dir.path().join("t.db"))
        .args(["export", "--status", "bogus", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unknown status \"bogus\""), "{stderr}");
    assert!(stderr.contains("loop_accepted"), "{stderr}");
}

#[test]
fn every_shipped_task_passes_the_scripted_preflight() {
    use tuplewright::engine::agents::scripted::{ScriptedDiscriminator, ScriptedGenerator};
    use tuplewright::engine::agents::{Discriminator, Generator};
    use tuplewright::engine::bundle::taskgen::parse_file;
    use tuplewright::engine::harness::{task::brief_of, LoopConfig};
    use tuplewright::engine::store::StoredTask;
    let g = ScriptedGenerator::default();
    let d = ScriptedDiscriminator::default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for (_, path) in tuplewright::apps::shipped_task_files(root) {
        let text = std::fs::read_to_string(path).unwrap();
        for t in parse_file(&text, "shipped").unwrap() {
            let task = StoredTask {
                task: t.unwrap(),
                status: "pending".into(),
                created_at: String::new(),
                updated_at: String::new(),
            };
            let brief = brief_of(&task, &LoopConfig::default()).unwrap();
            assert_eq!(g.preflight(&brief), Ok(()));
            assert_eq!(d.preflight(&brief), Ok(()));
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} shipped tasks");
}
