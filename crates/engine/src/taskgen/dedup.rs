//! Anti-repetition (A.2.4), in the order cheapest first:
//! 1. at most `per_template_cap` instances of one instruction template per app;
//! 2. word 4-gram overlap: a candidate sharing more than `ngram_overlap` of its distinct 4-grams with
//!    any one earlier task is rejected. An inverted index (4-gram hash → task numbers) counts shared
//!    grams per earlier task in one pass over the candidate's postings, never comparing all pairs;
//! 3. embedding cosine >= `cosine_threshold` against the running corpus. Offline fallback: hashed
//!    character 3-gram vectors (256 buckets, L2-normalised). Weaker guarantee than a sentence
//!    embedding: it sees spelling, not meaning, so paraphrases with different words pass and bucket
//!    collisions inflate similarity slightly; it does catch reorderings and small edits that the
//!    4-gram check misses. Vectors sit in one contiguous buffer scanned linearly (256 multiply-adds
//!    per earlier task; see benches/taskgen.rs for the measured cost at 10,000 tasks).
//!    With a sentence embedder — by default the in-process all-MiniLM-L6-v2 of
//!    [`tuplewright_models::embedder`], or an embeddings endpoint ([`super::embed`]) — its vectors are
//!    checked as well ([`Dedup::admit_with`]); the character 3-gram check stays as a floor. Its
//!    vectors also sit in one contiguous buffer. The generator batches this check: candidates that
//!    pass checks 1–3 are admitted tentatively ([`Dedup::propose`]), embedded together and settled
//!    in order ([`Dedup::settle`]) against the corpus (one matrix product, [`best_cosines`]) and
//!    the candidates kept before them; a rejected one is withdrawn.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::embed::{EmbedError, Embedder, OnError};
use super::TaskgenConfig;

use tuplewright_models::embedder::ngram::fnv;
/// The offline embedding and the cosine, owned by the embedder area.
pub use tuplewright_models::embedder::ngram::{cosine, embed, DIM};

/// Why a candidate was rejected as repetitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Repeat {
    /// The instruction template already has `per_template_cap` instances for an app.
    TemplateCap,
    /// More than half the 4-grams are shared with one earlier task.
    NgramOverlap,
    /// Cosine similarity >= threshold with an earlier task.
    NearDuplicate,
}

impl Repeat {
    /// Stable name used in counts.
    pub fn name(self) -> &'static str {
        match self {
            Repeat::TemplateCap => "template_cap",
            Repeat::NgramOverlap => "ngram_overlap",
            Repeat::NearDuplicate => "near_duplicate",
        }
    }
}

/// The running corpus and its indexes.
#[derive(Debug, Default)]
pub struct Dedup {
    cfg: TaskgenConfig,
    postings: HashMap<u64, Vec<u32>>,
    shared: Vec<u32>,
    touched: Vec<u32>,
    vectors: Vec<f32>,
    templates: HashMap<String, usize>,
    docs: u32,
    /// Sentence-embedder vectors of the documents that have one, contiguous (`ext_dim` each).
    ext: Vec<f32>,
    /// Dimension of the `ext` vectors (0 until the first one).
    ext_dim: usize,
    /// Preloaded texts still to be embedded by the endpoint (document number, text).
    pending: Vec<(u32, String)>,
    /// Candidates admitted by the cheap checks that await the sentence embedding ([`Dedup::settle`]).
    tentative: Vec<Tentative>,
    /// Documents withdrawn after a sentence-embedding rejection (skipped by the cheap checks).
    dead: Vec<bool>,
    /// How many documents are withdrawn.
    withdrawn: u32,
    /// Rejections per reason name.
    pub rejections: BTreeMap<String, usize>,
    /// Candidates checked offline only because the endpoint failed (`on_error = "fallback"`).
    pub embedding_fallbacks: usize,
}

/// A candidate committed by the cheap checks, awaiting its sentence-embedding verdict.
#[derive(Debug)]
struct Tentative {
    doc: u32,
    keys: Vec<String>,
    text: String,
}

/// A candidate that passed the offline checks, ready to be committed.
struct Passed {
    keys: Vec<String>,
    grams: Vec<u64>,
    v: [f32; DIM],
}

