//! Bad input through the real binary (issue 28): each case ends in a clear error naming what was
//! wrong and where, with the documented exit status, and nothing created or read that need not be.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples");
const GIB: u64 = 1024 * 1024 * 1024;

fn tw(store: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tuplewright").unwrap();
    cmd.arg("--store").arg(store).arg("--no-tui");
    cmd.current_dir(store.parent().unwrap());
    cmd.env_remove("TUPLEWRIGHT_STORE")
        .env_remove("TUPLEWRIGHT_CONFIG")
        .env_remove("TUPLEWRIGHT_THEME");
    // A regression that reads a 2 GB input whole must fail the test, not hang it.
    cmd.timeout(Duration::from_secs(120));
    cmd
}

/// Runs `cmd`, returning (exit code, stdout, stderr).
fn outcome(cmd: &mut Command) -> (i32, String, String) {
    let o = cmd.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A sparse file of `len` bytes (cheap to make whatever its size).
fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

#[test]
fn an_empty_task_list_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    for (name, text) in [("empty.json", "[]"), ("wrapped.json", r#"{"tasks": []}"#)] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let (code, _, err) = outcome(tw(&db).arg("run").arg(&file));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(name) && err.contains("no task in it"), "{err}");
        assert!(!db.exists(), "the store was created for nothing");
    }
}

#[test]
fn a_directory_given_as_a_task_file_is_named_as_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let tasks = dir.path().join("tasks");
    std::fs::create_dir(&tasks).unwrap();
    std::fs::write(tasks.join("inner.json"), "{broken").unwrap();
    let (code, _, err) = outcome(tw(&db).arg("run").arg(&tasks));
    assert_eq!(code, 2, "{err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains("tasks: is a directory"), "{err}");
    assert!(!err.contains("inner.json"), "{err}");
}

#[test]
fn invalid_utf8_in_a_task_file_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let file = dir.path().join("latin1.json");
    std::fs::write(
        &file,
        b"[\n  {\"task_id\": \"a\",\n   \"instruction\": \"caf\xe9\"}\n]\n",
    )
    .unwrap();
    let (code, _, err) = outcome(tw(&db).arg("run").arg(&file));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("latin1.json"), "{err}");
    assert!(
        err.contains("line 3, column 23 (byte offset 43)"),
        "no position: {err}"
    );
}

#[test]
fn scan_refuses_a_huge_sparse_script_before_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let reward = dir.path().join("reward.py");
    sparse(&reward, 2 * GIB);
    let (code, _, err) = outcome(tw(&dir.path().join("s.db")).arg("scan").arg(&reward));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("reward.py: 2 GiB is over the 1 MiB script limit"),
        "{err}"
    );
}

#[test]
fn a_finding_echoes_a_bounded_part_of_a_long_line() {
    let dir = tempfile::tempdir().unwrap();
    let reward = dir.path().join("reward.py");
    // One 900 KB line (under the limit) that does not parse.
    std::fs::write(&reward, format!("x = \"{}\" )\n", "a".repeat(900_000))).unwrap();
    let (code, out, err) = outcome(tw(&dir.path().join("s.db")).arg("scan").arg(&reward));
    assert_eq!(code, 2, "{err}");
    assert!(out.contains("syntax-error"), "{out}");
    assert!(out.len() < 4_000, "echoed {} bytes", out.len());
    assert!(out.contains("bytes in all"), "{out}");
}

/// A copy of an example bundle whose `name` is replaced by a sparse file of `len` bytes.
fn bundle_with_huge(dir: &Path, name: &str, len: u64) -> PathBuf {
    let src = Path::new(EXAMPLES).join("bundles/os_archive_logs_001");
    let dst = dir.join("bundles/os_archive_logs_001");
    std::fs::create_dir_all(&dst).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), dst.join(e.file_name())).unwrap();
    }
    sparse(&dst.join(name), len);
    dir.join("bundles")
}

#[test]
fn an_oversized_bundle_file_is_refused_naming_the_file_and_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let bundles = bundle_with_huge(dir.path(), "reward.py", 2 * GIB);
    let (code, _, err) = outcome(tw(&db).arg("import").arg(&bundles));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("os_archive_logs_001/reward.py: 2 GiB is over the 1 MiB script limit"),
        "{err}"
    );
    assert!(!err.contains("too big"), "{err}");
    let bundles = bundle_with_huge(&dir.path().join("b"), "config.json", 3 * GIB);
    let (code, _, err) = outcome(tw(&db).arg("import").arg(&bundles));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("config.json: 3 GiB is over the 16 MiB bundle file limit"),
        "{err}"
    );
}

#[test]
fn reading_commands_refuse_a_store_that_does_not_exist() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("tuplewrite.db");
    // Commands that decide or roll out stored tuples read the store too: a mistyped path is
    // refused, never created (it used to answer "no tuples" and leave an empty store behind).
    let deciding: [&[&str]; 5] = [
        &["rollout", "--policy", "noop"],
        &["filter"],
        &["override", "t1", "keep", "--reason", "ok"],
        &["override", "--undo-group", "g1"],
        &["env", "try", "t1"],
    ];
    let reading: [&[&str]; 3] = [&["tasks", "list"], &["stats"], &["export"]];
    for args in reading.into_iter().chain(deciding) {
        let (code, _, err) = outcome(tw(&typo).args(args));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("no store at") && err.contains("tuplewrite.db"),
            "{args:?}: {err}"
        );
        assert!(!typo.exists(), "{args:?} created {}", typo.display());
    }
}

#[test]
fn fault_depth_out_of_range_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let tasks = format!("{EXAMPLES}/tasks.json");
    let (code, _, err) = outcome(tw(&db).args(["run", &tasks, "--fault-depth", "9"]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--fault-depth") && err.contains("1..=3"),
        "{err}"
    );
    assert!(!db.exists());
}

#[test]
fn an_unknown_theme_lists_the_choices() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::cargo_bin("tuplewright").unwrap();
    cmd.current_dir(dir.path())
        .env_remove("TUPLEWRIGHT_THEME")
        .args(["--store", "none.db", "--theme", "purple"]);
    let (code, _, err) = outcome(&mut cmd);
    assert_eq!(code, 2, "{err}");
    for word in ["purple", "dark", "light", "FILE"] {
        assert!(err.contains(word), "{word}: {err}");
    }
}

mod readonly_medium;
