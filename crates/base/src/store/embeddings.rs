//! The sentence-embedding cache: `embeddings(model, text_sha256, dim, vector, created_at)`.

use std::collections::HashMap;

use super::db::{params, OptionalExt};

use super::{now, Result, Store, StoreError, Tx};

fn to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn from_blob(sha: &str, dim: i64, b: &[u8]) -> Result<Vec<f32>> {
    if dim <= 0 || b.len() != dim as usize * 4 {
        return Err(StoreError::Invalid(format!(
            "embedding of text {sha}: {} bytes for dimension {dim}",
            b.len()
        )));
    }
    Ok(b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

impl Store {
    /// The cached vectors of `model` for the text hashes in `shas` (absent ones are left out).
    pub fn embeddings(&self, model: &str, shas: &[String]) -> Result<HashMap<String, Vec<f32>>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT dim, vector FROM embeddings WHERE model = ?1 AND text_sha256 = ?2",
        )?;
        let mut out = HashMap::new();
        for sha in shas {
            let found: Option<(i64, Vec<u8>)> = stmt
                .query_row(params![model, sha], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            if let Some((dim, blob)) = found {
                out.insert(sha.clone(), from_blob(sha, dim, &blob)?);
            }
        }
        Ok(out)
    }

    /// Every task's `(task_id, instruction)`, by id (the corpus of the similar-tuples view).
    pub fn instructions(&self) -> Result<Vec<(String, String)>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT task_id, instruction FROM tasks ORDER BY task_id")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_>>()
    }

    /// Number of vectors cached for `model`.
    pub fn embedding_count(&self, model: &str) -> Result<i64> {
        self.conn.query_row(
            "SELECT COUNT(*) FROM embeddings WHERE model = ?1",
            params![model],
            |r| r.get(0),
        )
    }
}

impl Tx<'_> {
    /// Caches `(text sha256, vector)` pairs of `model` (an existing entry is kept).
    pub fn put_embeddings(&self, model: &str, items: &[(String, Vec<f32>)]) -> Result<()> {
        let at = now();
        let mut stmt = self.tx.prepare_cached(
            "INSERT INTO embeddings (model, text_sha256, dim, vector, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
        )?;
        for (sha, v) in items {
            stmt.execute(params![model, sha, v.len() as i64, to_blob(v), at])?;
        }
        Ok(())
    }
}
