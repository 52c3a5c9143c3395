//! App packs (issue #29): the registry is the only place outside a pack that names its app,
//! `apps list --json` has its documented shape, and `apps check` passes for every built-in
//! pack, run for real (state API, loop, ui-oracle and `noop --screen` through real screens).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tuplewright"))
}

/// The code of a Rust file that counts: all of it for ordinary files, nothing for test files
/// (`tests.rs`, `*_tests.rs`, anything under a `tests/` folder) and, in other files, the text
/// before the first `#[cfg(test)]` (unit tests are tests, which the rule excludes).
fn counted_code(path: &Path) -> String {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let in_tests = path.components().any(|c| c.as_os_str() == "tests");
    if name == "tests.rs" || name.ends_with("_tests.rs") || in_tests {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Whether `code` names the app `name` whose pack module is `module`.
///
/// A file names an app when it holds the app's name as a string literal (`"issue-tracker"`)
/// or its pack's module path (`apps::issue_tracker`, or the bare module identifier when it is
/// not an English word, i.e. has an underscore). These literals do NOT count, being other things
/// spelt the same: a JSON object key (`"files":`), an index or lookup (`["files"]`,
/// `.get("files")`), a clap attribute line (`#[arg(… "files")]`: an argument name), a `//`
/// doc/comment line, and a line marked `not the app: <what it is>` (a slot name, a category,
/// a mode — each marked where it stands).
fn names_app(code: &str, name: &str, module: &str) -> bool {
    let lit = format!("\"{name}\"");
    let path = format!("apps::{module}");
    let ident_re = regex::Regex::new(&format!(r"\b{module}\b")).unwrap();
    code.lines().any(|line| {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with("#[") || line.contains("not the app") {
            return false;
        }
        let by_literal = line.match_indices(&lit).any(|(i, _)| {
            let after = line[i + lit.len()..].trim_start();
            let before = &line[..i];
            !after.starts_with(':') && !before.ends_with('[') && !before.ends_with("get(")
        });
        let ident = module.contains('_') && ident_re.is_match(line);
        by_literal || line.contains(&path) || ident
    })
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect()
}

/// For every app, the files under src/ outside its pack that name it number at most 1 — the
/// registry `crates/engine/src/apps/mod.rs`, which lists every pack (one line each). Cross-app material
/// (`crates/engine/src/apps/cross/`: the recipes and ui-oracle plans of tasks spanning apps) names the apps
/// it spans by nature and is not counted; docs and tests are not counted (see
/// [`counted_code`], [`names_app`]). Fails on the code before the packs (21 places).
#[test]
fn no_file_outside_a_pack_but_the_registry_names_its_app() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let registry =
        std::fs::read_to_string(Path::new(ROOT).join("crates/engine/src/apps/mod.rs")).unwrap();
    let mut problems = Vec::new();
    for pack in tuplewright::apps::all() {
        let (name, dir) = (pack.name(), pack.app.dir());
        let module = dir.rsplit('/').next().unwrap();
        assert!(
            registry.contains(&format!("\n    {module},\n")),
            "the registry lists {module}"
        );
        let mut naming = vec!["crates/engine/src/apps/mod.rs".to_string()];
        let sources = ["src", "crates"].map(|d| rust_files(&Path::new(ROOT).join(d)));
        for file in sources.into_iter().flatten() {
            let rel = file
                .strip_prefix(ROOT)
                .unwrap()
                .to_string_lossy()
                .to_string();
            let own = rel.starts_with(&format!("{dir}/"));
            if own
                || rel == "crates/engine/src/apps/mod.rs"
                || rel.starts_with("crates/engine/src/apps/cross/")
            {
                continue;
            }
            if names_app(&counted_code(&file), name, module) {
                naming.push(rel);
            }
        }
        if naming.len() > 1 {
            problems.push(format!("{name}: {naming:?}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_naming_rule_sees_literals_paths_and_modules_and_skips_keys_and_marks() {
    let _heavy = crate::common::one_heavy_at_a_time();
    assert!(names_app(r#"match a { "files" => 1 }"#, "files", "files"));
    assert!(names_app("use crate::apps::mail::ui;", "mail", "mail"));
    assert!(names_app("    team_chat,", "team-chat", "team_chat"));
    assert!(!names_app(r#"json!({"files": n})"#, "files", "files"));
    assert!(!names_app(r#"v["files"].clone()"#, "files", "files"));
    assert!(!names_app(r#"x.get("files")"#, "files", "files"));
    assert!(!names_app(
        r#""files", // not the app: a slot name"#,
        "files",
        "files"
    ));
    assert!(!names_app("let mail = 1; // mail", "mail", "mail"));
}

#[test]
fn apps_list_json_has_every_environment_with_its_fields() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tuplewright.toml");
    std::fs::write(
        &cfg,
        "[apps]\naliases = { notes = \"wiki\" }\n[[apps.external]]\nname = \"wiki\"\nurl = \"http://127.0.0.1:9\"\n",
    )
    .unwrap();
    let out = bin()
        .args(["--config"])
        .arg(&cfg)
        .args(["apps", "list", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(
        names[..10],
        [
            "team-chat",
            "mail",
            "issue-tracker",
            "ecommerce-admin",
            "files",
            "libreoffice_calc",
            "libreoffice_writer",
            "libreoffice_impress",
            "code_editor",
            "chrome",
        ]
    );
    // Then every spec-built pack (docs/envgen.md), then the external app.
    let builtin = tuplewright::apps::names();
    assert_eq!(names[..names.len() - 1], builtin[..]);
    assert_eq!(names[names.len() - 1], "wiki");
    for r in &rows {
        let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        let mut keys = keys;
        keys.sort();
        // A spec-built app (issue #32) also carries its spec's path.
        let spec_built = tuplewright::apps::get(r["name"].as_str().unwrap())
            .is_some_and(|p| p.app.spec_text().is_some());
        let mut want = vec![
            "aliases", "category", "kind", "leaves", "name", "origin", "screen",
        ];
        if spec_built {
            want.push("spec");
        }
        want.push("tasks");
        assert_eq!(keys, want);
    }
    assert_eq!(rows[0]["category"], "communication");
    let by = |n: &str| rows.iter().find(|r| r["name"] == n).unwrap().clone();
    assert_eq!(
        by("todo")["spec"],
        "crates/engine/src/apps/todo/app.spec.toml"
    );
    assert_eq!(by("todo")["category"], "productivity");
    assert_eq!(by("wiki")["category"], "uncategorized");
    assert_eq!(by("mail")["kind"], "web");
    assert_eq!(by("mail")["aliases"], serde_json::json!(["gmail"]));
    assert_eq!(by("mail")["tasks"], 22);
    assert!(by("mail")["leaves"].as_u64().unwrap() > 0);
    assert_eq!(by("files")["kind"], "desktop");
    assert_eq!(by("files")["screen"], true);
    assert_eq!(by("files")["origin"], "builtin");
    assert_eq!(by("libreoffice_calc")["kind"], "desktop");
    assert_eq!(by("libreoffice_calc")["tasks"], 36);
    assert!(by("libreoffice_calc")["aliases"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("calc")));
    assert!(by("libreoffice_calc")["leaves"].as_u64().unwrap() >= 9);
    assert_eq!(by("wiki")["origin"], "external");
    assert_eq!(by("wiki")["aliases"], serde_json::json!(["notes"]));
    assert_eq!(by("wiki")["tasks"], 0);
}

/// `apps check` on the hand-written web packs, the files desktop and the spec-built todo, for
/// real: exit 0 and every app `ok` in the JSON. Desktop applications are checked by
/// tests/desktop and the other spec-built apps by tests/webapps, on samples (CI time).
#[test]
fn apps_check_passes_for_every_builtin_pack() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    // Desktop applications (LibreOffice…) are checked by their own binary, tests/desktop (CI time).
    let names: Vec<&str> = tuplewright::apps::all()
        .iter()
        .filter(|p| p.desktop().is_none())
        .filter(|p| p.app.spec_text().is_none() || p.name() == "todo")
        .map(|p| p.name())
        .collect();
    let out = bin()
        .current_dir(dir.path())
        .args(["apps", "check", "--json"])
        .args(&names)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report.as_array().unwrap().len(), names.len());
    for app in report.as_array().unwrap() {
        assert_eq!(app["ok"], true, "{app:#}");
    }
    assert!(out.status.success());
}

/// `apps check` fails, exit 1, on an app whose pack is broken — here: none is, so an unknown
/// app is a usage error (exit 2) naming the packs.
#[test]
fn apps_check_of_an_unknown_app_names_the_packs() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let out = bin().args(["apps", "check", "agenda"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("agenda") && err.contains("team-chat, mail"),
        "{err}"
    );
}
