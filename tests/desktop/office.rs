//! The Writer and Impress packs against the real programs (#31): a sample of shipped tasks is
//! accepted by the loop, their golden documents survive a save by LibreOffice itself (headless
//! `soffice --convert-to`, what Ctrl+S writes) with r = 1 while the initial documents so saved
//! score 0, and the packs' state readers describe the golden documents. One task per sampled
//! template keeps the binary near a minute.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

const VENV_PYTHON: &str = "/opt/tuplewright/venv/bin/python3";
/// (pack, task ids): one task of each sampled template.
const SAMPLE: &[(&str, &[&str])] = &[
    (
        "libreoffice_writer",
        &[
            "libreoffice_writer_char-format_005",
            "libreoffice_writer_make-list_002",
            "libreoffice_writer_insert-paragraph_002",
        ],
    ),
    (
        "libreoffice_impress",
        &[
            "libreoffice_impress_transition_001",
            "libreoffice_impress_add-shape_001",
            "libreoffice_impress_speaker-notes_002",
        ],
    ),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The sampled tasks of every pack, as one task file.
fn sample_tasks(dir: &Path) -> PathBuf {
    let mut tasks = Vec::new();
    for (pack, ids) in SAMPLE {
        let text = std::fs::read_to_string(
            root()
                .join("crates/engine/src/apps")
                .join(pack)
                .join("tasks.json"),
        )
        .unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        for t in doc["tasks"].as_array().unwrap() {
            if ids.contains(&t["task_id"].as_str().unwrap()) {
                tasks.push(t.clone());
            }
        }
    }
    assert_eq!(tasks.len(), 6, "a sampled task id is not shipped");
    let path = dir.join("sample.json");
    std::fs::write(&path, serde_json::json!({ "tasks": tasks }).to_string()).unwrap();
    path
}

/// Runs the loop on the sample and returns the export directory.
fn loop_export(dir: &Path) -> PathBuf {
    let out = dir.join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .current_dir(dir)
        .args(["--no-tui", "run", "--jobs", "2", "--store"])
        .arg(dir.join("s.db"))
        .arg("--out")
        .arg(&out)
        .arg(sample_tasks(dir))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.status.success(), "{text}");
    assert!(text.contains("accepted         6"), "{text}");
    out
}

