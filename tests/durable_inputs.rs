//! Nothing leaked (issue 13): bundles and task files that hold symbolic links (to a secret file,
//! or relative links leaving the bundle), FIFOs or linked directories are refused with an error
//! naming the path, and nothing of the link's target reaches the store; a sandbox run's copy of
//! the script is readable by its own uid only; `sandbox run --role reader --home DIR` leaves the
//! owner of DIR alone. Real binary, real sandbox.

use std::os::unix::fs::{symlink, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::run_support;
use run_support::{bin, run, task_file};

/// One real bundle made by `run` (shared by the tests; copied before being tampered with).
fn bundle() -> &'static (tempfile::TempDir, PathBuf) {
    static B: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    B.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let tasks = task_file(dir.path(), 1);
        let out = dir.path().join("out");
        let o = run(&dir.path().join("t.db"), &tasks, &["--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let b = std::fs::read_dir(&out)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        (dir, b)
    })
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Puts something in place of a bundle file.
type Make = Box<dyn Fn(&Path)>;

const CANARY: &str = "CANARY-7f3a9c-host-secret";

/// `import PATH` into a fresh store: (exit code, stderr, every byte of the store files).
fn import(dir: &Path, path: &Path) -> (Option<i32>, String, Vec<u8>) {
    let db = dir.join(format!("s{}.db", uuid::Uuid::new_v4().simple()));
    let o = bin()
        .arg("--store")
        .arg(&db)
        .arg("import")
        .arg(path)
        .output()
        .unwrap();
    let mut bytes = Vec::new();
    for suffix in ["", "-wal"] {
        let p = PathBuf::from(format!("{}{suffix}", db.display()));
        bytes.extend(std::fs::read(p).unwrap_or_default());
    }
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).to_string(),
        bytes,
    )
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn bundles_holding_links_or_fifos_are_refused_and_nothing_is_read() {
    let (_keep, good) = bundle();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret");
    std::fs::write(&secret, format!("root:{CANARY}:19000::::::\n")).unwrap();
    std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
    std::fs::write(dir.path().join("elsewhere/config.json"), CANARY).unwrap();
    // (what, file in the bundle, how it is replaced)
    let link = |to: &Path| {
        let to = to.to_path_buf();
        Box::new(move |p: &Path| symlink(&to, p).unwrap()) as Make
    };
    let cases: Vec<(&str, &str, Make)> = vec![
        ("reward.py links to a host file", "reward.py", link(&secret)),
        ("REVIEW.md links to a host file", "REVIEW.md", link(&secret)),
        (
            "config.json is a relative link leaving the bundle",
            "config.json",
            link(Path::new("../../elsewhere/config.json")),
        ),
        ("an extra file links out", "notes.txt", link(&secret)),
        (
            "initial_setup.py is a FIFO",
            "initial_setup.py",
            Box::new(|p: &Path| {
                let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
                // SAFETY: a valid NUL-terminated path.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
            }),
        ),
    ];
    for (i, (what, file, make)) in cases.iter().enumerate() {
        let b = dir.path().join(format!("case{i}")).join("bundle");
        copy_dir(good, &b);
        let target = b.join(file);
        let _ = std::fs::remove_file(&target);
        make(&target);
        let (code, stderr, store) = import(dir.path(), &b);
        assert_eq!(code, Some(1), "{what}: {stderr}");
        assert!(
            stderr.contains(&target.display().to_string()),
            "{what}: the error names the path: {stderr}"
        );
        let kind = if file.ends_with(".py") && what.contains("FIFO") {
            "a FIFO"
        } else {
            "symbolic link"
        };
        assert!(stderr.contains(kind), "{what}: {stderr}");
        assert!(stderr.contains("bundle refused"), "{what}: {stderr}");
        assert!(
            !contains(&store, CANARY),
            "{what}: the target reached the store"
        );
        assert!(!stderr.contains(CANARY), "{what}: the target was read");
    }
    // verify reads bundles the same way: refused, nothing replayed, nothing stored.
    let db = dir.path().join("verify.db");
    let o = bin()
        .arg("--store")
        .arg(&db)
        .arg("verify")
        .arg(dir.path().join("case0/bundle"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert!(!contains(&std::fs::read(&db).unwrap_or_default(), CANARY));
    // A bundle directory that is itself a link, given directly.
    let linked = dir.path().join("linked-bundle");
    symlink(good, &linked).unwrap();
    let (code, stderr, _) = import(dir.path(), &linked);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
}

#[test]
fn linked_task_files_are_refused_whether_given_or_found_in_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let real = task_file(dir.path(), 1);
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    symlink(&real, tree.join("more.json")).unwrap();
    let (code, stderr, _) = import(dir.path(), &tree.join("more.json"));
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("more.json: is a symbolic link"), "{stderr}");
    let (code, stderr, store) = import(dir.path(), &tree);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("more.json: is a symbolic link"), "{stderr}");
    assert!(!contains(&store, "teamchat_"), "the linked file was read");
    // `run` reads task files the same way.
    let o = run(
        &dir.path().join("r.db"),
        &tree.join("more.json"),
        &["--no-export"],
    )
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("symbolic link"));
}

/// `sandbox run --role reader --home HOME probe.py`: the probe's JSON line from stdout.
fn probe_as_reader(dir: &Path, home: &Path) -> Value {
    let script = dir.join("probe.py");
    std::fs::write(
        &script,
        r#"import json, os
p = "/tmp/.tw/script/probe.py"
st, dt = os.stat(p), os.stat(os.path.dirname(p))
print("PROBE " + json.dumps({"file_mode": st.st_mode & 0o777, "dir_mode": dt.st_mode & 0o777,
    "file_uid": st.st_uid, "me": os.getuid(), "home": os.listdir("/home/user")}))
"#,
    )
    .unwrap();
    let o = bin()
        .args(["sandbox", "run", "--role", "reader", "--home"])
        .arg(home)
        .arg(&script)
        .output()
        .unwrap();
    let out: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&o.stderr)));
    let text = out["stdout"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("PROBE "))
        .unwrap_or_else(|| panic!("{out}"));
    serde_json::from_str(line).unwrap()
}

#[test]
fn a_reader_leaves_the_home_owner_alone_and_its_script_copy_is_private() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: ownership is only changed when the engine runs as root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("my-home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("notes.txt"), "mine\n").unwrap();
    for p in [&home, &home.join("notes.txt")] {
        std::os::unix::fs::lchown(p, Some(4242), Some(4242)).unwrap();
    }
    let seen = probe_as_reader(dir.path(), &home);
    assert_eq!(seen["home"], serde_json::json!(["notes.txt"]), "{seen}");
    for p in [&home, &home.join("notes.txt")] {
        let m = std::fs::symlink_metadata(p).unwrap();
        assert_eq!(
            (m.uid(), m.gid()),
            (4242, 4242),
            "{} was chowned",
            p.display()
        );
    }
    assert_eq!(seen["file_mode"], 0o600, "{seen}");
    assert_eq!(seen["dir_mode"], 0o700, "{seen}");
    assert_eq!(seen["file_uid"], seen["me"], "{seen}");
    assert_ne!(seen["me"], 0, "{seen}");
}
