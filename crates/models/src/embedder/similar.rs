//! Nearest neighbours of one tuple in the store: every instruction is embedded (cached vectors
//! first, the rest in batches, optionally written back to the cache) and ranked by cosine to the
//! tuple's instruction. The curator's way to find near-duplicates the generator let through, e.g.
//! in imported datasets.

use serde::Serialize;

use super::cache::{save, Cached};
use super::{Kind, Selected};
use crate::embedder::embed::{EmbedError, Embedder};
use crate::embedder::ngram::cosine;
use tuplewright_base::store::{Store, StoreError};

/// One neighbour.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Neighbour {
    /// The other task.
    pub task_id: String,
    /// Cosine similarity of the two instructions' embeddings.
    pub cosine: f32,
    /// Its instruction.
    pub instruction: String,
}

/// The neighbours of one tuple and how they were found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Similar {
    /// The tuple asked about.
    pub task_id: String,
    /// Its instruction.
    pub instruction: String,
    /// What embedded them (see [`Selected::label`]).
    pub embedder: String,
    /// Its kind.
    pub kind: Kind,
    /// Why a weaker embedder was used, if so.
    pub degraded: Option<String>,
    /// Tasks compared.
    pub corpus: usize,
    /// Vectors computed now (the rest came from the cache).
    pub computed: usize,
    /// Most similar first, at most `top`.
    pub neighbours: Vec<Neighbour>,
}

/// Why the neighbours could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum SimilarError {
    /// No such task.
    #[error("no task `{0}` in the store")]
    UnknownTask(String),
    /// Embedding failed.
    #[error(transparent)]
    Embed(#[from] EmbedError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The `top` nearest neighbours of `task_id` in `store` under `sel`. With `persist`, vectors computed
/// now are cached in the store (one transaction); read-only faces pass `false`.
pub fn nearest(
    store: &mut Store,
    sel: &Selected,
    task_id: &str,
    top: usize,
    persist: bool,
) -> Result<Similar, SimilarError> {
    let corpus = store.instructions()?;
    let me = corpus
        .iter()
        .position(|(id, _)| id == task_id)
        .ok_or_else(|| SimilarError::UnknownTask(task_id.to_string()))?;
    let texts: Vec<&str> = corpus.iter().map(|(_, t)| t.as_str()).collect();
    let cached = Cached::new(sel.embedder.as_ref());
    if sel.kind != Kind::Ngram {
        cached.preload(store, &sel.key, &texts)?;
    }
    let vectors = cached.embed(&texts)?;
    let computed = cached.computed();
    if persist && sel.kind != Kind::Ngram && computed > 0 {
        let fresh = cached.fresh_for(&texts);
        store.write(|tx| save(tx, &sel.key, &fresh))?;
    }
    let mine = &vectors[me];
    let mut scored: Vec<(f32, usize)> = vectors
        .iter()
        .enumerate()
        .filter(|(i, v)| *i != me && v.len() == mine.len())
        .map(|(i, v)| (cosine(mine, v), i))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(top);
    Ok(Similar {
        task_id: task_id.to_string(),
        instruction: corpus[me].1.clone(),
        embedder: sel.label.clone(),
        kind: sel.kind,
        degraded: sel.degraded.clone(),
        corpus: corpus.len(),
        computed: if sel.kind == Kind::Ngram { 0 } else { computed },
        neighbours: scored
            .into_iter()
            .map(|(c, i)| Neighbour {
                task_id: corpus[i].0.clone(),
                cosine: c,
                instruction: corpus[i].1.clone(),
            })
            .collect(),
    })
}