/// Distinct word 4-gram hashes of a text (lower-cased, split on non-alphanumerics).
pub fn four_grams(text: &str) -> Vec<u64> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: Vec<u64> = words
        .windows(4)
        .map(|w| fnv(w.join(" ").as_bytes(), 0))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// For each of `cands`, its largest cosine with the `dim`-wide rows of `rows` (−∞ when there are
/// none, or for a candidate of another dimension): one matrix product (candle's gemm, all cores)
/// instead of a scan per candidate, so the corpus is read once per batch, not once per candidate.
pub fn best_cosines(rows: &[f32], dim: usize, cands: &[Vec<f32>]) -> Vec<f32> {
    let mut best = vec![f32::NEG_INFINITY; cands.len()];
    let n = rows.len().checked_div(dim).unwrap_or(0);
    let fit: Vec<usize> = (0..cands.len())
        .filter(|&i| cands[i].len() == dim)
        .collect();
    if n == 0 || fit.is_empty() {
        return best;
    }
    let rows = &rows[..n * dim];
    match product_max(rows, n, dim, cands, &fit) {
        Ok(m) => fit.iter().zip(m).for_each(|(&i, c)| best[i] = c),
        // Not expected (the shapes are consistent); the scan gives the same answer, slower.
        Err(_) => {
            for &i in &fit {
                best[i] = rows
                    .chunks_exact(dim)
                    .map(|o| cosine(&cands[i], o))
                    .fold(f32::NEG_INFINITY, f32::max);
            }
        }
    }
    best
}

fn product_max(
    rows: &[f32],
    n: usize,
    dim: usize,
    cands: &[Vec<f32>],
    fit: &[usize],
) -> candle_core::Result<Vec<f32>> {
    use candle_core::{Device, Tensor};
    let flat: Vec<f32> = fit.iter().flat_map(|&i| cands[i].iter().copied()).collect();
    let c = Tensor::from_vec(flat, (fit.len(), dim), &Device::Cpu)?;
    let r = Tensor::from_slice(rows, (n, dim), &Device::Cpu)?;
    c.matmul(&r.t()?)?.max(1)?.to_vec1::<f32>()
}

impl Dedup {
    /// An empty corpus.
    pub fn new(cfg: &TaskgenConfig) -> Self {
        Self {
            cfg: cfg.clone(),
            ..Self::default()
        }
    }

    /// Tasks admitted so far (tentative ones included, withdrawn ones not).
    pub fn len(&self) -> usize {
        (self.docs - self.withdrawn) as usize
    }

    /// True when nothing was admitted.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks a candidate with the offline checks only; on success admits it. `apps` and
    /// `template` key the per-template cap.
    pub fn admit(&mut self, apps: &[&str], template: &str, text: &str) -> Result<(), Repeat> {
        let p = self.offline(apps, template, text)?;
        self.commit(p);
        Ok(())
    }

    /// Like [`Dedup::admit`], then (with an `embedder`) the sentence embedding's cosine against
    /// every earlier task that has such a vector: [`Dedup::propose`] then [`Dedup::settle`] of this
    /// one candidate. The outer error is an infrastructure failure (only with `on_error = Fail`);
    /// with `Fallback` a failed call is counted in `embedding_fallbacks`, logged, and the candidate
    /// is judged by the offline checks alone.
    pub fn admit_with(
        &mut self,
        apps: &[&str],
        template: &str,
        text: &str,
        embedder: Option<&dyn Embedder>,
        on_error: OnError,
    ) -> Result<Result<(), Repeat>, EmbedError> {
        if let Err(r) = self.propose(apps, template, text) {
            return Ok(Err(r));
        }
        Ok(match self.settle(embedder, on_error)?.pop() {
            Some(false) => Err(Repeat::NearDuplicate),
            _ => Ok(()),
        })
    }

    /// Runs the cheap checks on a candidate and, when it passes, admits it tentatively: later
    /// candidates are checked against it at once, and [`Dedup::settle`] gives the
    /// sentence-embedding verdict of every tentative candidate in one batched call.
    pub fn propose(&mut self, apps: &[&str], template: &str, text: &str) -> Result<(), Repeat> {
        let p = self.offline(apps, template, text)?;
        self.tentative.push(Tentative {
            doc: self.docs,
            keys: p.keys.clone(),
            text: text.to_string(),
        });
        self.commit(p);
        Ok(())
    }

