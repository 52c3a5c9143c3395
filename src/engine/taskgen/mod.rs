//! Task generation (paper §2.1, A.2): feature taxonomies, the five-dimensional scenario matrix with
//! inverse-frequency sampling, the three passes (breadth, gap-fill, edge), the scripted generator
//! (instruction + context + scripted `template`/`slots`), anti-repetition and the coverage report.
//!
//! Deterministic for a seed: the same request and seed give byte-identical task JSON.

pub mod dedup;
pub mod generate;
pub mod matrix;
pub mod phrasing;
pub mod quality;
pub mod recipes;
pub mod report;
pub mod seeds;
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
    /// An app seed is malformed.
    #[error("seed of {app}: {what}")]
    Seed {
        /// The app.
        app: String,
        /// What is wrong.
        what: String,
    },
}

/// The built-in apps with a taxonomy.
pub const APPS: [&str; 5] = [
    "team-chat",
    "mail",
    "issue-tracker",
    "ecommerce-admin",
    "files",
];

/// Configuration of task generation (`[taskgen]` in tuplewright.toml).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskgenConfig {
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
}

impl Default for TaskgenConfig {
    fn default() -> Self {
        Self {
            cosine_threshold: 0.85,
            ngram_overlap: 0.5,
            per_template_cap: 3,
            max_attempts: 8,
            min_app_share: 0.1,
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
