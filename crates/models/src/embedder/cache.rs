//! Vectors cached per (model, instruction sha256): [`Cached`] wraps an embedder, answers texts it
//! already knows from memory (loaded from the store with [`Cached::preload`]), embeds the others in
//! one batched call, and remembers them so the caller can write the ones worth keeping back into the
//! store in its own transaction ([`Cached::fresh_for`], [`save`]).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::embedder::embed::{EmbedError, Embedder};
use tuplewright_base::store::{sha256_hex, Store, StoreError, Tx};

/// An embedder with a per-text cache in front.
pub struct Cached<'a> {
    inner: &'a dyn Embedder,
    known: Mutex<HashMap<String, Vec<f32>>>,
    fresh: Mutex<HashMap<String, Vec<f32>>>,
    hits: Mutex<usize>,
}

impl<'a> Cached<'a> {
    /// An empty cache in front of `inner`.
    pub fn new(inner: &'a dyn Embedder) -> Self {
        Self {
            inner,
            known: Mutex::new(HashMap::new()),
            fresh: Mutex::new(HashMap::new()),
            hits: Mutex::new(0),
        }
    }

    /// Loads the store's vectors of `model` for `texts`; returns how many were found.
    pub fn preload(&self, store: &Store, model: &str, texts: &[&str]) -> Result<usize, StoreError> {
        let shas: Vec<String> = texts.iter().map(|t| sha256_hex(t)).collect();
        let found = store.embeddings(model, &shas)?;
        let n = found.len();
        lock(&self.known).extend(found);
        Ok(n)
    }

    /// Texts answered from the cache so far.
    pub fn hits(&self) -> usize {
        *lock(&self.hits)
    }

    /// Vectors computed (not cached) so far.
    pub fn computed(&self) -> usize {
        lock(&self.fresh).len()
    }

    /// The newly computed vectors of `texts` (by sha256), for [`save`].
    pub fn fresh_for(&self, texts: &[&str]) -> Vec<(String, Vec<f32>)> {
        let fresh = lock(&self.fresh);
        let mut out: Vec<(String, Vec<f32>)> = texts
            .iter()
            .map(|t| sha256_hex(t))
            .filter_map(|sha| fresh.get(&sha).map(|v| (sha, v.clone())))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.dedup_by(|a, b| a.0 == b.0);
        out
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Writes `items` into the store's cache of `model`, inside the caller's transaction.
pub fn save(tx: &Tx<'_>, model: &str, items: &[(String, Vec<f32>)]) -> Result<(), StoreError> {
    tx.put_embeddings(model, items)
}

impl Embedder for Cached<'_> {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let shas: Vec<String> = texts.iter().map(|t| sha256_hex(t)).collect();
        let mut out: Vec<Option<Vec<f32>>> = {
            let known = lock(&self.known);
            let fresh = lock(&self.fresh);
            shas.iter()
                .map(|s| known.get(s).or_else(|| fresh.get(s)).cloned())
                .collect()
        };
        *lock(&self.hits) += out.iter().filter(|v| v.is_some()).count();
        let missing: Vec<usize> = (0..texts.len()).filter(|&i| out[i].is_none()).collect();
        if !missing.is_empty() {
            let batch: Vec<&str> = missing.iter().map(|&i| texts[i]).collect();
            let vs = self.inner.embed(&batch)?;
            let mut fresh = lock(&self.fresh);
            for (&i, v) in missing.iter().zip(vs) {
                fresh.insert(shas[i].clone(), v.clone());
                out[i] = Some(v);
            }
        }
        Ok(out.into_iter().map(Option::unwrap_or_default).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counting(AtomicUsize);
    impl Embedder for Counting {
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
            self.0.fetch_add(texts.len(), Ordering::SeqCst);
            Ok(texts.iter().map(|t| vec![t.len() as f32, 1.0]).collect())
        }
    }

    #[test]
    fn known_texts_are_not_embedded_again_and_round_trip_through_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let mut store =
            Store::open(&dir.path().join("s.db"), std::time::Duration::from_secs(1)).unwrap();
        let inner = Counting(AtomicUsize::new(0));
        let c = Cached::new(&inner);
        let v = c.embed(&["ab", "abc", "ab"]).unwrap();
        assert_eq!(v, vec![vec![2.0, 1.0], vec![3.0, 1.0], vec![2.0, 1.0]]);
        assert_eq!(inner.0.load(Ordering::SeqCst), 3);
        c.embed(&["abc"]).unwrap();
        assert_eq!(
            inner.0.load(Ordering::SeqCst),
            3,
            "a cached text was embedded again"
        );
        let keep = c.fresh_for(&["abc"]);
        assert_eq!(keep.len(), 1);
        store.write(|tx| save(tx, "m1", &keep)).unwrap();
        assert_eq!(store.embedding_count("m1").unwrap(), 1);
        assert_eq!(store.embedding_count("m2").unwrap(), 0);
        let inner2 = Counting(AtomicUsize::new(0));
        let c2 = Cached::new(&inner2);
        assert_eq!(c2.preload(&store, "m1", &["abc", "ab"]).unwrap(), 1);
        assert_eq!(c2.embed(&["abc"]).unwrap(), vec![vec![3.0, 1.0]]);
        assert_eq!(inner2.0.load(Ordering::SeqCst), 0);
        assert_eq!(c2.hits(), 1);
    }
}
