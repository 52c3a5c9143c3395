//! The embedder interface and the embeddings endpoint, owned by [`tuplewright_models::embedder`];
//! re-exported here where taskgen's callers have always found them.

pub use tuplewright_models::embedder::embed::*;
