//! The in-process model: BERT ([`super::bert`], candle) over the model directory's safetensors, the
//! `tokenizers` crate over its `tokenizer.json`, then the sentence-transformers head the directory
//! configures (mean pooling over the attention mask, L2 normalisation when `modules.json` lists
//! `Normalize`). Texts are tokenized, sorted by length and run in batches of `batch_size`, so a
//! batch pads little; results come back in the caller's order.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokenizers::{Encoding, Tokenizer, TruncationParams};

use super::bert::{Bert, BertConfig};
use super::locate;
use crate::embedder::embed::{normalised, EmbedError, Embedder};

/// all-MiniLM-L6-v2 (or another BERT sentence-transformers model with mean pooling) in process.
pub struct LocalEmbedder {
    model: Bert,
    tokenizer: Tokenizer,
    dir: PathBuf,
    key: String,
    normalize: bool,
    batch: usize,
    dim: usize,
    texts: AtomicU64,
    tokens: AtomicU64,
    forward_ns: AtomicU64,
}

fn read_json(dir: &Path, name: &str) -> Result<Value, EmbedError> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| EmbedError::Model {
        dir: dir.to_path_buf(),
        what: format!("{name}: {e}"),
    })?;
    serde_json::from_str(&text).map_err(|e| EmbedError::Model {
        dir: dir.to_path_buf(),
        what: format!("{name} is not valid JSON: {e}"),
    })
}

/// Counters of the work done so far (for benchmarks and reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    /// Texts embedded.
    pub texts: u64,
    /// Tokens run through the model (padding included).
    pub tokens: u64,
    /// Wall time spent in the forward pass and pooling, nanoseconds.
    pub forward_ns: u64,
}

