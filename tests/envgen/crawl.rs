//! `envgen check` in a real Chromium on a real display (Xvfb + Debian Chromium, .ci/setup): the
//! todo pack agrees with its spec; a copy whose star button is wired to the wrong record (a
//! custom widget posting a fixed record id) is caught, naming the element, the view and the
//! wrong diff; `envgen compile` of a bad spec writes nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn tw(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run tuplewright");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn todo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/apps/todo")
}

/// A copy of the todo pack's spec and seed in `dir`, with `edit` applied to the spec.
fn copy_todo(dir: &Path, edit: impl Fn(String) -> String) -> PathBuf {
    let to = dir.join("todo_copy");
    std::fs::create_dir_all(&to).unwrap();
    let spec = std::fs::read_to_string(todo_dir().join("app.spec.toml")).unwrap();
    std::fs::write(to.join("app.spec.toml"), edit(spec)).unwrap();
    std::fs::copy(todo_dir().join("seed.json"), to.join("seed.json")).unwrap();
    to
}

#[test]
fn envgen_check_drives_every_element_and_names_a_miswired_one() {
    let tmp = tempfile::tempdir().unwrap();
    // The shipped pack agrees with its spec.
    let (code, out, err) = tw(&["envgen", "check", "todo", "--json"], tmp.path());
    assert_eq!(code, 0, "todo agrees with its spec: {out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["discrepancies"], serde_json::json!([]), "{out}");
    let layout: Value =
        serde_json::from_str(&std::fs::read_to_string(todo_dir().join("layout.json")).unwrap())
            .unwrap();
    let driven = layout["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] != "input")
        .count();
    assert_eq!(
        report["elements"].as_u64(),
        Some(driven as u64),
        "every link and button of layout.json was driven"
    );

    // The star button posts a fixed record id: it stars t004 whatever row it is on.
    let broken = copy_todo(tmp.path(), |s| {
        s.replace(
            "name = \"star_task\"\nlabel = \"Star\"\nentity = \"tasks\"\n",
            "name = \"star_task\"\nlabel = \"Star\"\nentity = \"tasks\"\nwidget = '<input type=\"hidden\" name=\"_record\" value=\"t004\">'\n",
        )
    });
    let (code, out, err) = tw(
        &["envgen", "check", broken.to_str().unwrap(), "--json"],
        tmp.path(),
    );
    assert_eq!(code, 1, "the miswired star is a discrepancy: {out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let found = report["discrepancies"].as_array().unwrap();
    let on_row = found
        .iter()
        .find(|d| d["element"] == "task_list-star_task-t003-submit")
        .unwrap_or_else(|| panic!("the row button of t003 is named: {out}"));
    assert_eq!(on_row["view"], "task_list", "{out}");
    assert_eq!(
        on_row["observed"],
        serde_json::json!(["tasks[t004].starred"]),
        "{out}"
    );
    assert_eq!(
        on_row["declared"],
        serde_json::json!(["tasks.starred"]),
        "{out}"
    );
    assert!(on_row["what"].as_str().unwrap().contains("(t003)"), "{out}");
    // Only the miswired action is named: every other element still agrees.
    assert!(
        found
            .iter()
            .all(|d| d["element"].as_str().unwrap().contains("star_task")),
        "{out}"
    );
}

#[test]
fn envgen_compile_of_a_bad_spec_names_file_and_line_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = copy_todo(tmp.path(), |s| {
        s.replace("type = \"date\"", "type = \"moment\"")
    });
    let (code, out, err) = tw(&["envgen", "compile", bad.to_str().unwrap()], tmp.path());
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("app.spec.toml:")
            && err.contains("unknown_field_type")
            && err.contains("moment"),
        "{err}"
    );
    let names: Vec<String> = std::fs::read_dir(&bad)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut names = names;
    names.sort();
    assert_eq!(names, ["app.spec.toml", "seed.json"], "nothing was written");
    // The good spec compiles to every derived file.
    let good = tmp.path().join("good");
    std::fs::create_dir_all(&good).unwrap();
    for f in ["app.spec.toml", "seed.json"] {
        std::fs::copy(todo_dir().join(f), good.join(f)).unwrap();
    }
    let (code, out, err) = tw(&["envgen", "compile", good.to_str().unwrap()], tmp.path());
    assert_eq!(code, 0, "{out}{err}");
    for f in [
        "manifest.toml",
        "layout.json",
        "CHANGES.md",
        "taxonomy.toml",
        "tasks.json",
        "SKILL.md",
    ] {
        let made = std::fs::read_to_string(good.join(f)).unwrap();
        let shipped = std::fs::read_to_string(todo_dir().join(f)).unwrap();
        assert_eq!(
            made, shipped,
            "{f}: the shipped pack is what compile derives (recompile it)"
        );
    }
}