    /// Candidates proposed and not yet settled.
    pub fn unsettled(&self) -> usize {
        self.tentative.len()
    }

    /// The verdicts (true = kept) of the tentative candidates, in the order proposed. With an
    /// `embedder` their texts are embedded in one call, then each is compared, in order, with
    /// every earlier task's vector (one matrix product) and with the candidates kept before it in
    /// this call; a rejected one is withdrawn (its template count and cheap-check entries no longer
    /// count) and counted as `near_duplicate`. Without an embedder every candidate is kept. A
    /// failed call: see [`Dedup::admit_with`] (with `Fallback` the candidates are kept on the cheap
    /// checks alone).
    pub fn settle(
        &mut self,
        embedder: Option<&dyn Embedder>,
        on_error: OnError,
    ) -> Result<Vec<bool>, EmbedError> {
        let Some(e) = embedder else {
            return Ok(vec![true; std::mem::take(&mut self.tentative).len()]);
        };
        let batch = std::mem::take(&mut self.tentative);
        let texts: Vec<&str> = batch.iter().map(|t| t.text.as_str()).collect();
        let answer = self.embed_pending(e, on_error).and_then(|()| {
            let vs = e.embed(&texts)?;
            if vs.len() == texts.len() {
                Ok(vs)
            } else {
                Err(EmbedError::Config(format!(
                    "the embedder returned {} vector(s) for {} text(s)",
                    vs.len(),
                    texts.len()
                )))
            }
        });
        let vs = match answer {
            Ok(vs) => vs,
            Err(err) if on_error == OnError::Fallback => {
                tracing::warn!(error = %err, count = batch.len(), "embedding failed; candidates checked offline only");
                self.embedding_fallbacks += batch.len();
                return Ok(vec![true; batch.len()]);
            }
            // An infrastructure failure admits nothing: the candidates are withdrawn.
            Err(err) => {
                batch.into_iter().for_each(|t| self.withdraw(t));
                return Err(err);
            }
        };
        if self.ext_dim == 0 {
            self.ext_dim = vs.first().map_or(0, Vec::len);
        }
        let best = best_cosines(&self.ext, self.ext_dim, &vs);
        let threshold = self.cfg.cosine_threshold;
        let mut kept: Vec<usize> = Vec::new();
        let mut out = Vec::with_capacity(batch.len());
        for (i, t) in batch.into_iter().enumerate() {
            let v = &vs[i];
            let close = v.len() == self.ext_dim
                && (best[i] >= threshold || kept.iter().any(|&j| cosine(v, &vs[j]) >= threshold));
            if close {
                self.withdraw(t);
                self.reject(Repeat::NearDuplicate);
                out.push(false);
            } else {
                if v.len() == self.ext_dim {
                    kept.push(i);
                }
                out.push(true);
            }
        }
        for &i in &kept {
            self.ext.extend_from_slice(&vs[i]);
        }
        Ok(out)
    }

    fn withdraw(&mut self, t: Tentative) {
        for k in t.keys {
            if let Some(n) = self.templates.get_mut(&k) {
                *n = n.saturating_sub(1);
            }
        }
        self.dead.resize(self.docs as usize, false);
        self.dead[t.doc as usize] = true;
        self.withdrawn += 1;
    }

    /// Embeds the preloaded corpus (in batches of `batch_size`) so candidates are compared with it
    /// too. Called by [`Dedup::admit_with`] before the first candidate; a no-op afterwards.
    pub fn embed_pending(&mut self, e: &dyn Embedder, on_error: OnError) -> Result<(), EmbedError> {
        let pending = std::mem::take(&mut self.pending);
        let batch = self.cfg.embeddings.batch_size.max(1);
        for chunk in pending.chunks(batch) {
            let texts: Vec<&str> = chunk.iter().map(|(_, t)| t.as_str()).collect();
            match e.embed(&texts) {
                Ok(vs) => vs.into_iter().for_each(|v| self.push_ext(v)),
                Err(err) if on_error == OnError::Fallback => {
                    tracing::warn!(error = %err, "embedding the stored corpus failed; those tasks are checked offline only");
                    self.embedding_fallbacks += chunk.len();
                }
                Err(err) => return Err(err),
            }
        }
        Ok(())
    }

