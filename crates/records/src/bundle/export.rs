//! `export`: verified tuples to `DIR/<task_id>/` in the public layout, plus `meta.json`.
//!
//! Each bundle is rendered in memory from stored data only (stored times, never the export time),
//! written to a temporary sibling directory and swapped into place with one rename, so a reader
//! sees the old bundle or the new one, never a mix; exporting twice gives identical bytes.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use serde_json::Value;

use super::layout::{self, ConfigJson};
use super::meta::{final_round, meta_json};
use crate::filter::effective_outcome;
use tuplewright_base::scratch::{self, DirLock};
use tuplewright_base::store::{Store, StoreError, StoredRound, StoredTask, TaskFilter};

/// Errors while exporting.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Reading the store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Writing a file failed.
    #[error("cannot write {path}: {cause}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        cause: std::io::Error,
    },
}

/// What to export and where.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportOptions {
    /// Output directory (bundles go to `out/<task_id>/`).
    pub out: PathBuf,
    /// URL prefix for config.json (`{task_id}` substituted); empty = relative names.
    pub url_prefix: String,
    /// Statuses to export.
    pub statuses: Vec<String>,
    /// Only this task.
    pub task: Option<String>,
}

/// What an export did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ExportSummary {
    /// Bundles written or replaced.
    pub written: usize,
    /// Bundles already identical on disk.
    pub unchanged: usize,
    /// Tasks with a matching status that could not be exported, with the reason.
    pub skipped: Vec<(String, String)>,
}

/// A rendered bundle: file names and their bytes, in a fixed order.
pub type Rendered = Vec<(&'static str, Vec<u8>)>;

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |cause| ExportError::Io {
        path: path.to_path_buf(),
        cause,
    }
}

/// Pretty JSON with a trailing newline.
fn json_bytes(v: &Value) -> Vec<u8> {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s.into_bytes()
}

/// `task_config.json`: the required fields first, then every optional input field kept.
/// `instruction` is the released one (a filter revision replaces the original).
fn task_config(task: &StoredTask, instruction: &str) -> Value {
    let t = &task.task;
    let source = match t.original_json.get(layout::TASK_CONFIG_JSON) {
        Some(tc) => tc.clone(),
        None if t.original_json.get(layout::CONFIG_JSON).is_some() => Value::Null,
        None => t.original_json.clone(),
    };
    let mut obj = serde_json::Map::new();
    obj.insert("task_id".into(), t.task_id.clone().into());
    obj.insert("domain".into(), t.labels.domain.clone().into());
    obj.insert("task_instruction".into(), instruction.into());
    obj.insert("context".into(), t.context.clone().into());
    obj.insert("difficulty".into(), t.labels.difficulty.clone().into());
    if let Value::Object(orig) = source {
        for (k, v) in orig {
            obj.entry(k).or_insert(v);
        }
    }
    Value::Object(obj)
}

/// The exported REVIEW.md: the round's own, or — for an imported bundle that had none — a review
/// saying the tuple is unverified (never an empty file).
fn review_of(task: &StoredTask, round: &StoredRound) -> String {
    if !round.round.review_md.trim().is_empty() {
        return round.round.review_md.clone();
    }
    let id = &task.task.task_id;
    format!(
        "# Round {} Review\n\n## Verdict: UNVERIFIED\n\nImported from {} without a REVIEW.md; tuplewright has \
         not verified this tuple (status `{}`). Run `tuplewright verify --tasks {id}` to check C1–C5 \
         and the probes.\n",
        round.round.round_no.unwrap_or(1),
        task.task.origin,
        task.status
    )
}

