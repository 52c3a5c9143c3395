//! `tuplewright taskgen`: generate balanced (t, c) tasks from the feature taxonomies, or report
//! coverage against the A.2.5 targets.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use serde_json::Value;

use super::context::{load_config, open_store};
use super::Cli;
use crate::engine::agents::spec::AgentSpec;
use crate::engine::config::Config;
use crate::engine::embedder::{Backend, Kind};
use crate::engine::jobs::taskgen::{TaskgenResult, TaskgenSpec};
use crate::engine::taskgen::report::{matrix_of, report};
use crate::engine::taskgen::{Pass, TaskgenConfig};

/// The pass to run.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PassArg {
    /// Every taxonomy leaf covered, difficulties uniform.
    Breadth,
    /// Re-sample under-covered cells (counts include the store's tasks), cross-app and hard up-weighted.
    Gapfill,
    /// Rare primitives (drag, hotkey chords, multi-window) and cross-app, mostly hard.
    Edge,
}

/// The long `--help` text of `taskgen` (the variant in `cli/mod.rs` points here, since a variant's
/// doc comment would otherwise replace it).
pub const LONG_ABOUT: &str = "Generate instruction-context pairs (t, c) with the scripted generator.\n\n\
Leaves of skills/<app>/taxonomy.toml are sampled in three passes (breadth: every leaf; gap-fill: \
under-covered matrix cells, cross-app and hard up-weighted; edge: rare primitives). Each task is \
labelled with the scenario-matrix cell (platform, category, difficulty, scenario, task type) and carries \
the scripted `template` + `slots`, so `tuplewright run FILE` can realise it offline. Near-duplicates \
(4-gram overlap > 50%, cosine >= 0.85 on the sentence embeddings of the local all-MiniLM-L6-v2 \
model and on hashed character 3-grams, > 3 per instruction template per app) are regenerated under a \"diversify\" instruction; rejection counts are printed and stored as a \
`taskgen` event. Tasks are written to --out (task-gen JSON, atomically) and upserted into the store.\n\n\
With --agent openai:MODEL[@URL] or anthropic:MODEL an LLM writes each (t, c) from the taxonomy \
leaf, the matrix cell and the app's SKILL.md (prompts/taskgen.md); its JSON answer is checked \
strictly and a rejected candidate is re-asked with a \"diversify\" note naming the reason. With \
--embeddings-url (or [taskgen.embeddings] base_url) an OpenAI-compatible /embeddings endpoint \
embeds instead of the local model; without the model (not installed: `tuplewright sandbox setup`) \
only the character 3-grams are checked, and the summary says so. --embedder picks one explicitly. \
Vectors are cached per instruction hash in the store. Settings come from [taskgen]; flags override them.\n\n\
Examples:\n  tuplewright taskgen --app mail --app files --n 200 --seed 7 --out tasks.json\n  \
tuplewright taskgen --agent openai:gpt-4.1-mini --embeddings-url https://api.openai.com/v1 --n 50\n  \
tuplewright taskgen --report\n  tuplewright taskgen --report --input tasks.json";

/// Arguments of `taskgen`.
#[derive(Debug, Args)]
pub struct TaskgenArgs {
    /// App(s) to generate for (repeatable; default: all five built-in apps).
    #[arg(long = "app", value_parser = clap::builder::PossibleValuesParser::new(crate::apps::names()))]
    pub apps: Vec<String>,
    /// Number of tasks.
    #[arg(long, default_value_t = 100)]
    pub n: usize,
    /// Run only this pass (default: 30% breadth, 55% gap-fill, 15% edge).
    #[arg(long, value_enum)]
    pub pass: Option<PassArg>,
    /// Random seed (same seed, same tasks).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the task-gen JSON here (default: print nothing but the summary).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Do not write the tasks into the store.
    #[arg(long)]
    pub no_store: bool,
    /// Print the coverage report instead of generating (from the store, or --input).
    #[arg(long)]
    pub report: bool,
    /// With --report: read this task-gen JSON file instead of the store.
    #[arg(long, requires = "report")]
    pub input: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Who writes the tasks: scripted, openai:MODEL[@BASE_URL], anthropic:MODEL (default: [taskgen] agent).
    #[arg(long)]
    pub agent: Option<String>,
    /// OpenAI-compatible embeddings endpoint root incl. /v1 (default: [taskgen.embeddings] base_url).
    #[arg(long)]
    pub embeddings_url: Option<String>,
    /// Embeddings model name.
    #[arg(long)]
    pub embeddings_model: Option<String>,
    /// Near-duplicate embedding: auto (endpoint if set, else the local model, else char 3-grams),
    /// model, endpoint, ngram (default: [taskgen.embeddings] backend).
    #[arg(long)]
    pub embedder: Option<Backend>,
    /// Cosine similarity at or above which a candidate is a near-duplicate.
    #[arg(long)]
    pub cosine: Option<f32>,
    /// Share of shared word 4-grams above which a candidate is rejected.
    #[arg(long)]
    pub ngram_overlap: Option<f32>,
    /// Instances allowed per instruction template per app.
    #[arg(long)]
    pub template_cap: Option<usize>,
    /// Directory holding taskgen.md (default: ./prompts, else the bundled prompts).
    #[arg(long)]
    pub prompts: Option<PathBuf>,
}

