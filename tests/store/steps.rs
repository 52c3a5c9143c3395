//! Screen-trial steps in the store: de-duplicated content-addressed screenshots beside the store
//! file, removal with their trial, crash-safe ordering, and a reopened store reading the same.

use serde_json::json;
use tuplewright::engine::screen::encode_png;
use tuplewright::engine::store::{NewStep, Rollout, Store, StoreError};

use super::{open, task};

/// A real PNG of a w×h frame filled with `shade`.
fn png(shade: u8) -> Vec<u8> {
    encode_png(&[shade; 8 * 6 * 3], 8, 6).unwrap()
}

fn rollout(model: &str, trial: i64) -> Rollout {
    Rollout {
        task_id: "t_001".into(),
        model: model.into(),
        trial,
        reward: Some(0.0),
        judge_verdict: None,
        failure: None,
        detail: json!({}),
        created_at: None,
    }
}

/// Records one trial whose steps carry the given screenshots; returns its id.
fn trial(store: &mut Store, n: i64, shots: &[Option<&[u8]>]) -> i64 {
    let actions: Vec<_> = (0..shots.len())
        .map(|i| json!({"action": "left_click", "x": i, "y": 2}))
        .collect();
    let steps: Vec<NewStep<'_>> = shots
        .iter()
        .zip(&actions)
        .enumerate()
        .map(|(i, (png, action))| NewStep {
            action,
            at_ms: 10 * i as u64,
            duration_ms: 3,
            error: (i == 1).then_some("coordinate outside the screen"),
            settle_ms: None,
            screenshot_png: *png,
        })
        .collect();
    store
        .write(|tx| {
            let id = tx.record_rollout(&rollout("ui-oracle", n))?;
            tx.record_trial_steps(id, &steps)?;
            Ok::<_, StoreError>(id)
        })
        .unwrap()
}

fn files(store: &Store) -> usize {
    let root = store.screenshots().root();
    if !root.exists() {
        return 0;
    }
    walkdir::WalkDir::new(root)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .count()
}

fn rows(store: &Store, table: &str) -> i64 {
    store
        .conn()
        .sqlite()
        .unwrap()
        .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn identical_screenshots_are_stored_once_within_and_across_trials() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
    let (a, b) = (png(10), png(200));
    let first = trial(&mut store, 1, &[Some(&a), Some(&a), None, Some(&b)]);
    let second = trial(&mut store, 2, &[Some(&b), Some(&a)]);
    assert_eq!(files(&store), 2, "two distinct frames, two files");
    assert_eq!(rows(&store, "screenshots"), 2);
    let steps = store.trial_steps(first).unwrap();
    assert_eq!(steps.len(), 4);
    assert_eq!(steps[0].screenshot, steps[1].screenshot);
    assert!(steps[2].screenshot.is_none());
    assert_eq!(
        steps[1].error.as_deref(),
        Some("coordinate outside the screen")
    );
    let shot = steps[3].screenshot.clone().unwrap();
    assert_eq!(
        (shot.width, shot.height, shot.bytes),
        (8, 6, b.len() as u64)
    );
    assert_eq!(store.screenshot_png(&shot.sha256).unwrap(), b);
    assert_eq!(store.trial_steps(second).unwrap()[0].screenshot, Some(shot));
    assert!(store.check_integrity().unwrap().is_empty());
}

#[test]
fn removing_a_trial_removes_its_steps_and_only_the_screenshots_nobody_else_uses() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
    let (a, b, c) = (png(1), png(2), png(3));
    let first = trial(&mut store, 1, &[Some(&a), Some(&b)]);
    let second = trial(&mut store, 2, &[Some(&b), Some(&c)]);
    let removed = store.remove_rollout(first).unwrap();
    assert_eq!((removed.steps, removed.screenshot_files), (2, 1));
    assert!(store.trial_steps(first).unwrap().is_empty());
    assert_eq!(files(&store), 2, "b is still used by the second trial");
    assert_eq!(store.trial_steps(second).unwrap().len(), 2);
    assert_eq!(store.rollout_ids("t_001").unwrap(), [second]);
    let removed = store.remove_rollout(second).unwrap();
    assert_eq!((removed.steps, removed.screenshot_files), (2, 2));
    assert_eq!((files(&store), rows(&store, "screenshots")), (0, 0));
    let err = store.remove_rollout(second).unwrap_err().to_string();
    assert!(
        err.contains(&format!("no rollout trial with id {second}")),
        "{err}"
    );
    assert!(store.check_integrity().unwrap().is_empty());
}