impl LocalEmbedder {
    /// Loads the model in `dir` (see [`locate::REQUIRED`]); `batch_size` texts per forward pass.
    pub fn load(dir: &Path, batch_size: usize) -> Result<Self, EmbedError> {
        locate::check(dir)?;
        let bad = |what: String| EmbedError::Model {
            dir: dir.to_path_buf(),
            what,
        };
        let pooling = read_json(dir, "1_Pooling/config.json")?;
        if pooling["pooling_mode_mean_tokens"] != Value::Bool(true) {
            return Err(bad(
                "1_Pooling/config.json: only pooling_mode_mean_tokens = true is supported".into(),
            ));
        }
        let normalize = dir.join("modules.json").is_file()
            && read_json(dir, "modules.json")?.as_array().is_some_and(|m| {
                m.iter().any(|x| {
                    x["type"]
                        .as_str()
                        .is_some_and(|t| t.ends_with(".Normalize"))
                })
            });
        let config_text = std::fs::read_to_string(dir.join("config.json"))
            .map_err(|e| bad(format!("config.json: {e}")))?;
        let config: BertConfig = serde_json::from_str(&config_text)
            .map_err(|e| bad(format!("config.json is not a BERT configuration: {e}")))?;
        let max_len = if dir.join("sentence_bert_config.json").is_file() {
            read_json(dir, "sentence_bert_config.json")?["max_seq_length"]
                .as_u64()
                .map_or(config.max_position_embeddings, |n| n as usize)
        } else {
            config.max_position_embeddings
        };
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| bad(format!("tokenizer.json: {e}")))?;
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_len.min(config.max_position_embeddings),
                ..TruncationParams::default()
            }))
            .map_err(|e| bad(format!("tokenizer truncation: {e}")))?;
        let weights = dir.join("model.safetensors");
        let tensors = candle_core::safetensors::load(&weights, &Device::Cpu)
            .map_err(|e| bad(format!("model.safetensors: {e}")))?;
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &Device::Cpu);
        let model = Bert::load(vb, &config).map_err(|e| bad(format!("model.safetensors: {e}")))?;
        let mut h = Sha256::new();
        h.update(config_text.as_bytes());
        for f in ["tokenizer.json", "1_Pooling/config.json"] {
            h.update(std::fs::read(dir.join(f)).map_err(|e| bad(format!("{f}: {e}")))?);
        }
        let size = std::fs::metadata(&weights)
            .map_err(|e| bad(format!("model.safetensors: {e}")))?
            .len();
        h.update(size.to_le_bytes());
        let name = dir
            .file_name()
            .filter(|n| *n != "model")
            .or_else(|| dir.parent().and_then(Path::file_name))
            .map_or_else(|| "model".into(), |n| n.to_string_lossy().to_string());
        Ok(Self {
            model,
            tokenizer,
            dir: dir.to_path_buf(),
            key: format!("local:{name}:{}", &hex::encode(h.finalize())[..16]),
            normalize,
            batch: batch_size.max(1),
            dim: config.hidden_size,
            texts: AtomicU64::new(0),
            tokens: AtomicU64::new(0),
            forward_ns: AtomicU64::new(0),
        })
    }

    /// Identifies the model for the cache (directory name + a hash of its configuration).
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The directory loaded.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Vector dimension (384 for all-MiniLM-L6-v2).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The work done so far.
    pub fn work(&self) -> Work {
        Work {
            texts: self.texts.load(Ordering::Relaxed),
            tokens: self.tokens.load(Ordering::Relaxed),
            forward_ns: self.forward_ns.load(Ordering::Relaxed),
        }
    }

    /// Token ids of `text` as the model sees them ([CLS] … [SEP], truncated).
    pub fn token_ids(&self, text: &str) -> Result<Vec<u32>, EmbedError> {
        Ok(self.encode(text)?.get_ids().to_vec())
    }

    fn encode(&self, text: &str) -> Result<Encoding, EmbedError> {
        self.tokenizer
            .encode(text, true)
            .map_err(|e| self.error(format!("tokenizing {text:?}: {e}")))
    }

    fn error(&self, what: String) -> EmbedError {
        EmbedError::Model {
            dir: self.dir.clone(),
            what,
        }
    }

    fn forward(&self, encs: &[&Encoding]) -> candle_core::Result<Vec<Vec<f32>>> {
        let dev = Device::Cpu;
        let n = encs.iter().map(|e| e.get_ids().len()).max().unwrap_or(0);
        let b = encs.len();
        let (mut ids, mut mask) = (vec![0u32; b * n], vec![0u32; b * n]);
        for (i, e) in encs.iter().enumerate() {
            for (j, (&id, &m)) in e.get_ids().iter().zip(e.get_attention_mask()).enumerate() {
                ids[i * n + j] = id;
                mask[i * n + j] = m;
            }
        }
        self.tokens.fetch_add((b * n) as u64, Ordering::Relaxed);
        self.texts.fetch_add(b as u64, Ordering::Relaxed);
        let ids = Tensor::from_vec(ids, (b, n), &dev)?;
        let mask = Tensor::from_vec(mask, (b, n), &dev)?;
        let hidden = self.model.forward(&ids, &mask)?;
        let m = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let sum = hidden.broadcast_mul(&m)?.sum(1)?;
        let count = m.sum(1)?.clamp(1e-9f32, f32::MAX)?;
        sum.broadcast_div(&count)?.to_vec2::<f32>()
    }
}

impl Embedder for LocalEmbedder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let encs = texts
            .iter()
            .map(|t| self.encode(t))
            .collect::<Result<Vec<_>, _>>()?;
        let mut order: Vec<usize> = (0..encs.len()).collect();
        order.sort_by_key(|&i| encs[i].get_ids().len());
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for chunk in order.chunks(self.batch) {
            let batch: Vec<&Encoding> = chunk.iter().map(|&i| &encs[i]).collect();
            let t = Instant::now();
            let vs = self
                .forward(&batch)
                .map_err(|e| self.error(format!("forward pass: {e}")))?;
            self.forward_ns
                .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
            for (&i, v) in chunk.iter().zip(vs) {
                out[i] = if self.normalize { normalised(v) } else { v };
            }
        }
        Ok(out)
    }
}
