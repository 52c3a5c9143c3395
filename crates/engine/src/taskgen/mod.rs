//! Task generation (paper §2.1, A.2): feature taxonomies, the five-dimensional scenario matrix with
//! inverse-frequency sampling, the three passes (breadth, gap-fill, edge), the scripted generator
//! (instruction + context + scripted `template`/`slots`), anti-repetition and the coverage report.
//!
//! Deterministic for a seed: the same request and seed give byte-identical task JSON.

mod books;
pub mod dedup;
pub mod embed;
pub mod generate;
pub mod llm;
pub mod matrix;
pub mod phrasing;
pub mod quality;
pub mod recipes;
pub mod report;
pub mod seeds;
pub mod targets;
pub mod taxonomy;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Errors of task generation.
#[derive(Debug, thiserror::Error)]
pub enum TaskgenError {
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A taxonomy breaks a rule.
    #[error("{}: node `{node}`: {what}", file.display())]
    Taxonomy {
        /// The taxonomy file.
        file: PathBuf,
        /// Dotted node path (`(root)` for the root).
        node: String,
        /// What is wrong.
        what: String,
    },
    /// The request cannot be served.
    #[error("taskgen: {0}")]
    Request(String),
    /// The LLM provider failed (after its retries): an infrastructure failure.
    #[error("taskgen agent: {0}")]
    Agent(String),
    /// The embeddings endpoint failed with `on_error = "fail"`.
    #[error("taskgen: {0}")]
    Embedding(#[from] embed::EmbedError),
    /// An app seed is malformed.
    #[error("seed of {app}: {what}")]
    Seed {
        /// The app.
        app: String,
        /// What is wrong.
        what: String,
    },
}

/// The built-in apps with a taxonomy: every pack ([`crate::apps`]), in registry order.
pub fn apps() -> Vec<&'static str> {
    crate::apps::names()
}

/// Configuration of task generation (`[taskgen]` in tuplewright.toml; CLI flags override it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaskgenConfig {
    /// Who writes (t, c): `scripted` (templates with slots, offline), `openai:MODEL[@BASE_URL]` or
    /// `anthropic:MODEL` (an LLM given the taxonomy leaf, the matrix cell and the app's SKILL.md).
    pub agent: String,
    /// Cosine threshold of the embedding near-duplicate check (paper: 0.85).
    pub cosine_threshold: f32,
    /// Share of a candidate's word 4-grams found in one earlier task above which it is rejected (0.5).
    pub ngram_overlap: f32,
    /// Maximum instances of one instruction template per app (3).
    pub per_template_cap: usize,
    /// Regeneration attempts under the "diversify" instruction before a slot is given up.
    pub max_attempts: usize,
    /// Per-app minimum share of the batch (hard constraint of the sampler), e.g. 0.1.
    pub min_app_share: f64,
    /// The A.2.5 targets the coverage report (and `stats`) checks.
    pub targets: CoverageTargets,
    /// The embeddings endpoint of the near-duplicate check.
    pub embeddings: embed::EmbeddingsConfig,
}

impl Default for TaskgenConfig {
    fn default() -> Self {
        Self {
            agent: "scripted".into(),
            cosine_threshold: 0.85,
            ngram_overlap: 0.5,
            per_template_cap: 3,
            max_attempts: 8,
            min_app_share: 0.1,
            targets: CoverageTargets::default(),
            embeddings: embed::EmbeddingsConfig::default(),
        }
    }
}

/// `[taskgen.targets]`: the A.2.5 quantitative targets, in percent of the corpus (a cross-app task
/// counts for each of its apps).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoverageTargets {
    /// No domain category above this share (21).
    pub largest_category_max_pct: f64,
    /// Hard tasks at least this share (40).
    pub hard_min_pct: f64,
    /// Cross-application tasks at least this share (35).
    pub cross_app_min_pct: f64,
    /// Each app at most this share (15).
    pub app_max_pct: f64,
    /// Each app at least this many tasks (the paper: 1,000 verified tuples); 0 = use `app_min_pct`.
    pub app_min_tasks: u32,
    /// Each app at least this share when `app_min_tasks` is 0 (10).
    pub app_min_pct: f64,
}

impl Default for CoverageTargets {
    fn default() -> Self {
        Self {
            largest_category_max_pct: 21.0,
            hard_min_pct: 40.0,
            cross_app_min_pct: 35.0,
            app_max_pct: 15.0,
            app_min_tasks: 0,
            app_min_pct: 10.0,
        }
    }
}

/// A generation pass (A.2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pass {
    /// Every leaf covered, uniform difficulty.
    Breadth,
    /// Under-covered cells re-sampled, cross-app and hard up-weighted.
    GapFill,
    /// Rare primitives (drag, hotkey chords, multi-window), hard.
    Edge,
}

impl Pass {
    /// The `source_pass` label.
    pub fn label(self) -> &'static str {
        match self {
            Pass::Breadth => "breadth",
            Pass::GapFill => "gap_fill",
            Pass::Edge => "edge_case",
        }
    }
}
