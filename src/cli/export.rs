//! `tuplewright export`: verified tuples as OSWorld-compatible bundle directories (the words:
//! README.md, "Words"; [`TupleStatus::meaning`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::context::{load_config, open_existing_store};
use super::Cli;
use crate::engine::bundle::export::{export, ExportOptions};
use crate::engine::bundle::hint::empty_export_hint;
use crate::engine::bundle::preview::{preview, Change, ExportPreview};
use crate::engine::store::TupleStatus;

/// Arguments of `export`.
#[derive(Debug, Args)]
#[command(
    about = "Export verified tuples as bundles: DIR/<task_id>/{config.json, task_config.json, scripts, REVIEW.md, meta.json}",
    long_about = "Write each tuple whose status is exported to DIR/<task_id>/ in the public layout: \
config.json (OSWorld-RL shape), task_config.json, initial_setup.py, golden_patch.py, reward.py, \
REVIEW.md of the final round, plus meta.json (status and what it means, labels, rounds, scores, \
votes, decisions, provenance).\n\n\
By default every verified tuple that is not out: loop_accepted (verified by the agreement loop: \
C1-C5 and the reward probes; what `run` produces and delivers), needs_human, voted and final (also \
kept by the critic vote or a person and by the teacher rollouts). `--status final` exports only \
the final ones; [export] statuses in tuplewright.toml changes the default. Rejected tuples \
(loop_failed, vote_rejected, rollout_rejected, dropped) are left out unless --include-rejected. \
Imported bundles are exported only once `verify` has promoted them (or with --include-unverified); \
an imported tuple keeps its \
original config.json script URLs, generated_at and adversarial_rounds unless --url-prefix is given.\n\n\
Each bundle is written to a temporary directory and swapped into place; exporting twice gives \
identical bytes.\n\nExample: tuplewright export --out output/final"
)]
pub struct ExportArgs {
    /// Output directory (default: [export] out_dir, i.e. output/final).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// URL prefix for config.json script URLs (default: [export] url_prefix; empty = relative names).
    #[arg(long)]
    pub url_prefix: Option<String>,
    /// Export only this task (whatever its status).
    #[arg(long)]
    pub task: Option<String>,
    /// Export tuples with this status (repeatable; default: [export] statuses, i.e. every
    /// verified tuple not out: loop_accepted, needs_human, voted, final).
    #[arg(long = "status")]
    pub statuses: Vec<String>,
    /// Also export rejected tuples (vote_rejected, rollout_rejected, dropped); their config.json
    /// says `reject: true`. Left out otherwise.
    #[arg(long)]
    pub include_rejected: bool,
    /// Also export tuples this harness has not verified (imported, verify_failed). Left out
    /// otherwise: imported bundles are exported only after `verify` promotes them.
    #[arg(long)]
    pub include_unverified: bool,
    /// Write nothing: list the bundles that would be written (new, replaced, unchanged) and every
    /// tuple left out with the reason.
    #[arg(long, alias = "dry-run")]
    pub preview: bool,
    /// With --preview: print the preview as JSON.
    #[arg(long, requires = "preview")]
    pub json: bool,
}

/// Runs `export`.
pub fn run(cli: &Cli, args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(cli)?;
    let opts = ExportOptions {
        out: args.out.clone().unwrap_or(config.export.out_dir.clone()),
        url_prefix: args
            .url_prefix
            .clone()
            .unwrap_or(config.export.url_prefix.clone()),
        statuses: {
            let mut s = if args.statuses.is_empty() {
                config.export.statuses.clone()
            } else {
                args.statuses.clone()
            };
            if args.include_rejected {
                s.extend(["vote_rejected", "rollout_rejected", "dropped"].map(String::from));
            }
            if args.include_unverified {
                s.extend(["imported", "verify_failed"].map(String::from));
            }
            s
        },
        task: args.task.clone(),
    };
    check_statuses(&opts.statuses, args.statuses.is_empty())?;
    let store = open_existing_store(cli, &config)?;
    if args.preview {
        return print_preview(&preview(&store, &opts)?, args.json);
    }
    let summary = export(&store, &opts)?;
    for (id, why) in &summary.skipped {
        eprintln!("skipped {id}: {why}");
    }
    println!(
        "exported to {}: {} written, {} unchanged, {} skipped",
        opts.out.display(),
        summary.written,
        summary.unchanged,
        summary.skipped.len()
    );
    if opts.task.is_none() {
        // A line per status exported, pipeline order, in the words `run` uses.
        let counts = store.status_counts()?;
        for status in TupleStatus::ALL {
            let n = counts
                .iter()
                .find(|(s, _)| s == status.as_str())
                .map_or(0, |c| c.1);
            if n > 0 && opts.statuses.iter().any(|s| s == status.as_str()) {
                println!("  {n:>4} {:<16} {}", status.as_str(), status.meaning());
            }
        }
    }
    if summary.written + summary.unchanged == 0 {
        if let Some(hint) = empty_export_hint(&store, &opts.statuses, opts.task.as_deref())? {
            eprintln!("hint: {hint}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses a status no tuple can have (a typo would otherwise export nothing and succeed).
fn check_statuses(statuses: &[String], from_config: bool) -> anyhow::Result<()> {
    let known = || {
        TupleStatus::ALL
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for s in statuses {
        if TupleStatus::parse(s).is_none() {
            let origin = if from_config {
                "[export] statuses"
            } else {
                "--status"
            };
            anyhow::bail!(
                "{origin}: unknown status {s:?}; known statuses: {}",
                known()
            );
        }
    }
    Ok(())
}

/// Prints an export preview (`--preview`): the summary, each bundle and each tuple left out.
fn print_preview(p: &ExportPreview, json: bool) -> anyhow::Result<ExitCode> {
    if json {
        println!("{}", serde_json::to_string_pretty(p)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("preview (nothing written): {}", p.summary());
    for b in &p.planned {
        let what = match b.change {
            Change::New => "new     ",
            Change::Replace => "replace ",
            Change::Unchanged => "same    ",
        };
        println!("  {what} {} ({})", b.task_id, b.status);
    }
    for e in &p.excluded {
        println!("  left out {}: {}", e.task_id, e.why);
    }
    Ok(ExitCode::SUCCESS)
}
