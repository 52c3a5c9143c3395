//! The embedder interface and the embeddings endpoint, owned by [`crate::engine::embedder`];
//! re-exported here where taskgen's callers have always found them.

pub use crate::engine::embedder::embed::*;
