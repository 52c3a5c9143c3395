//! The recorded steps of screen trials (schema v9): one row per `computer_use` action of a rollout
//! trial, each with the screenshot taken after it and (v12) how long the display took to settle
//! before it. Screenshots are content-addressed (sha256 of
//! the PNG) and de-duplicated: identical frames of a trial — or of different trials — are one file
//! in the [`ScreenshotDir`] and one `screenshots` row. A trial's steps go with its trial:
//! [`Store::remove_rollout`] deletes the rows first and the files no step references after.

use std::collections::BTreeSet;

use super::db::{params, OptionalExt};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::screens::ScreenshotDir;
use super::{Result, Store, StoreError, Tx};

/// One step to store.
#[derive(Debug, Clone, Copy)]
pub struct NewStep<'a> {
    /// The action as JSON (a `ComputerAction`).
    pub action: &'a serde_json::Value,
    /// Milliseconds since the trial started, when the action began.
    pub at_ms: u64,
    /// How long the action took.
    pub duration_ms: u64,
    /// The error string the action returned, if it failed.
    pub error: Option<&'a str>,
    /// How long the display took to settle before the PNG was taken, milliseconds.
    pub settle_ms: Option<u64>,
    /// The PNG taken after the action, if any.
    pub screenshot_png: Option<&'a [u8]>,
}

/// A stored screenshot: its key and size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScreenshotRef {
    /// sha256 of the PNG bytes (the file name in the screenshot directory).
    pub sha256: String,
    /// PNG size in bytes.
    pub bytes: u64,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// One stored step, in trial order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredStep {
    /// Position in the trial (0-based).
    pub seq: u32,
    /// The action (a `ComputerAction` as JSON).
    pub action: serde_json::Value,
    /// Milliseconds since the trial started.
    pub at_ms: u64,
    /// Duration in milliseconds.
    pub duration_ms: u64,
    /// The action's error, if it failed.
    pub error: Option<String>,
    /// How long the display took to settle before the screenshot was taken, milliseconds
    /// (`None`: no wait recorded — no screenshot, or a step stored before schema v12).
    pub settle_ms: Option<u64>,
    /// The screenshot after the action.
    pub screenshot: Option<ScreenshotRef>,
}

/// What [`Store::remove_rollout`] removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Removed {
    /// Step rows deleted.
    pub steps: usize,
    /// Screenshot files deleted (those no other step referenced).
    pub screenshot_files: usize,
}

