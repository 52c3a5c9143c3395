//! What ships as data (issue 28): no seed, shipped task or template holds an unfilled placeholder;
//! the seeds do not repeat themselves; the seed generator reproduces the committed seeds.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every regular file under `dir` (hidden ones included), sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    out.sort();
    out
}

/// Every string in a JSON document.
fn strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) => out.push(s),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.push(k);
            strings(x, out)
        }),
        _ => {}
    }
}

/// The unfilled placeholders in `text`: `{name}` (Python format fields, `ER-{n}`), `{{…}}`
/// (mustache), `${…}`, and TODO/FIXME markers.
fn placeholders(text: &str) -> Vec<String> {
    let re = regex::Regex::new(
        r"\{\{[^}]*\}\}|\$\{[^}]*\}|\{[A-Za-z_][A-Za-z0-9_]*\}|\bTODO\b|\bFIXME\b",
    )
    .unwrap();
    // Chromium's own search-URL template tokens are data, not unfilled placeholders.
    re.find_iter(text)
        .map(|m| m.as_str().to_string())
        .filter(|p| p != "{searchTerms}")
        .collect()
}

#[test]
fn the_placeholder_check_sees_what_it_must() {
    assert_eq!(
        placeholders("Your expense report ER-{n} was approved"),
        ["{n}"]
    );
    assert_eq!(
        placeholders("Hi {{name}}, ${user} TODO"),
        ["{{name}}", "${user}", "TODO"]
    );
    assert!(placeholders(r#"{"a": {"b": 1}} 100% done, To do list"#).is_empty());
}

#[test]
fn no_seed_shipped_task_or_template_holds_an_unfilled_placeholder() {
    let root = Path::new(ROOT);
    let mut found = Vec::new();
    let mut json_files = files_under(&root.join("assets/tasks"));
    json_files.extend(
        files_under(&root.join("crates/engine/src/apps"))
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n == "seed.json" || n == "tasks.json")
            }),
    );
    let mut checked = 0;
    for path in json_files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut all = Vec::new();
        strings(&doc, &mut all);
        for s in all {
            checked += 1;
            for p in placeholders(s) {
                found.push(format!("{}: {p} in {s:?}", path.display()));
            }
        }
    }
    // The files desktop's seed home and the scripted agents' templates, as text.
    let mut texts = files_under(&root.join("crates/engine/src/apps/files/home"));
    texts.extend(
        files_under(&root.join("skills"))
            .into_iter()
            .chain(files_under(&root.join("crates/engine/src/apps")))
            .filter(|p| p.components().any(|c| c.as_os_str() == "templates")),
    );
    for path in texts {
        let text = std::fs::read_to_string(&path).unwrap();
        checked += 1;
        for p in placeholders(&text) {
            found.push(format!("{}: {p}", path.display()));
        }
    }
    assert!(checked > 1000, "only {checked} strings and files checked");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A mail subject with its numbers taken out (`Invoice #5460 …` → `Invoice #N …`).
fn shape(subject: &str) -> String {
    regex::Regex::new(r"\d+")
        .unwrap()
        .replace_all(subject, "N")
        .into_owned()
}

#[test]
fn the_seeds_do_not_repeat_themselves() {
    let seed = |app: &str| -> Value {
        let p = Path::new(ROOT)
            .join("crates/engine/src/apps")
            .join(app.replace('-', "_"))
            .join("seed.json");
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let mail = seed("mail");
    let messages = mail["messages"].as_array().unwrap();
    let mut per_shape: BTreeMap<String, usize> = BTreeMap::new();
    for m in messages {
        *per_shape
            .entry(shape(m["subject"].as_str().unwrap()))
            .or_default() += 1;
    }
    assert!(
        per_shape.len() * 2 >= messages.len(),
        "{} kinds of subject over {} messages: {per_shape:?}",
        per_shape.len(),
        messages.len()
    );
    let most = per_shape.values().max().copied().unwrap_or(0);
    assert!(most <= 8, "one subject on {most} messages: {per_shape:?}");
    // A chat channel never shows the same top-level message twice.
    let chat = seed("team-chat");
    for (cid, msgs) in chat["messages"].as_object().unwrap() {
        let mut seen = BTreeSet::new();
        for m in msgs
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["threadTs"].is_null())
        {
            let text = m["text"].as_str().unwrap();
            assert!(seen.insert(text), "{cid} repeats {text:?}");
        }
    }
    let dm_openers: BTreeSet<&str> = chat["dms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            chat["messages"][d["id"].as_str().unwrap()][0]["text"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(dm_openers.len(), chat["dms"].as_array().unwrap().len());
}

#[test]
fn the_seed_generator_reproduces_the_committed_seeds() {
    let root = Path::new(ROOT);
    let tmp = tempfile::tempdir().unwrap();
    let copy = |from: &Path, to: &Path| {
        for f in files_under(from) {
            let dst = to.join(f.strip_prefix(from).unwrap());
            std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
            std::fs::copy(&f, &dst).unwrap();
        }
    };
    copy(
        &root.join("crates/engine/src/apps"),
        &tmp.path().join("crates/engine/src/apps"),
    );
    copy(&root.join("assets/tasks"), &tmp.path().join("assets/tasks"));
    let out = std::process::Command::new("/usr/bin/python3")
        .arg(tmp.path().join("crates/engine/src/apps/generate_seeds.py"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for pack in ["team_chat", "mail", "issue_tracker", "ecommerce_admin"] {
        let rel = format!("crates/engine/src/apps/{pack}/seed.json");
        assert!(
            std::fs::read(tmp.path().join(&rel)).unwrap()
                == std::fs::read(root.join(&rel)).unwrap(),
            "generate_seeds.py does not reproduce {rel}"
        );
    }
}
