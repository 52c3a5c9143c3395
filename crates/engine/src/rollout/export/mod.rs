//! `export-trajectories`: stored teacher trials as training data, in three formats.
//!
//! - [`Format::Osworld`]: OSWorld's result folders ([`osworld`]), one per trial.
//! - [`Format::Sft`]: `sft.jsonl`, one OpenAI-shaped conversation per trial ([`chat`]): system,
//!   the instruction with the first screenshot, then alternating replies and observations;
//!   success only (reward ≥ 1.0) unless `min_reward` says otherwise (C.2.1).
//! - [`Format::Sliced`]: `slices.jsonl`, the C.1.2 slices with loss masks and the episode
//!   reward ([`sliced`]); token counts from a `tokenizer.json` or an estimate ([`tokens`]).
//!
//! Trials without model text (ui-oracle, a person) are rendered for `sft` and `sliced` in a
//! policy's wire ([`render`], [`wire`]), with thoughts from a VLM when asked ([`thoughts`]);
//! [`select`] applies the filters (success only for SFT, dedup, trials per task).
//!
//! Only scored trials are exported (a failed trial has no reward). The whole export is written
//! into a temporary directory beside `out` and swapped into place, so `out` is either the old
//! export or the new one, never half of one; `manifest.json` says what it holds.

pub mod chat;
pub mod errors;
pub mod load;
pub mod osworld;
pub mod render;
pub mod select;
pub mod sliced;
pub mod thoughts;
pub mod tokens;
pub mod wire;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Serialize;
use serde_json::{json, Value};

pub use errors::{RenderSkip, TokenError, UnknownChoice};
pub use load::{trajectories, Trajectory};
pub use render::{Batching, RenderOptions};
use select::{balance, select, Prepared};
pub use sliced::SliceOptions;
pub use thoughts::ThoughtWriter;
pub use tokens::TokenCounter;
use tuplewright_base::store::{Store, StoreError};
use tuplewright_models::providers::ProviderError;
pub use wire::WireFormat;

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// OSWorld result folders.
    Osworld,
    /// Chat-message JSONL for supervised fine-tuning.
    Sft,
    /// C.1.2 slices for RL.
    Sliced,
}

impl FromStr for Format {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        match s {
            "osworld" => Ok(Format::Osworld),
            "sft" => Ok(Format::Sft),
            "sliced" => Ok(Format::Sliced),
            other => Err(UnknownChoice {
                what: "trajectory format",
                given: other.to_string(),
                known: "osworld, sft or sliced",
            }),
        }
    }
}

impl Format {
    /// The lowest reward exported unless told otherwise: success only for SFT, every scored
    /// trial for the others (RL needs failures too).
    pub fn default_min_reward(&self) -> Option<f64> {
        match self {
            Format::Sft => Some(1.0),
            Format::Osworld | Format::Sliced => None,
        }
    }
}

/// Errors of an export; nothing is left half-written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Reading the store.
    #[error("store: {0}")]
    Store(#[from] StoreError),
    /// A file.
    #[error("{path}: {cause}")]
    Io {
        /// Where.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// The tokenizer.
    #[error(transparent)]
    Tokens(#[from] TokenError),
    /// The output directory.
    #[error("{0}")]
    Out(String),
    /// The thought writer (`--thoughts`).
    #[error("thoughts from {spec}: {cause}")]
    Thoughts {
        /// The writer's spec.
        spec: String,
        /// Why.
        #[source]
        cause: ProviderError,
    },
}

impl ExportError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, cause: std::io::Error) -> ExportError {
        ExportError::Io {
            path: path.to_path_buf(),
            cause,
        }
    }
}

