//! Local packs (#29, "where data suffices the pack is data"): a folder holding a spec and its seed
//! is a whole environment for the installed binary — listed, checked and run through the loop
//! without a source checkout, a registry line or a rebuild; a bad one stops every command,
//! naming the folder and the file.

use std::path::Path;
use std::process::{Command, Output};

fn tw(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .current_dir(dir)
        .env_remove("TUPLEWRIGHT_CONFIG")
        .env_remove("TUPLEWRIGHT_PACKS")
        .args(args)
        .output()
        .expect("running tuplewright")
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let o = tw(dir, args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(dir: &Path, args: &[&str]) -> String {
    let o = tw(dir, args);
    assert!(!o.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_local_pack_is_listed_checked_and_run_by_the_installed_binary() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ok(dir, &["apps", "new", "notes", "--from", "todo", "--local"]);
    let files: Vec<String> = std::fs::read_dir(dir.join("apps/notes"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.len(), 2, "only the spec and its seed: {files:?}");

    let rows: serde_json::Value =
        serde_json::from_str(&ok(dir, &["apps", "list", "--json"])).unwrap();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "notes")
        .expect("the local pack is listed");
    assert_eq!(row["origin"], "generated");
    assert_eq!(row["kind"], "web");
    assert!(row["tasks"].as_u64().unwrap() > 10, "{row}");
    assert!(
        row["spec"]
            .as_str()
            .unwrap()
            .ends_with("apps/notes/app.spec.toml"),
        "{row}"
    );
    ok(dir, &["apps", "check", "notes", "--files-only"]);

    // One of its derived tasks through the loop on the embedded default.
    ok(dir, &["envgen", "compile", "apps/notes"]);
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("apps/notes/tasks.json")).unwrap())
            .unwrap();
    let first = &all["tasks"][0];
    let id = first["task_id"].as_str().unwrap().to_string();
    assert!(
        id.starts_with("notes"),
        "tasks renamed to the new app: {id}"
    );
    let one = serde_json::json!({ "tasks": [first] });
    std::fs::write(dir.join("one.json"), one.to_string()).unwrap();
    ok(
        dir,
        &["--no-tui", "run", "--jobs", "1", "--out", "out", "one.json"],
    );
    assert!(
        dir.join("out").join(&id).join("reward.py").is_file(),
        "the accepted tuple is exported"
    );
}

#[test]
fn a_bad_local_pack_stops_every_command_naming_its_folder_and_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ok(dir, &["apps", "new", "notes", "--from", "todo", "--local"]);
    let spec = dir.join("apps/notes/app.spec.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(
        &spec,
        text.replacen("type = \"date\"", "type = \"moment\"", 1),
    )
    .unwrap();
    let e = err(dir, &["apps", "list"]);
    assert!(
        e.contains("apps/notes") && e.contains("app.spec.toml:") && e.contains("moment"),
        "{e}"
    );

    // A local pack may not take a built-in app's name or alias.
    std::fs::write(
        &spec,
        text.replacen("name = \"notes\"", "name = \"todo\"", 1),
    )
    .unwrap();
    let e = err(dir, &["apps", "list"]);
    assert!(
        e.contains("\"todo\"") && e.contains("crates/engine/src/apps/todo"),
        "{e}"
    );

    // A configured folder must exist.
    std::fs::write(&spec, &text).unwrap();
    std::fs::write(
        dir.join("tuplewright.toml"),
        "[apps]\npacks = [\"elsewhere\"]\n",
    )
    .unwrap();
    let e = err(dir, &["apps", "list"]);
    assert!(e.contains("[apps] packs") && e.contains("elsewhere"), "{e}");
    std::fs::write(dir.join("tuplewright.toml"), "[apps]\npacks = [\"apps\"]\n").unwrap();
    assert!(ok(dir, &["apps", "list"]).contains("notes"));
}
