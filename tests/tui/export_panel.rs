//! Issue 33: export as a workbench action with a preview. `E` shows what `export` would write
//! (new / replaced / unchanged) and every tuple it leaves out with the reason; `enter` exports
//! through the engine's own export; the preview then shows every bundle unchanged. The CLI's
//! `export --preview --json` is the same preview and writes nothing.

use tuplewright::engine::bundle::export::ExportOptions;
use tuplewright::engine::bundle::preview::{Change, ExportPreview};
use tuplewright::engine::config::Config;
use tuplewright::tui::theme::Theme;

use super::filter_fixture::{keys_w, model_on, type_text, voted_copy};
use super::snapshots::{render, scrub};

fn opts(out: &std::path::Path) -> ExportOptions {
    let c = Config::default();
    ExportOptions {
        out: out.to_path_buf(),
        url_prefix: String::new(),
        statuses: c.export.statuses,
        task: None,
    }
}

#[test]
fn export_panel_previews_explains_exclusions_then_exports() {
    let (dir, path) = voted_copy();
    let out = dir.path().join("final");
    let (mut m, mut store) = model_on(&path, false);
    m.tuples.export_opts = Some(opts(&out));
    // A curator rejects one tuple (bulk, one marked): it must be left out, and say why.
    keys_w(&mut m, &mut store, "2 space R");
    type_text(&mut m, &mut store, "duplicate");
    keys_w(&mut m, &mut store, "enter");
    keys_w(&mut m, &mut store, "3 E");
    assert_eq!(m.screen, tuplewright::tui::action::Screen::Tuples);
    let p = m.tuples.export.clone().expect("the export panel");
    let pv: ExportPreview = p.preview.clone().expect("the preview");
    assert!(!p.busy);
    assert!(!out.exists(), "a preview writes nothing");
    let statuses = store.statuses().expect("statuses");
    let rejected: Vec<&String> = statuses
        .iter()
        .filter(|(_, s)| ["vote_rejected", "dropped"].contains(&s.as_str()))
        .map(|(id, _)| id)
        .collect();
    assert!(!rejected.is_empty(), "the fixture has a rejected tuple");
    for id in &rejected {
        let e = pv
            .excluded
            .iter()
            .find(|e| &&e.task_id == id)
            .expect("a rejected tuple is left out");
        assert!(e.why.contains("--include-rejected"), "{}", e.why);
    }
    assert_eq!(pv.planned.len() + pv.excluded.len(), statuses.len());
    assert!(pv.planned.iter().all(|b| b.change == Change::New));
    let theme = Theme::builtin("dark", true).expect("theme");
    let text = render(&m, &theme, 100, 30);
    assert!(text.contains("left out"), "{text}");
    let text = regex::Regex::new(r"/tmp/\S+/final")
        .unwrap()
        .replace_all(&text, "OUT/final                ");
    let text = regex::Regex::new(r"g\d{8}T\d{6}-[0-9a-f]{6}")
        .unwrap()
        .replace_all(&text, "gGROUP-ID-XXXXXXXXXX");
    // The status row ends with the decision's duration in ms, whose digits shift what fits in
    // 100 columns: the row and its styles are left out of the snapshot (its words are asserted).
    assert!(text.contains("1 decided"), "{text}");
    let text = regex::Regex::new(r#"(?m)^\s*" fixture\.db .*",\n"#)
        .unwrap()
        .replace_all(&text, "");
    let text = regex::Regex::new(r"(?m)^\s*x: \d+, y: 29, .*\n")
        .unwrap()
        .replace_all(&text, "");
    insta::assert_snapshot!("export_panel_preview_100x30", scrub(&text));
    // enter exports; the preview is recomputed and every bundle is now unchanged.
    keys_w(&mut m, &mut store, "enter");
    let p = m.tuples.export.clone().expect("panel stays");
    assert!(
        p.result
            .as_deref()
            .is_some_and(|r| r.contains(&format!("{} written", pv.planned.len()))),
        "{:?}",
        p.result
    );
    for b in &pv.planned {
        assert!(
            out.join(&b.task_id).join("meta.json").is_file(),
            "{}",
            b.task_id
        );
    }
    let after = p.preview.expect("preview again");
    assert!(after.planned.iter().all(|b| b.change == Change::Unchanged));
    // The CLI's preview is the same engine function and writes nothing either.
    let out2 = dir.path().join("cli_out");
    let cli = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .arg("--store")
        .arg(&path)
        .args(["--no-tui", "export", "--preview", "--json", "--out"])
        .arg(&out2)
        .output()
        .expect("run");
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&cli.stdout).expect("json");
    assert_eq!(
        json["planned"].as_array().map(Vec::len),
        Some(pv.planned.len())
    );
    assert_eq!(
        json["excluded"].as_array().map(Vec::len),
        Some(pv.excluded.len())
    );
    assert!(!out2.exists(), "--preview writes nothing");
    keys_w(&mut m, &mut store, "esc");
    assert!(m.tuples.export.is_none());
}
