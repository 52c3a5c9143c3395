-- v9: the sentence-embedding cache of the near-duplicate check and the similar-tuples view. One
-- vector per (embedding model, sha256 of the text), little-endian f32; vectors of different models
-- never mix (the key names the model and a hash of its configuration).
CREATE TABLE embeddings (
    model TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    dim INTEGER NOT NULL CHECK (dim > 0),
    vector BLOB NOT NULL CHECK (length(vector) = 4 * dim),
    created_at TEXT NOT NULL,
    PRIMARY KEY (model, text_sha256)
) WITHOUT ROWID;
