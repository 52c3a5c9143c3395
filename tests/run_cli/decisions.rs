//! A second `run` over the same task files never undoes anyone's work: a person's reject and
//! modify_query stand, accepted tuples get no second round, and the output says what was left
//! alone; `--rerun ID` runs exactly that task again and says which decision it overrides. And one
//! vocabulary: `export` after the main job writes what `run` delivered, in the same words.

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use tuplewright::engine::filter::effective_outcome;

use super::{bin, open, run, task_file};

fn ids_of(tasks: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(tasks).unwrap();
    serde_json::from_str::<Vec<Value>>(&text)
        .unwrap()
        .iter()
        .map(|t| t["task_id"].as_str().unwrap().to_string())
        .collect()
}

fn ok(o: Output) -> (String, String) {
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(o.status.success(), "{out}\n{err}");
    (out, err)
}

fn tw(db: &Path, args: &[&str]) -> (String, String) {
    ok(bin().arg("--store").arg(db).args(args).output().unwrap())
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn a_second_run_leaves_human_decisions_and_finished_tuples_alone_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path(), 3);
    let ids = ids_of(&tasks);
    let db = dir.path().join("t.db");
    let out = dir.path().join("out");
    ok(run(&db, &tasks, &["--out"]).arg(&out).output().unwrap());
    tw(
        &db,
        &[
            "override",
            &ids[0],
            "reject",
            "--reason",
            "reward checks the wrong channel",
        ],
    );
    let revised = "Post the release summary in the right channel.";
    tw(
        &db,
        &[
            "override",
            &ids[1],
            "modify_query",
            "--query",
            revised,
            "--reason",
            "clearer",
        ],
    );
    let ev = dir.path().join("events.jsonl");
    let (_, err) = ok(run(&db, &tasks, &["--out"])
        .arg(&out)
        .arg("--events-jsonl")
        .arg(&ev)
        .output()
        .unwrap());
    let store = open(&db);
    let status = |id: &str| store.effective_status(id).unwrap();
    assert_eq!(status(&ids[0]), "dropped", "{err}");
    assert_eq!(status(&ids[1]), "voted", "{err}");
    assert_eq!(status(&ids[2]), "loop_accepted", "{err}");
    for id in &ids {
        assert_eq!(
            store.rounds(id).unwrap().len(),
            1,
            "{id} got a second round"
        );
    }
    let outcome = effective_outcome(&store, &ids[1]).unwrap().unwrap();
    assert_eq!(
        (outcome.revised_query.as_deref(), outcome.source.as_str()),
        (Some(revised), "human")
    );
    // The output: nothing run, a line per status left alone, the person's decisions counted.
    assert!(err.contains("tasks            0"), "{err}");
    assert!(
        err.contains("skipped finished 3 (left as they are"),
        "{err}"
    );
    let line = |s: &str| err.lines().find(|l| l.split_whitespace().nth(1) == Some(s));
    assert!(
        line("loop_accepted").is_some_and(|l| l.trim_start().starts_with("1 ")),
        "{err}"
    );
    assert!(
        line("dropped").is_some_and(|l| l.contains("1 decided by a person")),
        "{err}"
    );
    assert!(
        line("voted").is_some_and(|l| l.contains("1 decided by a person")),
        "{err}"
    );
    // The rejected tuple stays out of --out; the modified one carries the person's instruction.
    assert!(!out.join(&ids[0]).exists(), "{err}");
    let cfg = read_json(&out.join(&ids[1]).join("config.json"));
    assert_eq!(cfg["instruction"], revised);
    assert!(out.join(&ids[2]).join("config.json").is_file());
    // The events say the same.
    let skipped: Vec<Value> = std::fs::read_to_string(&ev)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["kind"] == "run.skipped")
        .collect();
    assert_eq!(skipped.len(), 1);
    let p = &skipped[0]["payload"];
    assert_eq!(p["skipped"], 3);
    assert_eq!(p["by_status"]["dropped"]["by_person"], 1);
    assert_eq!(p["by_status"]["loop_accepted"]["count"], 1);
    assert_eq!(
        p["decided_by_a_person"],
        serde_json::json!([ids[0], ids[1]])
    );
}

