//! Content-addressed script texts: `blobs(sha256, size, content)`.

use super::db::{params, Conn, OptionalExt};
use sha2::{Digest, Sha256};

use super::{Result, Store, Tx};

/// Lower-case hex sha256 of `text`.
pub fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

impl Tx<'_> {
    /// Stores `text` (once) and returns its sha256.
    pub fn put_blob(&self, text: &str) -> Result<String> {
        let sha = sha256_hex(text);
        self.tx
            .prepare_cached(
                "INSERT INTO blobs (sha256, size, content) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
            )?
            .execute(params![sha, text.len() as i64, text])?;
        Ok(sha)
    }
}

impl Store {
    /// The text stored under `sha`.
    pub fn blob(&self, sha: &str) -> Result<Option<String>> {
        get_blob(&self.conn, sha)
    }
}

pub(super) fn get_blob(conn: &Conn, sha: &str) -> Result<Option<String>> {
    conn.prepare_cached("SELECT content FROM blobs WHERE sha256 = ?1")?
        .query_row(params![sha], |r| r.get(0))
        .optional()
}