/// Lower-case hex sha256 of bytes (a screenshot's key).
pub fn sha256_of_bytes(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Width and height from a PNG's header, or a clear error naming the step.
fn png_size(seq: usize, png: &[u8]) -> Result<(u32, u32)> {
    image::ImageReader::with_format(std::io::Cursor::new(png), image::ImageFormat::Png)
        .into_dimensions()
        .map_err(|e| StoreError::Invalid(format!("step {seq}: the screenshot is not a PNG: {e}")))
}

impl Tx<'_> {
    /// Writes one screenshot file of a trial still running (its live feed) and returns its key.
    /// No row names the file yet: the trial's record at its end does ([`Tx::record_trial_steps`]
    /// writes the file again if it has gone meanwhile); a trial that never ends leaves an
    /// unreferenced file for [`Store::gc_screenshots`].
    pub fn put_screenshot_file(&self, png: &[u8]) -> Result<String> {
        image::ImageReader::with_format(std::io::Cursor::new(png), image::ImageFormat::Png)
            .into_dimensions()
            .map_err(|e| {
                StoreError::Invalid(format!("live step: the screenshot is not a PNG: {e}"))
            })?;
        let sha = sha256_of_bytes(png);
        self.screens.put_all(&[(sha.as_str(), png)])?;
        Ok(sha)
    }

    /// Stores the steps of rollout `rollout_id`, in order. Each new screenshot's file is written,
    /// fsynced and renamed into place before its row is inserted (so before this transaction can
    /// commit); a screenshot already stored is not written again.
    pub fn record_trial_steps(&self, rollout_id: i64, steps: &[NewStep<'_>]) -> Result<()> {
        let mut seen = BTreeSet::new();
        let mut shas = Vec::with_capacity(steps.len());
        let mut new = Vec::new();
        for (seq, s) in steps.iter().enumerate() {
            let sha = s.screenshot_png.map(sha256_of_bytes);
            if let (Some(sha), Some(png)) = (&sha, s.screenshot_png) {
                if seen.insert(sha.clone()) {
                    new.push((seq, sha.clone(), png, png_size(seq, png)?));
                }
            }
            shas.push(sha);
        }
        let files: Vec<(&str, &[u8])> = new
            .iter()
            .map(|(_, sha, png, _)| (sha.as_str(), *png))
            .collect();
        self.screens.put_all(&files)?;
        for (_, sha, png, (w, h)) in &new {
            self.tx
                .prepare_cached(
                    "INSERT INTO screenshots (sha256, bytes, width, height) \
                     VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
                )?
                .execute(params![sha, png.len() as i64, w, h])?;
        }
        for (seq, (s, sha)) in steps.iter().zip(shas).enumerate() {
            self.tx
                .prepare_cached(
                    "INSERT INTO trial_steps (rollout_id, seq, action_json, at_ms, duration_ms, \
                     error, screenshot_sha, settle_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )?
                .execute(params![
                    rollout_id,
                    seq as i64,
                    serde_json::to_string(s.action)?,
                    s.at_ms as i64,
                    s.duration_ms as i64,
                    s.error,
                    sha,
                    s.settle_ms.map(|ms| ms.min(i64::MAX as u64) as i64)
                ])?;
        }
        Ok(())
    }

    /// Deletes rollout `id` with its steps and final states; returns the step count and the
    /// screenshots no step references any more (their rows deleted here, their files not yet).
    fn delete_rollout_rows(&self, id: i64) -> Result<(usize, Vec<String>)> {
        let task: Option<String> = self
            .tx
            .query_row("SELECT task_id FROM rollouts WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        let Some(task) = task else {
            return Err(StoreError::Invalid(format!(
                "no rollout trial with id {id}"
            )));
        };
        let shas: Vec<String> = self
            .tx
            .prepare_cached(
                "SELECT DISTINCT screenshot_sha FROM trial_steps \
                 WHERE rollout_id = ?1 AND screenshot_sha IS NOT NULL",
            )?
            .query_map([id], |r| r.get(0))?
            .collect::<Result<_>>()?;
        let steps = self
            .tx
            .execute("DELETE FROM trial_steps WHERE rollout_id = ?1", [id])?;
        self.tx
            .execute("DELETE FROM state_snapshots WHERE rollout_id = ?1", [id])?;
        self.tx
            .execute("DELETE FROM rollouts WHERE id = ?1", [id])?;
        let mut orphans = Vec::new();
        for sha in shas {
            let n = self.tx.execute(
                "DELETE FROM screenshots WHERE sha256 = ?1 AND NOT EXISTS \
                 (SELECT 1 FROM trial_steps WHERE screenshot_sha = ?1)",
                [&sha],
            )?;
            if n > 0 {
                orphans.push(sha);
            }
        }
        let payload = serde_json::json!({"id": id, "steps": steps, "screenshots": orphans.len()});
        self.append_event("rollout.removed", Some(&task), &payload)?;
        Ok((steps, orphans))
    }

    /// Deletes the files of `shas` that have no row (any more), under this transaction's lock.
    fn delete_unreferenced(&self, shas: &[String]) -> Result<usize> {
        let mut n = 0;
        for sha in shas {
            let row: Option<i64> = self
                .tx
                .prepare_cached("SELECT 1 FROM screenshots WHERE sha256 = ?1")?
                .query_row([sha], |r| r.get(0))
                .optional()?;
            if row.is_none() && self.screens.remove(sha)? {
                n += 1;
            }
        }
        Ok(n)
    }
}

impl Store {
    /// The steps of rollout `rollout_id`, in order (empty for a trial without a screen).
    pub fn trial_steps(&self, rollout_id: i64) -> Result<Vec<StoredStep>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT t.seq, t.action_json, t.at_ms, t.duration_ms, t.error, s.sha256, s.bytes, \
             s.width, s.height, t.settle_ms FROM trial_steps t LEFT JOIN screenshots s \
             ON s.sha256 = t.screenshot_sha WHERE t.rollout_id = ?1 ORDER BY t.seq",
        )?;
        let rows = stmt.query_map([rollout_id], |r| {
            let sha: Option<String> = r.get(5)?;
            let screenshot = match sha {
                Some(sha256) => Some(ScreenshotRef {
                    sha256,
                    bytes: r.get::<i64>(6)? as u64,
                    width: r.get(7)?,
                    height: r.get(8)?,
                }),
                None => None,
            };
            Ok((
                StoredStep {
                    seq: r.get(0)?,
                    action: serde_json::Value::Null,
                    at_ms: r.get::<i64>(2)? as u64,
                    duration_ms: r.get::<i64>(3)? as u64,
                    error: r.get(4)?,
                    settle_ms: r.get::<Option<i64>>(9)?.map(|ms| ms.max(0) as u64),
                    screenshot,
                },
                r.get::<String>(1)?,
            ))
        })?;
        rows.map(|row| {
            let (mut step, action) = row?;
            step.action = serde_json::from_str(&action)?;
            Ok(step)
        })
        .collect()
    }

    /// Row ids of a task's rollout trials, oldest first (the order of [`Store::rollouts`]).
    pub fn rollout_ids(&self, task_id: &str) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id FROM rollouts WHERE task_id = ?1 ORDER BY id")?;
        let ids = stmt.query_map([task_id], |r| r.get(0))?;
        ids.collect::<Result<_>>()
    }

    /// The store's screenshot directory.
    pub fn screenshots(&self) -> &ScreenshotDir {
        &self.screens
    }

    /// The PNG bytes of a stored screenshot.
    pub fn screenshot_png(&self, sha: &str) -> Result<Vec<u8>> {
        self.screens.read(sha)
    }

    /// Removes rollout trial `id`: its steps, final states and row in one transaction, then —
    /// in a second one holding the write lock — the screenshot files no other step references.
    /// A crash between the two leaves only unreferenced files for [`Store::gc_screenshots`].
    pub fn remove_rollout(&mut self, id: i64) -> Result<Removed> {
        let (steps, orphans) = self.write(|tx| tx.delete_rollout_rows(id))?;
        let screenshot_files = self.write(|tx| tx.delete_unreferenced(&orphans))?;
        Ok(Removed {
            steps,
            screenshot_files,
        })
    }

    /// Deletes every file in the screenshot directory that no row names (left by a crash between
    /// a removal's two transactions, or by a transaction that rolled back after writing its
    /// files), and stray temporary files. Runs under the write lock; returns the files deleted.
    pub fn gc_screenshots(&mut self) -> Result<usize> {
        self.write(|tx| {
            let mut shas = Vec::new();
            let mut stray = 0;
            for e in tx.screens.entries()? {
                match e {
                    Ok(sha) => shas.push(sha),
                    Err(path) => {
                        std::fs::remove_file(&path).map_err(|e| {
                            StoreError::Invalid(format!("deleting {}: {e}", path.display()))
                        })?;
                        stray += 1;
                    }
                }
            }
            Ok(stray + tx.delete_unreferenced(&shas)?)
        })
    }
}

/// The directory a store at `path` keeps its screenshots in (for readers without a [`Store`]).
pub fn screenshot_dir_of(path: &std::path::Path) -> ScreenshotDir {
    ScreenshotDir::beside(path)
}

#[cfg(test)]
#[path = "steps_tests.rs"]
mod tests;
