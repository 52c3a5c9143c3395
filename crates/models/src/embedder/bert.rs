//! The BERT encoder of a sentence-transformers model (post-LayerNorm, erf GELU, absolute positions),
//! built from candle-nn layers over the checkpoint's tensor names (`embeddings.*`,
//! `encoder.layer.N.*`, as in all-MiniLM-L6-v2's `model.safetensors`). Written here on candle-nn
//! rather than taken from candle-transformers, whose ~150k lines of other models cost minutes of
//! every clean build for one 100-line module.

use candle_core::{DType, Module, Result, Tensor};
use candle_nn::{embedding, layer_norm, linear, Embedding, LayerNorm, Linear, VarBuilder};
use serde::Deserialize;

/// The fields of a Hugging Face `config.json` the encoder needs.
#[derive(Debug, Clone, Deserialize)]
pub struct BertConfig {
    /// Vocabulary size.
    pub vocab_size: usize,
    /// Hidden (and sentence-vector) dimension.
    pub hidden_size: usize,
    /// Encoder layers.
    pub num_hidden_layers: usize,
    /// Attention heads per layer.
    pub num_attention_heads: usize,
    /// Feed-forward width.
    pub intermediate_size: usize,
    /// Activation; only `gelu` (the erf form) is supported.
    pub hidden_act: String,
    /// Longest input, in tokens.
    pub max_position_embeddings: usize,
    /// Token-type vocabulary.
    pub type_vocab_size: usize,
    /// LayerNorm epsilon.
    pub layer_norm_eps: f64,
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    out: Linear,
    attn_norm: LayerNorm,
    up: Linear,
    down: Linear,
    out_norm: LayerNorm,
}

/// The encoder.
pub struct Bert {
    word: Embedding,
    position: Embedding,
    token_type: Embedding,
    norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
}

impl Bert {
    /// Loads the weights from `vb` (tensor names without a `bert.` prefix, or with one).
    pub fn load(vb: VarBuilder, c: &BertConfig) -> Result<Self> {
        if c.hidden_act != "gelu" {
            candle_core::bail!("hidden_act `{}` is not supported (only gelu)", c.hidden_act);
        }
        if c.num_attention_heads == 0 || !c.hidden_size.is_multiple_of(c.num_attention_heads) {
            candle_core::bail!("hidden_size is not a multiple of num_attention_heads");
        }
        let vb = if vb.contains_tensor("bert.embeddings.word_embeddings.weight") {
            vb.pp("bert")
        } else {
            vb
        };
        let (h, e) = (c.hidden_size, vb.pp("embeddings"));
        let mut layers = Vec::with_capacity(c.num_hidden_layers);
        for i in 0..c.num_hidden_layers {
            let l = vb.pp(format!("encoder.layer.{i}"));
            let a = l.pp("attention");
            layers.push(Layer {
                query: linear(h, h, a.pp("self.query"))?,
                key: linear(h, h, a.pp("self.key"))?,
                value: linear(h, h, a.pp("self.value"))?,
                out: linear(h, h, a.pp("output.dense"))?,
                attn_norm: layer_norm(h, c.layer_norm_eps, a.pp("output.LayerNorm"))?,
                up: linear(h, c.intermediate_size, l.pp("intermediate.dense"))?,
                down: linear(c.intermediate_size, h, l.pp("output.dense"))?,
                out_norm: layer_norm(h, c.layer_norm_eps, l.pp("output.LayerNorm"))?,
            });
        }
        Ok(Self {
            word: embedding(c.vocab_size, h, e.pp("word_embeddings"))?,
            position: embedding(c.max_position_embeddings, h, e.pp("position_embeddings"))?,
            token_type: embedding(c.type_vocab_size, h, e.pp("token_type_embeddings"))?,
            norm: layer_norm(h, c.layer_norm_eps, e.pp("LayerNorm"))?,
            layers,
            heads: c.num_attention_heads,
        })
    }

    /// Hidden states `(batch, tokens, hidden)` of `ids` `(batch, tokens)` (u32); `mask` is 1 for
    /// real tokens and 0 for padding (same shape). Token types are all 0 (single sentences).
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (b, n) = ids.dims2()?;
        let dev = ids.device();
        let positions = Tensor::arange(0u32, n as u32, dev)?;
        let types = Tensor::zeros(n, DType::U32, dev)?;
        let x = self
            .word
            .forward(ids)?
            .broadcast_add(&self.position.forward(&positions)?)?
            .broadcast_add(&self.token_type.forward(&types)?)?;
        let mut x = self.norm.forward(&x)?;
        // Additive attention mask: 0 for real tokens, -1e9 for padding, per key position.
        let mask = mask
            .to_dtype(DType::F32)?
            .affine(1e9, -1e9)?
            .reshape((b, 1, 1, n))?;
        for l in &self.layers {
            x = self.layer(l, &x, &mask)?;
        }
        Ok(x)
    }

    fn layer(&self, l: &Layer, x: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (b, n, h) = x.dims3()?;
        let d = h / self.heads;
        let split = |t: Tensor| -> Result<Tensor> {
            t.reshape((b, n, self.heads, d))?
                .transpose(1, 2)?
                .contiguous()
        };
        let q = split(l.query.forward(x)?)?;
        let k = split(l.key.forward(x)?)?;
        let v = split(l.value.forward(x)?)?;
        let scores = (q.matmul(&k.t()?)? / (d as f64).sqrt())?.broadcast_add(mask)?;
        let p = candle_nn::ops::softmax_last_dim(&scores)?;
        let ctx = p.matmul(&v)?.transpose(1, 2)?.reshape((b, n, h))?;
        let x = l.attn_norm.forward(&(l.out.forward(&ctx)? + x)?)?;
        let up = l.up.forward(&x)?.gelu_erf()?;
        l.out_norm.forward(&(l.down.forward(&up)? + &x)?)
    }
}
