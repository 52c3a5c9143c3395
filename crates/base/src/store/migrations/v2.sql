-- Schema version 2: source pass and app type on tasks, where a round came from, rollouts, token
-- usage, and the append-only event log.
ALTER TABLE tasks ADD COLUMN source_pass TEXT;
ALTER TABLE tasks ADD COLUMN app_type TEXT;
ALTER TABLE rounds ADD COLUMN source TEXT NOT NULL DEFAULT 'loop';
CREATE TABLE rollouts (
    id            INTEGER PRIMARY KEY,
    task_id       TEXT NOT NULL REFERENCES tasks(task_id),
    model         TEXT NOT NULL,
    trial         INTEGER NOT NULL,
    reward        REAL,
    judge_verdict TEXT,
    failure       TEXT,
    detail_json   TEXT NOT NULL DEFAULT '{}',
    created_at    TEXT NOT NULL
);
CREATE TABLE usage (
    id            INTEGER PRIMARY KEY,
    task_id       TEXT REFERENCES tasks(task_id),
    round_id      INTEGER REFERENCES rounds(id),
    stage         TEXT NOT NULL,
    model         TEXT NOT NULL,
    input_tokens  INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE TABLE events (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    time    TEXT NOT NULL,
    kind    TEXT NOT NULL,
    task_id TEXT,
    payload TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX rollouts_task ON rollouts(task_id);
CREATE INDEX usage_task ON usage(task_id);
CREATE INDEX tuples_status ON tuples(status);
