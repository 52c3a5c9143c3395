//! Adding an app (issue #29): `apps new agenda --from mail` in a copy of this source tree,
//! an edit inside the new folder only, one registry line — then the rebuilt binary lists the
//! app, serves it, runs its tasks and passes `apps check agenda`. A pack with Rust code
//! needs the rebuild; the copy's target starts from a copy of this build's compiled
//! dependencies, so only the crate itself compiles again.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Copies the source tree (not `target/`, `.git`, outputs or stores) to `to`.
fn copy_tree(to: &Path) {
    let skip = ["target", ".git", "output", "tuplewright.db"];
    for entry in walkdir::WalkDir::new(ROOT).into_iter().filter_entry(|e| {
        e.depth() != 1 || !skip.iter().any(|s| e.file_name().to_string_lossy() == *s)
    }) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(ROOT).unwrap();
        let dst = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
        } else if entry.file_type().is_file() || entry.path_is_symlink() {
            // A linked file (one template's reward shared by another) is copied as its content.
            std::fs::copy(entry.path(), &dst).unwrap();
        }
    }
}

/// Files of `copy` whose content differs from this tree's, or that this tree lacks.
fn changed_files(copy: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let sources = ["src", "crates"].map(|d| walkdir::WalkDir::new(copy.join(d)));
    for entry in sources.into_iter().flatten() {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(copy).unwrap();
        let ours = std::fs::read(Path::new(ROOT).join(rel)).ok();
        if ours.as_deref() != Some(std::fs::read(entry.path()).unwrap().as_slice()) {
            out.push(rel.to_string_lossy().to_string());
        }
    }
    out.sort();
    out
}

/// This test binary's target profile directory (`…/target/debug`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// Whether `name` (in `deps/`, `build/` or `.fingerprint/`) belongs to a dependency, not to this
/// package (its library, binary and the test executables, which the copy rebuilds anyway): only
/// dependencies are copied, so the copy costs the dependencies' size, not the whole target's.
fn is_dependency_artifact(name: &str, in_deps: bool) -> bool {
    let ours = name.starts_with("tuplewright") || name.starts_with("libtuplewright");
    let library = [".rlib", ".rmeta", ".so"].iter().any(|e| name.ends_with(e));
    !ours && (!in_deps || library)
}

fn build_copy(copy: &Path) -> PathBuf {
    let target = copy.join("target");
    let debug = target.join("debug");
    for sub in ["deps", "build", ".fingerprint"] {
        let into = debug.join(sub);
        std::fs::create_dir_all(&into).unwrap();
        for entry in std::fs::read_dir(profile_dir().join(sub)).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().to_string();
            if !is_dependency_artifact(&name, sub == "deps") {
                continue;
            }
            // A real copy: the copy's build may rewrite build-script outputs and fingerprints,
            // which must not reach this tree's target through shared (hard-linked) files.
            let st = Command::new("cp")
                .arg("-a")
                .arg(entry.path())
                .arg(into.join(&name))
                .status()
                .unwrap();
            assert!(st.success(), "copying {sub}/{name}");
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(copy)
        .env("CARGO_TARGET_DIR", &target)
        .args(["build", "--bin", "tuplewright"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    debug.join("tuplewright")
}

#[test]
fn a_new_app_from_mail_is_one_folder_and_one_registry_line_and_passes_apps_check() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("src-copy");
    copy_tree(&copy);
    let made = Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .args(["apps", "new", "agenda", "--from", "mail", "--root"])
        .arg(&copy)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    // The newcomer's edit, inside the new folder only.
    let manifest = copy.join("crates/engine/src/apps/agenda/manifest.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("title = \"agenda\"", "title = \"Agenda\""),
    )
    .unwrap();
    let outside: Vec<String> = changed_files(&copy)
        .into_iter()
        .filter(|f| !f.starts_with("crates/engine/src/apps/agenda/"))
        .collect();
    assert_eq!(outside, ["crates/engine/src/apps/mod.rs"]);
    let before =
        std::fs::read_to_string(Path::new(ROOT).join("crates/engine/src/apps/mod.rs")).unwrap();
    let after = std::fs::read_to_string(copy.join("crates/engine/src/apps/mod.rs")).unwrap();
    assert_eq!(after.lines().count(), before.lines().count() + 1);
    assert!(after.contains("\n    agenda,\n"));

    let bin = build_copy(&copy);
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    // Listed, as a generated web app with mail's 22 tasks.
    let out = Command::new(&bin)
        .current_dir(&work)
        .args(["apps", "list", "--json"])
        .output()
        .unwrap();
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let cal = rows
        .iter()
        .find(|r| r["name"] == "agenda")
        .expect("agenda listed");
    assert_eq!(cal["origin"], "generated");
    assert_eq!(cal["kind"], "web");
    assert_eq!(cal["tasks"], 22);
    assert_eq!(cal["screen"], true);
    // Served: a fresh session is its seed.
    let mut serve = Command::new(&bin)
        .current_dir(&work)
        .args(["env", "serve", "--app", "agenda", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(serve.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = serde_json::from_str::<Value>(&line).unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    let go: Value = ureq::get(&format!("{url}/go?sid=cal"))
        .call()
        .unwrap()
        .body_mut()
        .read_json()
        .unwrap();
    serve.kill().unwrap();
    serve.wait().unwrap();
    assert!(go["current_state"]["messages"].as_array().unwrap().len() > 10);
    // Its tasks run (the loop accepts every one) and the whole conformance holds.
    let check = Command::new(&bin)
        .current_dir(&work)
        .args(["apps", "check", "agenda", "--json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&check.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&check.stderr)));
    assert_eq!(report[0]["ok"], true, "{report:#}");
    assert!(check.status.success());
}
