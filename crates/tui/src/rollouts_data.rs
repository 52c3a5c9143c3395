//! What the Rollouts screen reads: the trial list (of one tuple or of the whole store), each row
//! with the outcome of its batch (the probe check for oracle/noop, the A.4.2 inclusion rule for a
//! teacher), and one trial's detail with its screenshot decoded. Runs on the store worker.
//!
//! A screen-capable policy records its screenshot in the trial's `detail` under
//! [`SCREENSHOT_KEY`] (a PNG/JPEG path, absolute or relative to the store's directory) or
//! [`SCREENSHOTS_KEY`] (a list of paths; the last one is shown).

use std::path::{Path, PathBuf};

use serde_json::Value;
use tuplewright_base::store::db::params;

use tuplewright_base::store::{Store, StoreError};
use tuplewright_engine::rollout::inclusion::{classify, Inclusion};
use tuplewright_engine::rollout::RolloutConfig;

pub use tuplewright_engine::rollout::screen::{
    SCREENSHOTS_DETAIL_KEY as SCREENSHOTS_KEY, SCREENSHOT_DETAIL_KEY as SCREENSHOT_KEY,
};
/// Most trials listed in the whole-store view (the newest ones).
pub const ALL_LIMIT: usize = 20_000;
/// Largest side of a decoded screenshot (bigger ones are scaled down once, off the UI thread).
const MAX_SIDE: u32 = 1024;

/// What a batch of trials says about its tuple.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A probe (oracle/noop) whose every trial reached the expected score.
    ProbeOk,
    /// A probe with trials that missed the expected score (a reward defect).
    ProbeDefect(usize),
    /// A trial failed: no decision (never a 0 score).
    Failed,
    /// A teacher batch classified by the A.4.2 rule.
    Inclusion(Inclusion),
}

impl Outcome {
    /// Short label with a glyph (readable under NO_COLOR).
    pub fn label(&self) -> String {
        match self {
            Outcome::ProbeOk => "✓ probe ok".into(),
            Outcome::ProbeDefect(n) => format!("✗ probe: {n} defect(s)"),
            Outcome::Failed => "✗ failed: no decision".into(),
            Outcome::Inclusion(i) => match i {
                Inclusion::Accepted => "✓ accepted".into(),
                Inclusion::Unsolvable => "✗ unsolvable".into(),
                Inclusion::Trivial => "~ trivial".into(),
                Inclusion::Disagreement { gap } => format!("≠ disagreement {gap:.2}"),
                Inclusion::Unclassified => "? unclassified".into(),
            },
        }
    }
}

/// One trial in the list.
#[derive(Debug, Clone, PartialEq)]
pub struct TrialRow {
    /// Row id in the rollouts table.
    pub id: i64,
    /// The task.
    pub task_id: String,
    /// Policy / model name.
    pub model: String,
    /// Trial number.
    pub trial: i64,
    /// reward.py score; `None` with a failure.
    pub reward: Option<f64>,
    /// Judge verdict as stored.
    pub judge: Option<String>,
    /// Why there is no score.
    pub failure: Option<String>,
    /// Duration in ms.
    pub duration_ms: Option<i64>,
    /// Expected score when the policy is a probe.
    pub probe_expected: Option<f64>,
    /// Whether the trial has a screenshot.
    pub has_screenshot: bool,
    /// Outcome of its batch.
    pub outcome: Outcome,
    /// Its batch (rows with the same number are one batch of the list).
    pub batch: usize,
}

/// A loaded trial list.
#[derive(Debug, Clone, PartialEq)]
pub struct TrialList {
    /// The tuple, or `None` for the whole store.
    pub scope: Option<String>,
    /// The trials, oldest first.
    pub rows: Vec<TrialRow>,
    /// More than [`ALL_LIMIT`] trials exist; only the newest are listed.
    pub truncated: bool,
}

/// A decoded screenshot, or why it could not be shown.
#[derive(Debug, Clone)]
pub enum Screenshot {
    /// The image (scaled to at most 1024 px a side) and its path.
    Image(PathBuf, image::DynamicImage),
    /// The path and the read/decode error.
    Error(PathBuf, String),
}

