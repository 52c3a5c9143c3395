//! Issue 33, the headless face: `override --where QUERY … [--yes]`, `override --undo-group ID`,
//! `tasks note ID TEXT --tag T`, `--as NAME`, and `stats --json` with the curators' agreement —
//! through the binary, on a store made with the library.

use std::path::Path;

use tuplewright::engine::store::{DecisionSource, TupleStatus};

use super::{open, task};

fn tw(db: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .arg("--store")
        .arg(db)
        .arg("--no-tui")
        .args(args)
        .stdin(std::process::Stdio::null())
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

fn status(db: &Path, id: &str) -> String {
    open(db).task(id).unwrap().status
}

#[test]
fn override_where_decides_a_search_as_one_group_and_undo_group_takes_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    {
        let mut store = open(&db);
        for id in ["a1", "a2", "a3", "p1"] {
            store.write(|tx| tx.upsert_task(&task(id))).unwrap();
        }
        for id in ["a1", "a2", "a3"] {
            store
                .write(|tx| {
                    let (to, who) = (TupleStatus::LoopAccepted, DecisionSource::Policy);
                    tx.record_decision(id, to, "loop", who, "agreed", None)
                })
                .unwrap();
        }
    }
    let reject = [
        "override",
        "--where",
        "status:loop",
        "reject",
        "--reason",
        "dup",
    ];
    // Without --yes and without a terminal: refused, nothing written.
    let out = tw(&db, &reject);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--yes"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("3 will be decided reject"));
    assert_eq!(status(&db, "a1"), "loop_accepted");
    let mut args = reject.to_vec();
    args.extend(["--yes", "--as", "ana"]);
    let text = ok(tw(&db, &args));
    let group = text
        .split_whitespace()
        .skip_while(|w| *w != "group")
        .nth(1)
        .unwrap()
        .trim_end_matches(':')
        .to_string();
    assert!(group.starts_with('g'), "{text}");
    for id in ["a1", "a2", "a3"] {
        assert_eq!(status(&db, id), "dropped");
    }
    assert_eq!(status(&db, "p1"), "pending");
    let d = open(&db).decisions("a1").unwrap().pop().unwrap();
    assert_eq!(
        (d.actor.as_str(), d.group_id.as_deref()),
        ("ana", Some(group.as_str()))
    );
    // A note with a tag, then a search on the tag: a second curator keeps only that tuple.
    ok(tw(
        &db,
        &[
            "tasks",
            "note",
            "a1",
            "reward is fine",
            "--tag",
            "recheck",
            "--as",
            "bo",
        ],
    ));
    let text = ok(tw(
        &db,
        &[
            "override",
            "--where",
            "tag:recheck",
            "keep",
            "--reason",
            "fine",
            "--yes",
            "--as",
            "bo",
        ],
    ));
    assert!(text.contains("1 tuple(s) decided keep by bo"), "{text}");
    assert_eq!(status(&db, "a1"), "voted");
    let stats: serde_json::Value =
        serde_json::from_str(&ok(tw(&db, &["stats", "--json"]))).unwrap();
    let pair = &stats["agreement"]["pairs"][0];
    assert_eq!(
        (pair["a"].as_str(), pair["b"].as_str()),
        (Some("ana"), Some("bo"))
    );
    assert_eq!(
        (pair["tuples"].as_u64(), pair["agreed"].as_u64()),
        (Some(1), Some(0))
    );
    // The group undo leaves a1 (decided again since) and restores a2, a3.
    let text = ok(tw(
        &db,
        &["override", "--undo-group", &group, "--as", "ana"],
    ));
    assert!(text.contains("2 decision(s) undone, 1 left"), "{text}");
    assert_eq!(status(&db, "a1"), "voted");
    assert_eq!(status(&db, "a2"), "loop_accepted");
    // A query matching nothing, and a tag outside the configured list, are clear errors.
    let out = tw(
        &db,
        &[
            "override", "--where", "tag:none", "keep", "--reason", "x", "--yes",
        ],
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("matches no tuple"));
    let cfg = dir.path().join("tw.toml");
    std::fs::write(&cfg, "[curate]\ntags = [\"leak\"]\n").unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .args([
            "--config",
            cfg.to_str().unwrap(),
            "--store",
            db.to_str().unwrap(),
        ])
        .args(["--no-tui", "tasks", "note", "a2", "--tag", "typo"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("tag `typo` is not one of"),
        "{err}"
    );
}

/// `tasks list --view NAME` prints the tuples a view saved in the workbench shows, in its order
/// (its search, filters and sort, by the workbench's own view code); an unknown name is refused
/// naming the saved ones.
#[test]
fn tasks_list_view_shows_a_saved_view_in_its_order() {
    use tuplewright::engine::curate::views::{save, SavedView, ViewsFile};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    {
        let mut store = open(&db);
        for id in ["a1", "a2", "b1", "p1"] {
            store.write(|tx| tx.upsert_task(&task(id))).unwrap();
        }
    }
    let views = dir.path().join("views.toml");
    let mut f = ViewsFile::default();
    f.upsert(SavedView {
        name: "a-desc".into(),
        status: Some("pending".into()),
        sort: "id".into(),
        reverse: true,
        ..Default::default()
    })
    .unwrap();
    save(&views, &f).unwrap();
    let run = |name: &str| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
            .args([
                "--store",
                db.to_str().unwrap(),
                "--no-tui",
                "tasks",
                "list",
                "--view",
                name,
            ])
            .env("TUPLEWRIGHT_VIEWS", &views)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let text = ok(run("a-desc"));
    let ids: Vec<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.len() == 2)
        .collect();
    assert_eq!(ids, ["p1", "b1", "a2", "a1"], "{text}");
    let bad = run("nope");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && err.contains("a-desc"), "{err}");
}
