//! PDFs in Evince (the pdf pack): shipped tasks pass the loop, are solved through the screen by
//! the ui-oracle (Evince's shortcuts, Ctrl+T, the settings key file waited on; a form; a highlight
//! dragged over a phrase placed from the task's layout) and `noop --screen` scores 0; the state reader turns PDFs into pages, text, form fields and annotations.

use serde_json::Value;

use super::support::{read_state, run, tasks};

const TASK: &str = "pdf_dual_sidebar";
/// A form filled on the page (fields by their order in Evince's tree) and saved as a copy.
const FORM_TASK: &str = "pdf_form_two";
/// A phrase highlighted on page 2: a drag over a place on the page, from the task's own layout.
const ANNOTATE_TASK: &str = "pdf_highlight_ref";

fn shims(dir: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let p = bin.join("evince");
    std::fs::write(&p, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn task(id: &str) -> Value {
    tasks("pdf")
        .into_iter()
        .find(|t| t["task_id"] == id)
        .unwrap_or_else(|| panic!("no task {id}"))
}

#[test]
fn a_pdf_task_passes_the_loop_is_solved_through_evince_and_noop_scores_zero() {
    let _heavy = crate::common::one_heavy_at_a_time();
    assert!(tasks("pdf").len() >= 30);
    let dir = tempfile::tempdir().unwrap();
    let ids = [TASK, FORM_TASK, ANNOTATE_TASK];
    let three = serde_json::json!({ "tasks": ids.map(task) }).to_string();
    let log = super::run_loop(dir.path(), &three);
    assert!(log.contains("accepted         3"), "{log}");
    let (rewards, err) = super::rollout(dir.path(), &["ui-oracle"], &ids);
    for (id, r) in &rewards {
        assert_eq!(*r, Some(1.0), "ui-oracle on {id}: {err}");
    }
    assert_eq!(rewards.len(), 3, "{err}");
    let (rewards, err) = super::rollout(dir.path(), &["noop", "--screen"], &[TASK]);
    assert_eq!(rewards[0].1, Some(0.0), "{err}");
}

#[test]
fn the_pdf_state_reader_reports_pages_fields_annotations_and_settings() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let bin = shims(tmp.path());
    let home = tmp.path().join("home");
    for (rel, data) in tuplewright::apps::get("pdf").unwrap().app.home() {
        let p = home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    let form = task("pdf_form_two");
    run(&form, "initial_setup", &home, &bin).unwrap();
    run(&form, "golden_patch", &home, &bin).unwrap();
    let note = task("pdf_note_check");
    run(&note, "initial_setup", &home, &bin).unwrap();
    run(&note, "golden_patch", &home, &bin).unwrap();
    std::fs::write(home.join("Documents/broken.pdf"), "%PDF-1.4 nothing").unwrap();
    let s = read_state("pdf", &home);
    let filled = &s["pdfs"]["Documents/visitor-pass-filled.pdf"];
    let fields = filled["page"][0]["fields"].as_array().unwrap();
    let name = fields.iter().find(|f| f["name"] == "full_name").unwrap();
    assert_eq!(name["value"], "Omar Haddad", "{filled}");
    let annotated = &s["pdfs"]["Documents/budget-annotated.pdf"];
    assert_eq!(annotated["pages"], 3);
    assert_eq!(annotated["page"][1]["annotations"][0]["type"], "Text");
    assert_eq!(
        annotated["page"][1]["annotations"][0]["content"],
        "Check this code"
    );
    assert!(annotated["page"][0]["text"]
        .as_str()
        .unwrap()
        .contains("Budget Plan - Part 1"));
    assert_eq!(annotated["metadata"]["author"], "Dana Ruiz");
    assert!(
        s["pdfs"]["Documents/broken.pdf"]["error"].is_string(),
        "{s}"
    );
    assert_eq!(s["settings"]["org/gnome/evince/default/dual-page"], "false");
}