/// One trial in full.
#[derive(Debug, Clone)]
pub struct TrialDetail {
    /// Row id.
    pub id: i64,
    /// The stored detail (policy, actions, transcript, components, judge...).
    pub detail: Value,
    /// The screenshot, when the trial has one.
    pub screenshot: Option<Screenshot>,
    /// Screen trials: every recorded step (the filmstrip), screenshots by key.
    pub steps: Vec<tuplewright_base::store::StoredStep>,
}

const COLUMNS: &str = "id, task_id, model, trial, reward, judge_verdict, failure, \
    json_extract(detail_json, '$.duration_ms'), json_extract(detail_json, '$.kind.probe.expected'), \
    (json_extract(detail_json, '$.screenshot') IS NOT NULL OR json_extract(detail_json, '$.screenshots') IS NOT NULL)"; // SCREENSHOT_KEY, SCREENSHOTS_KEY

/// The trials of `scope` (one task, or the newest [`ALL_LIMIT`] of the store), with outcomes.
pub fn load_trials(store: &Store, scope: Option<&str>) -> Result<TrialList, StoreError> {
    let read = |r: &tuplewright_base::store::db::Row<'_>| {
        Ok(TrialRow {
            id: r.get(0)?,
            task_id: r.get(1)?,
            model: r.get(2)?,
            trial: r.get(3)?,
            reward: r.get(4)?,
            judge: r.get(5)?,
            failure: r.get(6)?,
            duration_ms: r.get(7)?,
            probe_expected: r.get(8)?,
            has_screenshot: r.get(9)?,
            outcome: Outcome::Failed,
            batch: 0,
        })
    };
    let conn = store.conn();
    let (mut rows, truncated) = match scope {
        Some(id) => {
            let mut st = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM rollouts WHERE task_id = ?1 ORDER BY id"
            ))?;
            let rows = st
                .query_map(params![id], read)?
                .collect::<Result<Vec<_>, tuplewright_base::store::StoreError>>()?;
            (rows, false)
        }
        None => {
            let mut st = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM rollouts ORDER BY id DESC LIMIT ?1"
            ))?;
            let mut rows = st
                .query_map(params![ALL_LIMIT as i64 + 1], read)?
                .collect::<Result<Vec<_>, tuplewright_base::store::StoreError>>()?;
            let truncated = rows.len() > ALL_LIMIT;
            rows.truncate(ALL_LIMIT);
            rows.reverse();
            (rows, truncated)
        }
    };
    assign_outcomes(&mut rows, RolloutConfig::default().delta);
    Ok(TrialList {
        scope: scope.map(str::to_string),
        rows,
        truncated,
    })
}

/// Groups trials into batches (same task and policy; a batch restarts at trial 1 or when the trial
/// number does not grow) and gives every row its batch's outcome.
pub fn assign_outcomes(rows: &mut [TrialRow], delta: f64) {
    use std::collections::HashMap;
    let mut batches: Vec<Vec<usize>> = Vec::new();
    let mut open: HashMap<(String, String), (usize, i64)> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        let key = (r.task_id.clone(), r.model.clone());
        match open.get_mut(&key) {
            Some((b, last)) if r.trial > *last && r.trial != 1 => {
                batches[*b].push(i);
                *last = r.trial;
            }
            _ => {
                open.insert(key, (batches.len(), r.trial));
                batches.push(vec![i]);
            }
        }
    }
    for (n, b) in batches.into_iter().enumerate() {
        let trials: Vec<&TrialRow> = b.iter().map(|&i| &rows[i]).collect();
        let outcome = batch_outcome(&trials, delta);
        for i in b {
            rows[i].outcome = outcome.clone();
            rows[i].batch = n;
        }
    }
}

fn batch_outcome(trials: &[&TrialRow], delta: f64) -> Outcome {
    if let Some(expected) = trials.first().and_then(|t| t.probe_expected) {
        let defects = trials
            .iter()
            .filter(|t| t.reward.is_none_or(|r| (r - expected).abs() > 1e-6))
            .count();
        return if defects == 0 {
            Outcome::ProbeOk
        } else {
            Outcome::ProbeDefect(defects)
        };
    }
    let mut scored = Vec::new();
    for t in trials {
        match t.reward {
            Some(r) if t.failure.is_none() => {
                scored.push((r, t.judge.as_deref().and_then(|j| j.parse::<f64>().ok())))
            }
            _ => return Outcome::Failed,
        }
    }
    Outcome::Inclusion(classify(&scored, delta).inclusion)
}

