//! The removal's ordering: rows first (committed), files after; a crash in between leaves only
//! unreferenced files, which the collector removes — never a row naming a missing file.

use std::time::Duration;

use serde_json::json;

use super::super::{Labels, Rollout, Store, StoreError, TaskRecord};
use super::NewStep;

fn store_with_trial(path: &std::path::Path, png: &[u8]) -> (Store, i64) {
    let mut store = Store::open(path, Duration::from_secs(5)).unwrap();
    let task = TaskRecord {
        task_id: "t".into(),
        instruction: "i".into(),
        context: String::new(),
        labels: Labels::default(),
        app_type: None,
        original_json: json!({}),
        origin: "test".into(),
    };
    let action = json!({"action": "screenshot"});
    let id = store
        .write(|tx| {
            tx.upsert_task(&task)?;
            let id = tx.record_rollout(&Rollout {
                task_id: "t".into(),
                model: "noop".into(),
                trial: 1,
                reward: Some(0.0),
                judge_verdict: None,
                failure: None,
                detail: json!({}),
                created_at: None,
            })?;
            let step = NewStep {
                action: &action,
                at_ms: 0,
                duration_ms: 0,
                error: None,
                settle_ms: None,
                screenshot_png: Some(png),
            };
            tx.record_trial_steps(id, &[step])?;
            Ok::<_, StoreError>(id)
        })
        .unwrap();
    (store, id)
}

#[test]
fn a_crash_between_deleting_rows_and_files_leaves_only_collectable_orphans() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let png = png_of(7);
    let sha = super::sha256_of_bytes(&png);
    let (mut store, id) = store_with_trial(&path, &png);
    let file = store.screenshots().path_of(&sha).unwrap();
    // The first half of a removal commits; the process "dies" before the second half.
    let (steps, orphans) = store.write(|tx| tx.delete_rollout_rows(id)).unwrap();
    assert_eq!((steps, orphans.as_slice()), (1, [sha.clone()].as_slice()));
    assert!(file.exists(), "files go only after the rows are gone");
    drop(store);
    let mut store = Store::open(&path, Duration::from_secs(5)).unwrap();
    assert!(store.trial_steps(id).unwrap().is_empty());
    assert_eq!(store.gc_screenshots().unwrap(), 1);
    assert!(!file.exists());
}

#[test]
fn a_file_whose_row_is_back_is_not_deleted_by_the_second_half() {
    let dir = tempfile::tempdir().unwrap();
    let png = png_of(9);
    let (mut store, id) = store_with_trial(&dir.path().join("s.db"), &png);
    let (_, orphans) = store.write(|tx| tx.delete_rollout_rows(id)).unwrap();
    // Another trial records the same frame between the two halves.
    let action = json!({"action": "screenshot"});
    let again = NewStep {
        action: &action,
        at_ms: 0,
        duration_ms: 0,
        error: None,
        settle_ms: None,
        screenshot_png: Some(&png),
    };
    store
        .write(|tx| {
            let rid = tx.record_rollout(&Rollout {
                task_id: "t".into(),
                model: "noop".into(),
                trial: 2,
                reward: Some(0.0),
                judge_verdict: None,
                failure: None,
                detail: json!({}),
                created_at: None,
            })?;
            tx.record_trial_steps(rid, &[again])
        })
        .unwrap();
    assert_eq!(
        store.write(|tx| tx.delete_unreferenced(&orphans)).unwrap(),
        0
    );
    assert!(store.screenshot_png(&orphans[0]).is_ok());
}

/// A 4×4 PNG of one grey level (the store keeps frames as PNG bytes; it never draws them).
fn png_of(level: u8) -> Vec<u8> {
    let mut png = Vec::new();
    image::RgbImage::from_pixel(4, 4, image::Rgb([level; 3]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    png
}