/// The effective settings: the file's [taskgen], then the flags.
fn effective(config: &Config, args: &TaskgenArgs) -> TaskgenConfig {
    let mut cfg = config.taskgen.clone();
    if let Some(a) = &args.agent {
        cfg.agent = a.clone();
    }
    if let Some(u) = &args.embeddings_url {
        cfg.embeddings.base_url = u.clone();
    }
    if let Some(m) = &args.embeddings_model {
        cfg.embeddings.model = m.clone();
    }
    if let Some(b) = args.embedder {
        cfg.embeddings.backend = b;
    }
    if let Some(c) = args.cosine {
        cfg.cosine_threshold = c;
    }
    if let Some(o) = args.ngram_overlap {
        cfg.ngram_overlap = o;
    }
    if let Some(t) = args.template_cap {
        cfg.per_template_cap = t;
    }
    cfg
}

fn prompts_dir(arg: &Option<PathBuf>) -> PathBuf {
    crate::engine::agents::build::prompts_dir(arg.as_deref(), "taskgen.md")
}

fn stored_tasks(cli: &Cli, config: &Config) -> anyhow::Result<Vec<Value>> {
    Ok(crate::engine::jobs::taskgen::stored_tasks(&open_store(
        cli, config,
    )?)?)
}

/// Runs `taskgen`.
pub fn run(cli: &Cli, args: &TaskgenArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(cli)?;
    let cfg = effective(&config, args);
    if !(0.0..=1.0).contains(&cfg.cosine_threshold) || !(0.0..=1.0).contains(&cfg.ngram_overlap) {
        anyhow::bail!(
            "taskgen: cosine threshold ({}) and 4-gram overlap ({}) must lie in [0, 1]",
            cfg.cosine_threshold,
            cfg.ngram_overlap
        );
    }
    if args.report {
        let tasks = match &args.input {
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .with_context(|| format!("reading {}", p.display()))?;
                let v: Value = serde_json::from_str(&text)
                    .with_context(|| format!("{} is not JSON", p.display()))?;
                v.get("tasks")
                    .cloned()
                    .unwrap_or(v)
                    .as_array()
                    .cloned()
                    .with_context(|| {
                        format!(
                            "{}: expected a list of tasks or {{\"tasks\": [...]}}",
                            p.display()
                        )
                    })?
            }
            None => stored_tasks(cli, &config)?,
        };
        let r = report(matrix_of(&tasks), &cfg.targets);
        if args.json {
            println!("{}", serde_json::to_string_pretty(&r)?);
        } else {
            print!("{}", r.render());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let apps: Vec<String> = if args.apps.is_empty() {
        crate::engine::taskgen::apps()
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        args.apps.clone()
    };
    let pass = args.pass.map(|p| match p {
        PassArg::Breadth => Pass::Breadth,
        PassArg::Gapfill => Pass::GapFill,
        PassArg::Edge => Pass::Edge,
    });
    let author: AgentSpec = cfg
        .agent
        .parse()
        .map_err(|e| anyhow::anyhow!("--agent / [taskgen] agent: {e}"))?;
    let spec = TaskgenSpec {
        apps,
        n: args.n,
        pass,
        seed: args.seed,
        author,
        prompts: prompts_dir(&args.prompts),
        out: args.out.clone(),
        venv: config.sandbox.venv_dir.clone(),
        cfg,
    };
    let mut store = if args.no_store {
        None
    } else {
        Some(open_store(cli, &config)?)
    };
    let TaskgenResult {
        batch,
        chosen,
        summary,
    } = crate::engine::jobs::taskgen::run(&spec, store.as_mut())?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        let rej: Vec<String> = batch
            .rejections
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        println!(
            "generated {} of {} task(s) from {} candidate(s); rejected: {}{}",
            batch.tasks.len(),
            args.n,
            batch.candidates,
            if rej.is_empty() {
                "none".into()
            } else {
                rej.join(", ")
            },
            args.out
                .as_ref()
                .map_or(String::new(), |p| format!("; wrote {}", p.display()))
        );
        println!(
            "near-duplicate check: {}{}",
            chosen.label,
            if chosen.kind == Kind::Ngram {
                String::new()
            } else {
                " + hashed character 3-grams (floor)".to_string()
            }
        );
        if let Some(why) = &chosen.degraded {
            eprintln!("warning: {why}; only the weaker character 3-gram check ran");
        }
        if batch.embedding_fallbacks > 0 {
            eprintln!(
                "warning: the embeddings endpoint failed for {} candidate(s); they were checked offline only",
                batch.embedding_fallbacks
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