/// One trial's detail, with its screenshot read and decoded.
pub fn load_trial(store: &Store, id: i64) -> Result<TrialDetail, StoreError> {
    let text: String = store.conn().query_row(
        "SELECT detail_json FROM rollouts WHERE id = ?1",
        params![id],
        |r| r.get(0),
    )?;
    let detail: Value = serde_json::from_str(&text)?;
    let base = store.path().parent().unwrap_or(Path::new("."));
    let steps = store.trial_steps(id)?;
    // The filmstrip shows the steps' own frames; the single screenshot only without steps.
    let screenshot = if steps.is_empty() {
        screenshot_path(&detail).map(|p| read_screenshot(&base.join(p)))
    } else {
        None
    };
    Ok(TrialDetail {
        id,
        detail,
        screenshot,
        steps,
    })
}

/// The screenshot path a trial's detail names, if any.
pub fn screenshot_path(detail: &Value) -> Option<PathBuf> {
    let one = detail.get(SCREENSHOT_KEY).and_then(Value::as_str);
    let last = detail
        .get(SCREENSHOTS_KEY)
        .and_then(Value::as_array)
        .and_then(|a| a.iter().rev().find_map(Value::as_str));
    one.or(last).map(PathBuf::from)
}

/// Reads and decodes an image file (format from its content), scaled to at most 1024 px a side.
pub fn read_screenshot(path: &Path) -> Screenshot {
    match decode_scaled(path) {
        Ok((img, _)) => Screenshot::Image(path.to_path_buf(), img),
        Err(e) => Screenshot::Error(path.to_path_buf(), e),
    }
}

/// Decodes an image file, scaled to at most 1024 px a side; also returns the scale applied.
pub fn decode_scaled(path: &Path) -> Result<(image::DynamicImage, f64), String> {
    let img = image::ImageReader::open(path)
        .map_err(|e| e.to_string())
        .and_then(|r| r.with_guessed_format().map_err(|e| e.to_string()))
        .and_then(|r| r.decode().map_err(|e| e.to_string()))?;
    if img.width() > MAX_SIDE || img.height() > MAX_SIDE {
        let small = img.thumbnail(MAX_SIDE, MAX_SIDE);
        let scale = small.width() as f64 / img.width().max(1) as f64;
        Ok((small, scale))
    } else {
        Ok((img, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, model: &str, trial: i64, reward: Option<f64>) -> TrialRow {
        TrialRow {
            id,
            task_id: "t".into(),
            model: model.into(),
            trial,
            reward,
            judge: None,
            failure: reward.is_none().then(|| "boom".to_string()),
            duration_ms: None,
            probe_expected: (model == "oracle").then_some(1.0),
            has_screenshot: false,
            outcome: Outcome::Failed,
            batch: 0,
        }
    }

    #[test]
    fn batches_restart_at_trial_one_and_take_their_own_outcome() {
        let mut rows = vec![
            row(1, "oracle", 1, Some(1.0)),
            row(2, "oracle", 2, Some(1.0)),
            row(3, "cmd", 1, Some(0.5)),
            row(4, "cmd", 2, Some(0.5)),
            row(5, "oracle", 1, Some(0.0)),
            row(6, "cmd", 1, None),
        ];
        assign_outcomes(&mut rows, 0.25);
        assert_eq!(rows[0].outcome, Outcome::ProbeOk);
        assert_eq!(rows[1].outcome, Outcome::ProbeOk);
        assert_eq!(rows[2].outcome, Outcome::Inclusion(Inclusion::Accepted));
        assert_eq!(rows[4].outcome, Outcome::ProbeDefect(1), "a new batch");
        assert_eq!(rows[5].outcome, Outcome::Failed, "a failure is no score");
        assert_eq!(rows[0].batch, rows[1].batch);
        assert_ne!(rows[0].batch, rows[4].batch);
    }

    #[test]
    fn screenshot_from_either_key_and_unreadable_files_are_errors() {
        let d = serde_json::json!({"screenshots": ["a.png", "b.png"]});
        assert_eq!(screenshot_path(&d), Some(PathBuf::from("b.png")));
        let d = serde_json::json!({"screenshot": "/x/s.png"});
        assert_eq!(screenshot_path(&d), Some(PathBuf::from("/x/s.png")));
        assert!(matches!(
            read_screenshot(Path::new("/nonexistent/s.png")),
            Screenshot::Error(..)
        ));
    }
}