/// A rendered script of an exported tuple, pointed at `home` instead of /home/user and with the
/// GUI launch replaced by `true` (no screen here).
fn script(tuple: &Path, name: &str, home: &Path, to: &Path) -> PathBuf {
    let text = std::fs::read_to_string(tuple.join(name)).unwrap();
    let text = text
        .replace("/home/user", home.to_str().unwrap())
        .replace(r#"["libreoffice", "--writer", path]"#, r#"["true"]"#)
        .replace(r#"["libreoffice", "--impress", path]"#, r#"["true"]"#);
    let path = to.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn python(script: &Path) -> String {
    let out = Command::new(VENV_PYTHON).arg(script).output().unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn reward(out: &str) -> f64 {
    out.lines()
        .find_map(|l| l.strip_prefix("REWARD: "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no REWARD line in {out}"))
}

/// Saves `doc` through LibreOffice (headless, its own profile), in place; retried once, since a
/// headless soffice can hang on a loaded machine.
fn libreoffice_save(doc: &Path, work: &Path) {
    let ext = doc.extension().unwrap().to_str().unwrap();
    for attempt in 0..2 {
        let conv = work.join(format!("conv{attempt}"));
        let mut child = Command::new("soffice")
            .arg(format!(
                "-env:UserInstallation=file://{}/prof{attempt}",
                work.display()
            ))
            .args(["--headless", "--convert-to", ext, "--outdir"])
            .arg(&conv)
            .arg(doc)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("soffice (libreoffice-core) is installed");
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(200));
        }
        let _ = child.kill();
        let _ = child.wait();
        let saved = conv.join(doc.file_name().unwrap());
        if saved.is_file() {
            std::fs::copy(&saved, doc).unwrap();
            return;
        }
    }
    panic!("LibreOffice did not save {}", doc.display());
}

/// The one document the setup wrote under `home`.
fn document(home: &Path) -> PathBuf {
    let docs = home.join("Documents");
    std::fs::read_dir(&docs)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "docx" || x == "pptx"))
        .unwrap_or_else(|| panic!("no document under {}", docs.display()))
}

/// The sampled tasks solved through the screen by the ui-oracle (one Writer plan through the
/// Find & Replace dialog alone — a regular expression, every field checked —, one through the
/// Character dialog's Highlighting tab with its Hex field checked before OK, one Impress plan
/// through the Notes view); `docs/desktop-apps.md` quotes the run over every shipped task.
const UI_SAMPLE: [&str; 3] = [
    "libreoffice_writer_insert-paragraph_002",
    "libreoffice_writer_char-format_005",
    "libreoffice_impress_speaker-notes_002",
];

/// Golden and initial documents saved by LibreOffice itself: the reward still gives 1 and 0;
/// and a Writer and an Impress task of the sample are solved through the screen alone.
#[test]
fn rewards_read_what_libreoffice_saves_and_state_readers_describe_it() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let out = loop_export(dir.path());
    let (rewards, err) = super::rollout(dir.path(), &["ui-oracle"], &UI_SAMPLE);
    assert_eq!(rewards.len(), UI_SAMPLE.len(), "{err}");
    for (id, r) in &rewards {
        assert_eq!(*r, Some(1.0), "ui-oracle on {id}: {err}");
    }
    for (pack, ids) in SAMPLE {
        for id in *ids {
            let tuple = out.join(id);
            for golden in [true, false] {
                let work = dir.path().join(format!("{id}-{golden}"));
                let home = work.join("home");
                std::fs::create_dir_all(&home).unwrap();
                python(&script(&tuple, "initial_setup.py", &home, &work));
                if golden {
                    python(&script(&tuple, "golden_patch.py", &home, &work));
                }
                libreoffice_save(&document(&home), &work);
                let r = reward(&python(&script(&tuple, "reward.py", &home, &work)));
                assert_eq!(r, if golden { 1.0 } else { 0.0 }, "{id} golden={golden}");
                if golden {
                    state_reader_check(pack, id, &home);
                }
            }
        }
    }
}

/// The pack's state.py on a golden home: one JSON object showing what the task changed.
fn state_reader_check(pack: &str, id: &str, home: &Path) {
    let out = Command::new(VENV_PYTHON)
        .arg(
            root()
                .join("crates/engine/src/apps")
                .join(pack)
                .join("state.py"),
        )
        .arg(home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let state: Value = serde_json::from_slice(&out.stdout).unwrap();
    let doc = |key: &str, path: &str| state[key][path].clone();
    match id {
        "libreoffice_writer_char-format_005" => {
            let paras = doc("documents", "Documents/policy.docx")["paragraphs"].clone();
            let runs: Vec<&Value> = paras
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|p| p["runs"].as_array().unwrap())
                .collect();
            let hit = runs
                .iter()
                .find(|r| r["text"].as_str().unwrap().contains("three days per week"))
                .unwrap();
            assert!(hit["highlight"].as_str().is_some(), "{hit}");
        }
        "libreoffice_writer_insert-paragraph_002" => {
            let paras = doc("documents", "Documents/policy.docx")["paragraphs"].clone();
            let texts: Vec<&str> = paras
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["text"].as_str().unwrap())
                .collect();
            let at = texts.iter().position(|t| t.starts_with("Core hours are"));
            assert!(
                at.is_some_and(|i| texts[i + 1].starts_with("Meetings should be scheduled")),
                "{texts:?}"
            );
        }
        "libreoffice_impress_speaker-notes_002" => {
            let slides = doc("presentations", "Documents/lecture.pptx")["slides"].clone();
            assert_eq!(
                slides[0]["notes"], "Welcome students and take attendance.",
                "{slides}"
            );
            assert_eq!(
                slides[1]["notes"],
                Value::Null,
                "reading notes created a notes slide"
            );
        }
        "libreoffice_impress_transition_001" => {
            let slides = doc("presentations", "Documents/onboarding.pptx")["slides"].clone();
            assert!(
                slides
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|s| !s["transition"].is_null()),
                "{slides}"
            );
        }
        _ => assert!(state.is_object(), "{state}"),
    }
}

/// A document that is not a document is state (`error`), not a failure of the reader.
#[test]
fn state_readers_record_unreadable_documents_as_errors() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("Documents")).unwrap();
    std::fs::write(dir.path().join("Documents/broken.docx"), b"not a zip").unwrap();
    std::fs::write(dir.path().join("Documents/broken.pptx"), b"not a zip").unwrap();
    for (pack, key, path) in [
        ("libreoffice_writer", "documents", "Documents/broken.docx"),
        (
            "libreoffice_impress",
            "presentations",
            "Documents/broken.pptx",
        ),
    ] {
        let out = Command::new(VENV_PYTHON)
            .arg(
                root()
                    .join("crates/engine/src/apps")
                    .join(pack)
                    .join("state.py"),
            )
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let state: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(state[key][path]["error"].as_str().is_some(), "{state}");
    }
}
