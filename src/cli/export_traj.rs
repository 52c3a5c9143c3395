//! `tuplewright export-trajectories`: stored teacher trials as training data (a thin face over
//! `engine::rollout::export`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::context::{load_config, open_existing_store};
use super::Cli;
use crate::engine::rollout::export::{
    export_trajectories, ExportOptions, Format, SliceOptions, TokenCounter,
};

/// Arguments of `export-trajectories`.
#[derive(Debug, Args)]
#[command(
    about = "Export stored rollout trials as training data: OSWorld result folders, SFT chat JSONL, or C.1.2 slices",
    long_about = "Export every scored trial (a failed trial has no reward and is never exported) in one format:\n\n  \
osworld  OUT/<model>/<task_id>/trial_<n>_<id>/ with traj.jsonl (step_num, action_timestamp, action, response, \
reward, done, info, screenshot_file), step_N_<ts>.png, step_0.png (first observation) and result.txt\n  \
sft      OUT/sft.jsonl: one OpenAI-shaped conversation per trial (system, the instruction with the first \
screenshot, then the model's verbatim replies and the screenshots it saw), success only by default\n  \
sliced   OUT/slices.jsonl: the paper's C.1.2 slices (every --slice-interval turn-pairs; earlier screenshots \
collapsed to \"<image collapsed>\"; loss_mask true only on assistant messages of the response portion with at most \
10 tool calls; the episode reward on every slice; a dummy slice when over --context-budget tokens, counted with \
--tokenizer or estimated at 4 characters per token)\n\n\
Images of sft and sliced are files under OUT/images/ (relative URLs) unless --inline-images. OUT is written \
in a temporary directory and swapped in whole; OUT/manifest.json lists what was exported and skipped.\n\n\
Examples:\n  tuplewright export-trajectories --format sft --out output/sft\n  \
tuplewright export-trajectories --format sliced --tokenizer tokenizer.json --min-reward 0 --out output/rl"
)]
pub struct ExportTrajArgs {
    /// osworld, sft or sliced.
    #[arg(long)]
    pub format: String,
    /// Output directory (replaced as a whole; default output/trajectories-<format>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Lowest reward exported (default: 1.0 for sft, every scored trial otherwise).
    #[arg(long)]
    pub min_reward: Option<f64>,
    /// Only these tasks (repeatable).
    #[arg(long = "task")]
    pub tasks: Vec<String>,
    /// Only trials of this policy, as recorded (e.g. vlm:openai:Qwen/Qwen3-VL-8B).
    #[arg(long)]
    pub model: Option<String>,
    /// sliced: turn-pairs per slice (traj_slice_interval).
    #[arg(long, default_value_t = 10)]
    pub slice_interval: usize,
    /// sliced: tokens a slice may hold before it becomes a dummy.
    #[arg(long, default_value_t = 144_000)]
    pub context_budget: usize,
    /// sliced: a Hugging Face tokenizer.json for exact text token counts.
    #[arg(long)]
    pub tokenizer: Option<PathBuf>,
    /// sft, sliced: images as data URLs inside the JSONL instead of files.
    #[arg(long)]
    pub inline_images: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `export-trajectories`.
pub fn run(cli: &Cli, args: &ExportTrajArgs) -> anyhow::Result<ExitCode> {
    let format: Format = args
        .format
        .parse()
        .map_err(|e: String| anyhow::anyhow!(e))?;
    if args.min_reward.is_some_and(|r| !(0.0..=1.0).contains(&r)) {
        anyhow::bail!("--min-reward must be in [0, 1]");
    }
    if args.slice_interval == 0 {
        anyhow::bail!("--slice-interval must be at least 1");
    }
    let config = load_config(cli)?;
    let store = open_existing_store(cli, &config)?;
    let tokens = match &args.tokenizer {
        Some(p) => TokenCounter::from_file(p).map_err(|e| anyhow::anyhow!(e))?,
        None => TokenCounter::Estimate,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("output/trajectories-{}", args.format)));
    let summary = export_trajectories(
        &store,
        &ExportOptions {
            format,
            out: &out,
            min_reward: args.min_reward,
            tasks: &args.tasks,
            model: args.model.as_deref(),
            inline_images: args.inline_images,
            slices: SliceOptions {
                interval: args.slice_interval,
                budget: args.context_budget,
            },
            tokens: &tokens,
        },
    )?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        for s in &summary.skipped {
            eprintln!("skipped {s}");
        }
        println!(
            "{} trial(s) -> {} ({} record(s), {} image(s){})",
            summary.trials,
            summary.out.display(),
            summary.records,
            summary.images,
            if summary.dummy_slices > 0 {
                format!(", {} dummy slice(s)", summary.dummy_slices)
            } else {
                String::new()
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
