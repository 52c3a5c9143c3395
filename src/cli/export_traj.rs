//! `tuplewright export-trajectories`: stored teacher trials as training data (a thin face over
//! `engine::rollout::export`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::context::{load_config, open_existing_store};
use super::Cli;
use crate::engine::rollout::export::{
    export_trajectories, Batching, ExportOptions, Format, RenderOptions, SliceOptions,
    ThoughtWriter, TokenCounter, WireFormat,
};
use crate::engine::rollout::vlm::CoordSpace;

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
Trials without model text (ui-oracle, a person) are rendered for sft and sliced: their recorded actions \
grouped into turns by the paper's batching rules, written in --wire with coordinates in its space, a closing \
terminate, each turn checked by reading it back with the policy's own parser; records say their source. SFT and \
slices drop trials whose actions repeat an earlier trial's of the task (--keep-duplicates keeps them).\n\n\
Images of sft and sliced are files under OUT/images/ (relative URLs) unless --inline-images. OUT is written \
in a temporary directory and swapped in whole; OUT/manifest.json lists what was exported and skipped.\n\n\
Examples:\n  tuplewright export-trajectories --format sft --out output/sft\n  \
tuplewright export-trajectories --format sft --wire uitars --trials-per-task 4 --out output/sft-uitars\n  \
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
    /// sft, sliced: the wire trials without model text are rendered in (qwen-xml, qwen-json,
    /// uitars, anthropic, openai-computer).
    #[arg(long, default_value = "qwen-xml")]
    pub wire: String,
    /// sft, sliced: the coordinate space of rendered turns (default: the wire's own — qwen-xml
    /// rel1000, qwen-json and uitars smart-resize, anthropic and openai-computer pixels).
    #[arg(long)]
    pub coords: Option<String>,
    /// sft, sliced: paper (the paper's batching rules) or single (one action per turn).
    #[arg(long, default_value = "paper")]
    pub batch: String,
    /// sft, sliced: a VLM (vlm:openai:MODEL[@URL]) writes the thought before each rendered turn.
    #[arg(long)]
    pub thoughts: Option<String>,
    /// Only trials from these sources (ui-oracle, human, model; repeatable).
    #[arg(long = "source")]
    pub sources: Vec<String>,
    /// sft, sliced: at most N trials per task (oldest first).
    #[arg(long)]
    pub trials_per_task: Option<usize>,
    /// sft, sliced: keep trials whose actions repeat an earlier trial's of the task.
    #[arg(long)]
    pub keep_duplicates: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `export-trajectories`.
pub fn run(cli: &Cli, args: &ExportTrajArgs) -> anyhow::Result<ExitCode> {
    let format: Format = args.format.parse()?;
    if args.min_reward.is_some_and(|r| !(0.0..=1.0).contains(&r)) {
        anyhow::bail!("--min-reward must be in [0, 1]");
    }
    if args.slice_interval == 0 {
        anyhow::bail!("--slice-interval must be at least 1");
    }
    let render = RenderOptions {
        wire: args
            .wire
            .parse::<WireFormat>()
            .map_err(|e| anyhow::anyhow!("--wire: {e}"))?,
        space: match &args.coords {
            Some(c) => Some(
                c.parse::<CoordSpace>()
                    .map_err(|e| anyhow::anyhow!("--coords: {e}"))?,
            ),
            None => None,
        },
        batching: args
            .batch
            .parse::<Batching>()
            .map_err(|e| anyhow::anyhow!("--batch: {e}"))?,
    };
    if args.trials_per_task == Some(0) {
        anyhow::bail!("--trials-per-task must be at least 1");
    }
    let config = load_config(cli)?;
    let thoughts = match &args.thoughts {
        Some(spec) => Some(ThoughtWriter::from_spec(
            spec,
            &config.rollout.vlm.provider_defaults(),
        )?),
        None => None,
    };
    let store = open_existing_store(cli, &config)?;
    let tokens = match &args.tokenizer {
        Some(p) => TokenCounter::from_file(p)?,
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
            render,
            thoughts: thoughts.as_ref(),
            sources: &args.sources,
            trials_per_task: args.trials_per_task,
            dedup: !args.keep_duplicates,
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
        for (domain, n) in &summary.domains {
            println!(
                "  {domain}: {} task(s), {} trial(s), {} record(s) ({}%)",
                n["tasks"], n["trials"], n["records"], n["share_percent"]
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
