//! A store on a read-only medium (a read-only bind mount made by bubblewrap, which binds read-only
//! for root too, unlike `chmod a-w`): a writing open names the medium as read-only, and
//! `--readonly` reads the store there (SQLite `immutable=1`, as no WAL index can be created).

use std::path::Path;

use super::{outcome, tw, EXAMPLES};

/// `tuplewright ARGS` on `store`, with `dir` mounted read-only (everything else as it is).
fn on_read_only(dir: &Path, store: &Path, args: &[&str]) -> (i32, String, String) {
    let bin = assert_cmd::cargo::cargo_bin("tuplewright");
    let mut cmd = assert_cmd::Command::new("bwrap");
    cmd.args(["--dev-bind", "/", "/", "--ro-bind"])
        .arg(dir)
        .arg(dir)
        .arg("--")
        .arg(bin)
        .arg("--store")
        .arg(store)
        .arg("--no-tui")
        .args(args)
        .current_dir(dir)
        .env_remove("TUPLEWRIGHT_STORE")
        .env_remove("TUPLEWRIGHT_CONFIG");
    outcome(&mut cmd)
}

#[test]
fn a_store_on_read_only_media_is_named_so_and_readable_with_readonly() {
    let dir = tempfile::tempdir().unwrap();
    let media = dir.path().join("media");
    std::fs::create_dir(&media).unwrap();
    let db = media.join("s.db");
    tw(&db)
        .args(["import", &format!("{EXAMPLES}/tasks.json")])
        .assert()
        .success();
    let before = std::fs::read(&db).unwrap();
    let (code, _, err) = on_read_only(&media, &db, &["tasks", "list"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&db.display().to_string()) && err.contains("read-only file system"),
        "{err}"
    );
    assert!(err.contains("--readonly"), "{err}");
    let (code, out, err) = on_read_only(&media, &db, &["--readonly", "tasks", "list"]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.ends_with("task(s)") && last != "0 task(s)", "{out}");
    let (code, out, err) = on_read_only(&media, &db, &["--readonly", "stats", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"yield\"") || out.contains('{'), "{out}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "the store changed");
    let names: Vec<_> = std::fs::read_dir(&media)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names, ["s.db"], "nothing written beside the store");
}
