//! `tuplewright import`: task-generation JSON files and public-layout bundle directories.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::context::{load_config, open_store};
use super::Cli;
use crate::engine::bundle::import::{import_paths_with, ImportOptions};

/// Arguments of `import`.
#[derive(Debug, Args)]
#[command(
    about = "Import task-generation JSON files and/or directories of public-layout bundles",
    long_about = "Import tasks into the store.\n\n\
A FILE is task-generation JSON: a list of task objects or {\"tasks\": [...]}, each with task_id, \
task_instruction, context, difficulty (easy|medium|hard) and optionally domain, domains, mock, port.\n\
A DIRECTORY is searched recursively: every directory holding a config.json is a bundle in the public \
layout (config.json, task_config.json, initial_setup.py, golden_patch.py, reward.py, REVIEW.md), and \
other *.json files are read as task-generation files. The public three-stage layout is read too: \
output/final/<id>/config.json with its scripts in output/adversarial/<id>/. Every folder holding \
scripts but no config.json is reported as skipped, with the reason.\n\n\
Imported bundles are stored with status `imported`: unverified until `tuplewright verify` replays \
them; they are not counted as verified or loop-accepted, and not exported by default.\n\n\
Bad items are reported with file, index or path and field; the others are imported. Importing the \
same data again changes nothing. Exit status 1 when any item was rejected.\n\n\
Example: tuplewright import assets/examples/tasks.json assets/examples/bundles"
)]
pub struct ImportArgs {
    /// Task-generation JSON files and/or directories of bundles.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Where the data came from, REPO@COMMIT (e.g. xlang-ai/CUA-Gym@1a2b3c4): each stored origin
    /// becomes REPO@COMMIT:<path relative to the imported path> (default: the absolute local path).
    #[arg(long, value_name = "REPO@COMMIT")]
    pub origin: Option<String>,
}

/// Runs `import`.
pub fn run(cli: &Cli, args: &ImportArgs) -> anyhow::Result<ExitCode> {
    let opts = ImportOptions {
        origin: args.origin.clone(),
    };
    opts.validate().map_err(anyhow::Error::msg)?;
    let config = load_config(cli)?;
    let mut store = open_store(cli, &config)?;
    let bar = if cli.no_tui || args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template("importing {bar:30} {pos}/{len} items")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let summary = import_paths_with(&mut store, &args.paths, &opts, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        for p in &summary.problems {
            eprintln!("rejected: {p}");
        }
        for p in &summary.skipped {
            eprintln!("skipped: {p}");
        }
        println!(
            "imported {} task file(s) and {} bundle(s): {} new, {} updated, {} unchanged, {} round(s) recorded, {} rejected, {} folder(s) skipped",
            summary.task_files,
            summary.bundles,
            summary.inserted,
            summary.updated,
            summary.unchanged,
            summary.rounds_recorded,
            summary.problems.len(),
            summary.skipped.len()
        );
    }
    Ok(if summary.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