    fn offline(&mut self, apps: &[&str], template: &str, text: &str) -> Result<Passed, Repeat> {
        let keys: Vec<String> = apps.iter().map(|a| format!("{a}\u{1}{template}")).collect();
        if keys
            .iter()
            .any(|k| self.templates.get(k).copied().unwrap_or(0) >= self.cfg.per_template_cap)
        {
            return Err(self.reject(Repeat::TemplateCap));
        }
        let grams = four_grams(text);
        if self.overlaps(&grams) {
            return Err(self.reject(Repeat::NgramOverlap));
        }
        let v = embed(text);
        let dead = &self.dead;
        if self.vectors.chunks_exact(DIM).enumerate().any(|(d, o)| {
            cosine(&v, o) >= self.cfg.cosine_threshold && !dead.get(d).copied().unwrap_or(false)
        }) {
            return Err(self.reject(Repeat::NearDuplicate));
        }
        Ok(Passed { keys, grams, v })
    }

    fn commit(&mut self, p: Passed) {
        for k in p.keys {
            *self.templates.entry(k).or_insert(0) += 1;
        }
        let id = self.docs;
        for g in p.grams {
            self.postings.entry(g).or_default().push(id);
        }
        self.vectors.extend_from_slice(&p.v);
        self.docs += 1;
    }

    fn push_ext(&mut self, v: Vec<f32>) {
        if self.ext_dim == 0 {
            self.ext_dim = v.len();
        }
        if v.len() == self.ext_dim {
            self.ext.extend_from_slice(&v);
        }
    }

    /// Adds an earlier task to the corpus unconditionally (tasks already in the store), so later
    /// candidates are checked against it too. `template` may be unknown for foreign tasks.
    pub fn preload(&mut self, apps: &[&str], template: Option<&str>, text: &str) {
        if let Some(t) = template {
            for a in apps {
                *self.templates.entry(format!("{a}\u{1}{t}")).or_insert(0) += 1;
            }
        }
        let id = self.docs;
        for g in four_grams(text) {
            self.postings.entry(g).or_default().push(id);
        }
        self.vectors.extend_from_slice(&embed(text));
        self.pending.push((id, text.to_string()));
        self.docs += 1;
    }

    fn reject(&mut self, r: Repeat) -> Repeat {
        *self.rejections.entry(r.name().into()).or_insert(0) += 1;
        r
    }

    fn overlaps(&mut self, grams: &[u64]) -> bool {
        if grams.is_empty() {
            return false;
        }
        self.shared.resize(self.docs as usize, 0);
        let limit = self.cfg.ngram_overlap * grams.len() as f32;
        let mut hit = false;
        for g in grams {
            if let Some(list) = self.postings.get(g) {
                for &d in list {
                    if self.dead.get(d as usize).copied().unwrap_or(false) {
                        continue;
                    }
                    let c = &mut self.shared[d as usize];
                    if *c == 0 {
                        self.touched.push(d);
                    }
                    *c += 1;
                    if *c as f32 > limit {
                        hit = true;
                    }
                }
            }
            if hit {
                break;
            }
        }
        for d in self.touched.drain(..) {
            self.shared[d as usize] = 0;
        }
        hit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_and_cosine_behave() {
        let a = "Move WEB-105 to In Review and assign it to Daniel Silva before the demo.";
        let b = "Move WEB-117 to In Review and assign it to Daniel Silva before the demo.";
        assert!(cosine(&embed(a), &embed(b)) > 0.85);
        let c = "Email Kavya Okafor to confirm the budget review on Friday at 2pm.";
        assert!(cosine(&embed(a), &embed(c)) < 0.85);
        let mut d = Dedup::new(&TaskgenConfig::default());
        assert!(d.admit(&["x"], "t1", a).is_ok());
        assert_eq!(d.admit(&["x"], "t2", b), Err(Repeat::NgramOverlap));
        assert!(d.admit(&["x"], "t3", c).is_ok());
        assert_eq!(d.len(), 2);
    }
}