#[test]
fn rerun_runs_exactly_the_task_asked_for_and_records_what_it_overrides() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path(), 2);
    let ids = ids_of(&tasks);
    let db = dir.path().join("t.db");
    let out = dir.path().join("out");
    ok(run(&db, &tasks, &["--out"]).arg(&out).output().unwrap());
    tw(
        &db,
        &[
            "override",
            &ids[0],
            "reject",
            "--reason",
            "wrong channel",
            "--actor",
            "ana",
        ],
    );
    let bad = run(&db, &tasks, &["--rerun", "no_such_task"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--rerun no_such_task"));
    let (_, err) = ok(run(&db, &tasks, &["--out"])
        .arg(&out)
        .args(["--rerun", &ids[0]])
        .output()
        .unwrap());
    assert!(
        err.contains(&format!(
            "rerun {}: overrides human reject by ana at ",
            ids[0]
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "accepted  {} (round 2 = round 1 of a new attempt)",
            ids[0]
        )),
        "{err}"
    );
    assert!(err.contains("tasks            1"), "{err}");
    let store = open(&db);
    let numbers = |id: &str| -> Vec<i64> {
        let r = store.rounds(id).unwrap();
        r.iter().filter_map(|r| r.round.round_no).collect()
    };
    assert_eq!(numbers(&ids[0]), [1, 2]);
    assert_eq!(numbers(&ids[1]), [1], "only the task asked for runs again");
    assert_eq!(store.effective_status(&ids[0]).unwrap(), "loop_accepted");
    // The history keeps the person's reject and the re-run that overrode it, by whom and why.
    let history = store.decisions(&ids[0]).unwrap();
    let reject = history
        .iter()
        .find(|d| d.actor == "ana")
        .expect("the reject");
    assert_eq!(reject.after, "dropped");
    let rerun = history
        .iter()
        .find(|d| d.reason.starts_with("rerun"))
        .expect("the re-run decision");
    assert!(rerun.id > reject.id && rerun.source == "human");
    assert!(
        rerun.reason.contains("overrides human reject by ana at"),
        "{}",
        rerun.reason
    );
    assert!(
        rerun.reason.contains(&reject.created_at),
        "{}",
        rerun.reason
    );
    // The new tuple is no longer out: delivered again.
    assert_eq!(effective_outcome(&store, &ids[0]).unwrap(), None);
    assert!(out.join(&ids[0]).join("config.json").is_file(), "{err}");
}

#[test]
fn export_after_the_main_job_writes_what_run_delivered_in_the_same_words() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path(), 2);
    let ids = ids_of(&tasks);
    let db = dir.path().join("t.db");
    let delivered = dir.path().join("output/final");
    let (_, err) = ok(run(&db, &tasks, &["--out"])
        .arg(&delivered)
        .output()
        .unwrap());
    assert!(
        err.contains("exported         2 verified tuple(s)"),
        "{err}"
    );
    let exported = dir.path().join("exported");
    let (stdout, _) = tw(&db, &["export", "--out", exported.to_str().unwrap()]);
    assert!(stdout.contains(": 2 written"), "{stdout}");
    for id in &ids {
        for f in ["config.json", "reward.py", "REVIEW.md", "meta.json"] {
            assert_eq!(
                std::fs::read(exported.join(id).join(f)).unwrap(),
                std::fs::read(delivered.join(id).join(f)).unwrap(),
                "{id}/{f}: export and run differ"
            );
        }
        let meta = read_json(&exported.join(id).join("meta.json"));
        assert_eq!(meta["status"], "loop_accepted");
        assert_eq!(meta["verified"], true);
        let meaning = meta["status_meaning"].as_str().unwrap();
        // The same words in run's summary, export's output and the bundle.
        let said = format!("loop_accepted  {meaning}");
        assert!(err.contains(&said), "{err}");
        assert!(stdout.contains(meaning), "{stdout}");
        assert!(meaning.starts_with("verified"), "{meaning}");
    }
    // Only the curated corpus, asked for by its word: none yet, and the hint names the next step.
    let (stdout, hint) = tw(
        &db,
        &[
            "export",
            "--status",
            "final",
            "--out",
            dir.path().join("f").to_str().unwrap(),
        ],
    );
    assert!(stdout.contains(": 0 written"), "{stdout}");
    assert!(hint.contains("2 are loop_accepted"), "{hint}");
}