/// Renders one task's bundle, or explains why it cannot be exported.
pub fn render(
    store: &Store,
    task: &StoredTask,
    url_prefix: &str,
) -> Result<Result<Rendered, String>, ExportError> {
    let rounds = store.rounds(&task.task.task_id)?;
    let Some(round) = final_round(&rounds) else {
        return Ok(Err("no round with all three scripts".into()));
    };
    let orig_config = task.task.original_json.get(layout::CONFIG_JSON);
    let carried = |k: &str| orig_config.and_then(|c| c.get(k)).cloned();
    let votes = store.votes(&task.task.task_id)?;
    // The filter outcome in force (critics, rules or a person; undone decisions do not count).
    let outcome = effective_outcome(store, &task.task.task_id)?;
    let rejected = matches!(
        task.status.as_str(),
        "vote_rejected" | "rollout_rejected" | "dropped"
    );
    let filter = if let Some(o) = &outcome {
        Some((rejected || o.action == "reject", o.train_poor_fit))
    } else if votes.is_empty() {
        match (carried("reject"), carried("train_poor_fit")) {
            (Some(Value::Bool(r)), p) => Some((r, p.and_then(|v| v.as_bool()).unwrap_or(false))),
            _ => None,
        }
    } else {
        let poor = votes
            .iter()
            .filter(|v| v.vote.get("training_pool_fit").and_then(Value::as_str) == Some("poor"))
            .count();
        Some((rejected, poor * 2 > votes.len()))
    };
    let revised = outcome.as_ref().and_then(|o| o.revised_query.clone());
    let instruction = revised
        .clone()
        .unwrap_or_else(|| task.task.instruction.clone());
    // The rounds this harness ran to agreement; an imported tuple keeps its bundle's own count.
    let loop_rounds = rounds
        .iter()
        .filter(|r| r.round.source == "loop")
        .filter_map(|r| r.round.round_no)
        .max();
    let adversarial_rounds = match (loop_rounds, carried("adversarial_rounds")) {
        (Some(n), _) => n.into(),
        (None, Some(v)) if !v.is_null() => v,
        (None, _) => round.round.round_no.unwrap_or(1).into(),
    };
    // The original's time, else the time of the loop round that produced the scripts; never the
    // time of an import or a verification.
    let generated_at = match carried("generated_at") {
        Some(Value::String(at)) => Some(at),
        _ => rounds
            .iter()
            .rev()
            .find(|r| r.round.source == "loop" && r.round.scripts == round.round.scripts)
            .map(|r| r.round.finished_at.clone()),
    };
    let config = ConfigJson {
        instruction: instruction.clone(),
        id: task.task.task_id.clone(),
        app_type: task
            .task
            .app_type
            .clone()
            .or_else(|| task.task.labels.platform.clone())
            .or_else(|| task.task.labels.domain.clone())
            .unwrap_or_default(),
        url_prefix: url_prefix.to_string(),
        original_urls: orig_config.map(layout::script_urls).unwrap_or_default(),
        generated_at,
        adversarial_rounds,
        filter,
        revised_query: revised
            .clone()
            .or_else(|| carried("revised_query").and_then(|v| v.as_str().map(str::to_string))),
    };
    let s = &round.round.scripts;
    let text = |t: &Option<String>| t.clone().unwrap_or_default().into_bytes();
    let mut meta = meta_json(store, task, &rounds, &votes)?;
    if let Some(o) = &outcome {
        meta["filter"] = serde_json::to_value(o).map_err(StoreError::from)?;
    }
    if revised.is_some() {
        meta["original_instruction"] = task.task.instruction.clone().into();
    }
    Ok(Ok(vec![
        (layout::CONFIG_JSON, json_bytes(&config.to_value())),
        (
            layout::TASK_CONFIG_JSON,
            json_bytes(&task_config(task, &instruction)),
        ),
        (layout::SETUP_PY, text(&s.setup)),
        (layout::GOLDEN_PY, text(&s.golden)),
        (layout::REWARD_PY, text(&s.reward)),
        (layout::REVIEW_MD, review_of(task, round).into_bytes()),
        (layout::META_JSON, json_bytes(&meta)),
    ]))
}

/// True when `dir` holds exactly the rendered files with the same bytes.
pub fn identical(dir: &Path, files: &Rendered) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    if entries.count() != files.len() {
        return false;
    }
    files
        .iter()
        .all(|(name, bytes)| std::fs::read(dir.join(name)).is_ok_and(|b| &b == bytes))
}

/// Atomically exchanges two paths (Linux `renameat2(RENAME_EXCHANGE)`).
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let ca = std::ffi::CString::new(a.as_os_str().as_bytes())?;
    let cb = std::ffi::CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both pointers are valid NUL-terminated strings for the duration of the call.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// A fresh name for a scratch directory in `out`: `<kind><task_id>-<n>-<pid>` (the pid last, for
/// [`scratch::sweep`]; `n` keeps two exports in one process apart).
pub fn scratch_name(out: &Path, kind: &str, task_id: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    out.join(format!("{kind}{task_id}-{n}-{}", std::process::id()))
}