/// What to export.
pub struct ExportOptions<'a> {
    /// The format.
    pub format: Format,
    /// The output directory (replaced as a whole).
    pub out: &'a Path,
    /// Lowest reward exported; `None` = the format's default.
    pub min_reward: Option<f64>,
    /// Only these tasks (empty = every task).
    pub tasks: &'a [String],
    /// Only trials of this policy (`vlm:openai:MODEL`, …).
    pub model: Option<&'a str>,
    /// Images as data URLs inside the JSONL instead of files (`sft`, `sliced`).
    pub inline_images: bool,
    /// Slicing.
    pub slices: SliceOptions,
    /// Token counting (`sliced`).
    pub tokens: &'a TokenCounter,
    /// How trials without model text are rendered (`sft`, `sliced`).
    pub render: RenderOptions,
    /// Writes the thought before each rendered turn (`None`: no text besides the calls).
    pub thoughts: Option<&'a ThoughtWriter>,
    /// Only trials whose turns come from these sources (`ui-oracle`, `human`, `model`; empty =
    /// all).
    pub sources: &'a [String],
    /// `sft`, `sliced`: at most this many trials per task (oldest first).
    pub trials_per_task: Option<usize>,
    /// `sft`, `sliced`: leave out a trial whose actions repeat an earlier trial's of its task.
    pub dedup: bool,
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExportSummary {
    /// The format.
    pub format: Format,
    /// The output directory.
    pub out: PathBuf,
    /// Trials exported.
    pub trials: usize,
    /// Trials left out and why (below the reward floor, no model replies).
    pub skipped: Vec<String>,
    /// Lines of the JSONL (`sft`: conversations, `sliced`: slices); `osworld`: trial folders.
    pub records: usize,
    /// Dummy slices (over the budget).
    pub dummy_slices: usize,
    /// Screenshot files written.
    pub images: usize,
    /// Exported trials per source (`ui-oracle`, `human`, `model`, …).
    pub sources: BTreeMap<String, usize>,
    /// Per domain: tasks, trials, records and the share of records.
    pub domains: BTreeMap<String, Value>,
    /// Largest distance between a recorded point and the point its rendered coordinate names,
    /// screen pixels (0 when the space names every pixel).
    pub max_snap_px: i32,
}

/// Writes the export.
pub fn export_trajectories(
    store: &Store,
    opts: &ExportOptions<'_>,
) -> Result<ExportSummary, ExportError> {
    let selection = select(store, opts)?;
    let (trials, skipped) = (selection.trials, selection.skipped);
    let out = opts.out;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| ExportError::io(&parent, e))?;
    let name = out
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| ExportError::Out(format!("{}: not a directory name", out.display())))?
        .to_string();
    let tmp = tuplewright_records::bundle::export::scratch_name(
        &parent,
        tuplewright_records::bundle::export::TMP_PREFIX,
        &name,
    );
    std::fs::create_dir_all(&tmp).map_err(|e| ExportError::io(&tmp, e))?;
    let written = write_all(&tmp, &trials, opts);
    let summary = match written {
        Ok((per_trial, dummy_slices, images)) => ExportSummary {
            format: opts.format,
            out: out.to_path_buf(),
            trials: trials.len(),
            skipped,
            records: per_trial.iter().sum(),
            dummy_slices,
            images,
            sources: trials.iter().fold(BTreeMap::new(), |mut m, p| {
                *m.entry(p.t.source().to_string()).or_default() += 1;
                m
            }),
            domains: balance(&trials, &per_trial),
            max_snap_px: trials.iter().map(|p| p.snap_px).max().unwrap_or(0),
        },
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    let manifest = json!({"format": summary.format, "trials": summary.trials,
        "records": summary.records, "dummy_slices": summary.dummy_slices,
        "images": summary.images, "skipped": summary.skipped,
        "min_reward": opts.min_reward.or(opts.format.default_min_reward()),
        "slice_interval": opts.slices.interval, "context_budget": opts.slices.budget,
        "token_counts": opts.tokens.describe(), "sources": summary.sources,
        "domains": summary.domains, "max_snap_px": summary.max_snap_px,
        "wire": opts.render.wire.name(), "batching": format!("{:?}", opts.render.batching),
        "thoughts": opts.thoughts.map(ThoughtWriter::spec), "dedup": opts.dedup,
        "trials_per_task": opts.trials_per_task});
    let finish = || -> Result<(), ExportError> {
        write_file(
            &tmp.join("manifest.json"),
            &serde_json::to_vec_pretty(&manifest).unwrap_or_default(),
        )?;
        tuplewright_records::bundle::export::sync_dir(&tmp)
            .map_err(|e| ExportError::io(&tmp, e))?;
        tuplewright_records::bundle::export::swap_in(&parent, &name, &tmp, out)
            .map_err(|e| ExportError::Out(e.to_string()))?;
        tuplewright_records::bundle::export::sync_dir(&parent)
            .map_err(|e| ExportError::io(&parent, e))
    };
    if let Err(e) = finish() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    Ok(summary)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| ExportError::io(dir, e))?;
    }
    std::fs::write(path, bytes).map_err(|e| ExportError::io(path, e))
}

