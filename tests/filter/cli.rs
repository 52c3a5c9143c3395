//! The CLI face of decisions: override/undo through the binary, reflected in export and stats;
//! concurrent overrides from two processes; the rollout probes through the binary.

use crate::filter::rig::{rig, INSTRUCTION};

fn tw(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .arg("--store")
        .arg(db)
        .arg("--no-tui")
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn read_json(p: std::path::PathBuf) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

#[test]
fn override_and_undo_through_the_cli_are_reflected_in_export_and_stats() {
    let r = rig(&["chat_topic_010", "chat_topic_011"]);
    let db = r.db.clone();
    let out = ok(tw(&db, &["filter"]));
    assert_eq!(out.matches("KEEP").count(), 2, "{out}");
    let revised = "Announce the Release 2.4 freeze in the topic of #release.";
    ok(tw(
        &db,
        &[
            "override",
            "chat_topic_010",
            "modify_query",
            "--query",
            revised,
            "--reason",
            "clearer",
            "--actor",
            "ana",
        ],
    ));
    let dir = tempfile::tempdir().unwrap();
    let export = |sub: &str| {
        let out = dir.path().join(sub);
        ok(tw(
            &db,
            &[
                "export",
                "--out",
                out.to_str().unwrap(),
                "--status",
                "voted",
            ],
        ));
        out
    };
    let first = export("a");
    let cfg = read_json(first.join("chat_topic_010/config.json"));
    assert_eq!(cfg["instruction"], revised);
    assert_eq!(cfg["revised_query"], revised);
    assert_eq!(cfg["reject"], false);
    assert_eq!(cfg["train_poor_fit"], false);
    let tc = read_json(first.join("chat_topic_010/task_config.json"));
    assert_eq!(tc["task_instruction"], revised);
    let meta = read_json(first.join("chat_topic_010/meta.json"));
    assert_eq!(meta["original_instruction"], INSTRUCTION);
    assert_eq!(meta["filter"]["actor"], "ana");
    assert_eq!(meta["votes"]["keep"], 1);
    assert_eq!(meta["votes"]["failed"], 0);

    let before = r.status("chat_topic_010");
    ok(tw(
        &db,
        &[
            "override",
            "chat_topic_010",
            "--undo",
            "--reason",
            "misclick",
        ],
    ));
    assert_eq!(r.status("chat_topic_010"), before);
    let second = export("b");
    let cfg = read_json(second.join("chat_topic_010/config.json"));
    assert_eq!(cfg["instruction"], INSTRUCTION);
    assert!(cfg.get("revised_query").is_none(), "{cfg}");

    ok(tw(
        &db,
        &[
            "override",
            "chat_topic_011",
            "reject",
            "--reason",
            "duplicate",
        ],
    ));
    assert_eq!(r.status("chat_topic_011"), "dropped");
    let third = export("c");
    assert!(
        !third.join("chat_topic_011").exists(),
        "rejected tuples are left out"
    );
    ok(tw(
        &db,
        &[
            "override",
            "chat_topic_011",
            "--undo",
            "--reason",
            "not a duplicate",
        ],
    ));
    assert_eq!(
        r.status("chat_topic_011"),
        "voted",
        "undo restores the exact previous status"
    );

    // Two processes overriding at the same time: both decisions are recorded.
    let spawn = |id: &str| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
            .arg("--store")
            .arg(&db)
            .args([
                "override",
                id,
                "keep",
                "--reason",
                "concurrent",
                "--actor",
                id,
            ])
            .output()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| spawn("chat_topic_010"));
        let b = s.spawn(|| spawn("chat_topic_011"));
        (a.join().unwrap().unwrap(), b.join().unwrap().unwrap())
    });
    ok(a);
    ok(b);
    let store = r.store();
    for id in ["chat_topic_010", "chat_topic_011"] {
        let d = store.decisions(id).unwrap();
        assert_eq!(d.last().unwrap().actor, id, "{d:?}");
    }

    let stats: serde_json::Value =
        serde_json::from_str(&ok(tw(&db, &["stats", "--json"]))).unwrap();
    let y = &stats["yield_per_stage"];
    assert_eq!(y["human_decisions"], 6, "{y}");
    assert_eq!(y["human_undos"], 2, "{y}");
    assert_eq!(y["human_decided_tuples"], 2, "{y}");
    assert_eq!(y["voted"], 2, "{y}");
    let text = ok(tw(&db, &["stats"]));
    assert!(text.contains("human overrides"), "{text}");

    // The probes through the CLI: oracle 1.0 and noop 0.0 on every accepted tuple.
    for policy in ["oracle", "noop"] {
        let out = ok(tw(&db, &["rollout", "--policy", policy]));
        assert_eq!(out.matches("OK (every trial scored").count(), 2, "{out}");
    }

    // #29: the rollout job reports each tuple as it finishes, not after the batch: the first
    // progress line arrives while the process still has the second tuple to do.
    rollout_reports_each_tuple_while_the_batch_runs(&db);

    // Bad input is refused with a clear message.
    let bad = tw(
        &db,
        &[
            "override",
            "chat_topic_010",
            "modify_query",
            "--reason",
            "x",
        ],
    );
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--query"));
}

fn rollout_reports_each_tuple_while_the_batch_runs(db: &std::path::Path) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .arg("--store")
        .arg(db)
        .args(["--no-tui", "rollout", "--policy", "oracle", "--trials", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines
        .by_ref()
        .map(Result::unwrap)
        .find(|l| l.starts_with("rollout "))
        .expect("a progress line");
    let running = child.try_wait().unwrap().is_none();
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    assert!(child.wait().unwrap().success(), "{rest:?}");
    assert!(first.starts_with("rollout 1/2: chat_topic_01"), "{first}");
    assert!(first.ends_with(" ok"), "{first}");
    assert!(
        running,
        "the first tuple was reported only after the batch ended"
    );
    assert!(
        rest.iter().any(|l| l.starts_with("rollout 2/2: ")),
        "{rest:?}"
    );
}