/// Writes one rendered bundle into `out/<task_id>/` atomically. Returns false if unchanged.
///
/// The temporary directory is locked while it exists, so a run killed half-way leaves a directory
/// the next export (or run) recognises as abandoned and removes.
pub fn write_bundle(out: &Path, task_id: &str, files: &Rendered) -> Result<bool, ExportError> {
    let dest = out.join(task_id);
    if identical(&dest, files) {
        return Ok(false);
    }
    let tmp = scratch_name(out, TMP_PREFIX, task_id);
    std::fs::create_dir_all(&tmp).map_err(io_err(&tmp))?;
    let _lock = DirLock::acquire(&tmp).map_err(io_err(&tmp))?;
    for (name, bytes) in files {
        let p = tmp.join(name);
        write_synced(&p, bytes).map_err(io_err(&p))?;
    }
    sync_dir(&tmp).map_err(io_err(&tmp))?;
    let swapped = swap_in(out, task_id, &tmp, &dest)?;
    // The rename itself is durable only once the parent directory is synced.
    sync_dir(out).map_err(io_err(out))?;
    Ok(swapped)
}

/// Removes `out/<task_id>/` atomically (renamed aside, then deleted), so `out` never holds half
/// of it. Returns false when there was nothing to remove.
pub fn remove_bundle(out: &Path, task_id: &str) -> Result<bool, ExportError> {
    let dest = out.join(task_id);
    if dest.symlink_metadata().is_err() {
        return Ok(false);
    }
    let old = scratch_name(out, OLD_PREFIX, task_id);
    std::fs::rename(&dest, &old).map_err(io_err(&dest))?;
    sync_dir(out).map_err(io_err(out))?;
    std::fs::remove_dir_all(&old).map_err(io_err(&old))?;
    Ok(true)
}

/// Writes `bytes` to `path` and flushes them to the disk before returning (so a power loss after
/// the bundle's rename can never leave an empty or short file under the final name).
fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::File::create(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Flushes a directory's entries (new names, renames) to the disk.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Moves the finished temporary directory to `dest`, replacing an older bundle atomically.
pub fn swap_in(out: &Path, task_id: &str, tmp: &Path, dest: &Path) -> Result<bool, ExportError> {
    if dest.exists() {
        if exchange(tmp, dest).is_err() {
            // Filesystems without RENAME_EXCHANGE: move the old one aside first.
            let old = scratch_name(out, OLD_PREFIX, task_id);
            std::fs::rename(dest, &old).map_err(io_err(dest))?;
            std::fs::rename(tmp, dest).map_err(io_err(dest))?;
            std::fs::remove_dir_all(&old).map_err(io_err(&old))?;
            return Ok(true);
        }
        std::fs::remove_dir_all(tmp).map_err(io_err(tmp))?;
    } else {
        std::fs::rename(tmp, dest).map_err(io_err(dest))?;
    }
    Ok(true)
}

/// Prefix of a bundle being written.
pub const TMP_PREFIX: &str = ".tw-tmp-";
/// Prefix of a bundle being replaced or removed.
const OLD_PREFIX: &str = ".tw-old-";

/// Removes temporary directories left in `out` by exports that were killed (nobody holds their
/// lock and their process is gone). Returns how many.
pub fn clean_stale(out: &Path) -> usize {
    [TMP_PREFIX, OLD_PREFIX]
        .iter()
        .map(|p| scratch::sweep(out, p, scratch::pid_at_end).len())
        .sum()
}

/// Exports every task whose status is in `opts.statuses` (or just `opts.task`).
pub fn export(store: &Store, opts: &ExportOptions) -> Result<ExportSummary, ExportError> {
    std::fs::create_dir_all(&opts.out).map_err(io_err(&opts.out))?;
    clean_stale(&opts.out);
    let tasks = match &opts.task {
        Some(id) => vec![store.task(id)?],
        None => store.list_tasks(&TaskFilter::default())?,
    };
    let mut summary = ExportSummary::default();
    for task in tasks {
        if opts.task.is_none() && !opts.statuses.contains(&task.status) {
            continue;
        }
        match render(store, &task, &opts.url_prefix)? {
            Err(reason) => summary.skipped.push((task.task.task_id.clone(), reason)),
            Ok(files) => {
                if write_bundle(&opts.out, &task.task.task_id, &files)? {
                    summary.written += 1;
                } else {
                    summary.unchanged += 1;
                }
            }
        }
    }
    Ok(summary)
}