#[test]
fn a_screenshot_file_is_complete_on_disk_before_its_row_commits() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
    let a = png(42);
    let root = store.screenshots().clone();
    let action = json!({"action": "screenshot"});
    let step = NewStep {
        action: &action,
        at_ms: 0,
        duration_ms: 1,
        error: None,
        settle_ms: None,
        screenshot_png: Some(&a),
    };
    // Inside the transaction, before commit: the file is already under its final name, whole.
    // Then the transaction fails and rolls back: the rows are gone, the file is an orphan.
    let err = store
        .write(|tx| {
            let id = tx.record_rollout(&rollout("ui-oracle", 1))?;
            tx.record_trial_steps(id, &[step])?;
            let sha = tuplewright::engine::store::sha256_of_bytes(&a);
            assert_eq!(std::fs::read(root.path_of(&sha)?).unwrap(), a);
            Err::<(), _>(StoreError::Invalid("simulated crash before commit".into()))
        })
        .unwrap_err();
    assert!(err.to_string().contains("simulated crash"));
    assert_eq!(
        (rows(&store, "trial_steps"), rows(&store, "screenshots")),
        (0, 0)
    );
    assert_eq!(files(&store), 1);
    // A collector removes exactly the orphan (and stray temporary files), never a used file.
    std::fs::write(root.root().join(".tmp-left-by-a-crash.png"), b"x").unwrap();
    let kept = trial(&mut store, 2, &[Some(&png(7))]);
    assert_eq!(store.gc_screenshots().unwrap(), 2);
    assert_eq!(files(&store), 1);
    let sha = store.trial_steps(kept).unwrap()[0]
        .screenshot
        .clone()
        .unwrap()
        .sha256;
    assert!(store.screenshot_png(&sha).is_ok());
    assert_eq!(store.gc_screenshots().unwrap(), 0);
}

#[test]
fn a_bad_screenshot_is_refused_naming_the_step_and_nothing_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(&dir.path().join("s.db"));
    store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
    let good = png(5);
    let action = json!({"action": "wait", "seconds": 1.0});
    let mk = |png: &'static [u8]| NewStep {
        action: &action,
        at_ms: 0,
        duration_ms: 0,
        error: None,
        settle_ms: None,
        screenshot_png: Some(png),
    };
    let good: &'static [u8] = good.leak();
    let err = store
        .write(|tx| {
            let id = tx.record_rollout(&rollout("ui-oracle", 1))?;
            tx.record_trial_steps(id, &[mk(good), mk(b"not a png")])
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("step 1: the screenshot is not a PNG"), "{err}");
    assert_eq!(rows(&store, "rollouts"), 0);
    assert_eq!(rows(&store, "trial_steps"), 0);
}

#[test]
fn a_reopened_store_reads_the_same_steps_and_screenshots() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let (a, b) = (png(9), png(99));
    let (id, before) = {
        let mut store = open(&path);
        store.write(|tx| tx.upsert_task(&task("t_001"))).unwrap();
        let id = trial(&mut store, 1, &[Some(&a), None, Some(&b)]);
        (id, store.trial_steps(id).unwrap())
    };
    let store = Store::open_readonly(&path, std::time::Duration::from_secs(5)).unwrap();
    let after = store.trial_steps(id).unwrap();
    assert_eq!(after, before);
    assert_eq!(
        after[1].action,
        json!({"action": "left_click", "x": 1, "y": 2})
    );
    assert_eq!(
        (after[0].at_ms, after[2].at_ms, after[2].duration_ms),
        (0, 20, 3)
    );
    let shot = after[2].screenshot.as_ref().unwrap();
    assert_eq!(store.screenshot_png(&shot.sha256).unwrap(), b);
}
