-- Schema version 1: tasks, tuples, content-addressed scripts, rounds and their runs, votes, decisions.
CREATE TABLE tasks (
    task_id       TEXT PRIMARY KEY NOT NULL,
    instruction   TEXT NOT NULL,
    context       TEXT NOT NULL DEFAULT '',
    platform      TEXT,
    domain        TEXT,
    apps          TEXT NOT NULL DEFAULT '[]',
    difficulty    TEXT,
    scenario      TEXT,
    task_type     TEXT,
    original_json TEXT NOT NULL,
    origin        TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
CREATE TABLE tuples (
    task_id    TEXT PRIMARY KEY NOT NULL REFERENCES tasks(task_id),
    status     TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE blobs (
    sha256  TEXT PRIMARY KEY NOT NULL,
    size    INTEGER NOT NULL,
    content TEXT NOT NULL
);
CREATE TABLE rounds (
    id              INTEGER PRIMARY KEY,
    task_id         TEXT NOT NULL REFERENCES tasks(task_id),
    round_no        INTEGER NOT NULL,
    verdict         TEXT NOT NULL,
    setup_sha       TEXT REFERENCES blobs(sha256),
    golden_sha      TEXT REFERENCES blobs(sha256),
    reward_sha      TEXT REFERENCES blobs(sha256),
    review_md       TEXT NOT NULL DEFAULT '',
    scan_findings   TEXT NOT NULL DEFAULT '[]',
    generator_model TEXT,
    discriminator_model TEXT,
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL,
    UNIQUE (task_id, round_no)
);
CREATE TABLE script_runs (
    id          INTEGER PRIMARY KEY,
    round_id    INTEGER NOT NULL REFERENCES rounds(id),
    script      TEXT NOT NULL,
    exit_code   INTEGER,
    stdout      TEXT NOT NULL DEFAULT '',
    stderr      TEXT NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL,
    failure     TEXT
);
CREATE TABLE reward_runs (
    id          INTEGER PRIMARY KEY,
    round_id    INTEGER NOT NULL REFERENCES rounds(id),
    endpoint    TEXT NOT NULL,
    reward      REAL,
    components  TEXT NOT NULL DEFAULT '[]',
    exit_code   INTEGER,
    stdout      TEXT NOT NULL DEFAULT '',
    stderr      TEXT NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL,
    failure     TEXT
);
CREATE TABLE votes (
    id          INTEGER PRIMARY KEY,
    task_id     TEXT NOT NULL REFERENCES tasks(task_id),
    critic      TEXT NOT NULL,
    model       TEXT,
    verdict     TEXT NOT NULL,
    severity    TEXT,
    confidence  REAL,
    pool_fit    TEXT,
    vote_json   TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE decisions (
    id          INTEGER PRIMARY KEY,
    task_id     TEXT NOT NULL REFERENCES tasks(task_id),
    actor       TEXT NOT NULL,
    source      TEXT NOT NULL CHECK (source IN ('human', 'policy', 'llm')),
    before      TEXT NOT NULL,
    after       TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    compensates INTEGER REFERENCES decisions(id)
);
CREATE INDEX rounds_task ON rounds(task_id);
CREATE INDEX votes_task ON votes(task_id);
CREATE INDEX decisions_task ON decisions(task_id);