fn copy_file(from: &Path, to: &Path) -> Result<(), ExportError> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| ExportError::io(dir, e))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| ExportError::io(from, e))
}

/// Writes every file into `dir`: (records per trial, dummy slices, images).
fn write_all(
    dir: &Path,
    trials: &[Prepared],
    opts: &ExportOptions<'_>,
) -> Result<(Vec<usize>, usize, usize), ExportError> {
    if opts.format == Format::Osworld {
        let mut images = 0;
        for Prepared { t, .. } in trials {
            let base = dir.join(osworld::trial_dir(t));
            for entry in osworld::render(t) {
                match entry {
                    osworld::Entry::Bytes(name, bytes) => write_file(&base.join(name), &bytes)?,
                    osworld::Entry::Copy(name, from) => {
                        copy_file(&from, &base.join(name))?;
                        images += 1;
                    }
                }
            }
        }
        return Ok((vec![1; trials.len()], 0, images));
    }
    let mut images = chat::Images::new(opts.inline_images);
    let (mut lines, mut per_trial, mut dummies) = (String::new(), Vec::new(), 0);
    for p in trials {
        let t = &p.t;
        let rows = match opts.format {
            Format::Sft => vec![json!({"task_id": t.task_id, "rollout_id": t.rollout_id,
                "trial": t.trial, "model": t.model, "reward": t.reward,
                "messages": chat::messages(t, &mut images)?})],
            _ => sliced::slices(t, &opts.slices, opts.tokens, &mut images)?,
        };
        per_trial.push(rows.len());
        for mut row in rows {
            describe(&mut row, p, opts);
            dummies += usize::from(row["dummy"] == true);
            lines.push_str(&row.to_string());
            lines.push('\n');
        }
    }
    let file = if opts.format == Format::Sft {
        "sft.jsonl"
    } else {
        "slices.jsonl"
    };
    write_file(&dir.join(file), lines.as_bytes())?;
    for (name, from) in &images.files {
        copy_file(from, &dir.join(name))?;
    }
    Ok((per_trial, dummies, images.files.len()))
}

/// Where a record's assistant turns come from: the source, the domain, and for a rendered
/// trial its wire, coordinate space (screen and model image sizes), thought writer and the
/// recorded actions of each assistant turn (screen pixels).
fn describe(row: &mut Value, p: &Prepared, opts: &ExportOptions<'_>) {
    row["source"] = json!(p.t.source());
    row["domain"] = json!(p.t.domain);
    row["wire"] = json!(p.wire);
    if let Some(c) = &p.coords {
        row["coords"] = json!({"space": c.space.to_string(), "screen": [c.screen_w, c.screen_h],
            "image": [c.image.0, c.image.1]});
        row["thoughts"] = json!(opts.thoughts.map(ThoughtWriter::spec));
        row["turn_actions"] = p.t.turns.iter().map(|x| json!(x.actions)).collect();
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_render;
