-- PostgreSQL mirror of ../v8.sql (types as in pg/v1.sql).
-- v9: the sentence-embedding cache of the near-duplicate check and the similar-tuples view. One
-- vector per (embedding model, sha256 of the text), little-endian f32; vectors of different models
-- never mix (the key names the model and a hash of its configuration).
CREATE TABLE embeddings (
    model TEXT COLLATE "C" NOT NULL,
    text_sha256 TEXT COLLATE "C" NOT NULL,
    dim BIGINT NOT NULL CHECK (dim > 0),
    vector BYTEA NOT NULL CHECK (octet_length(vector) = 4 * dim),
    created_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (model, text_sha256)
);
