-- v13 (issue #33): curation at dataset scale.
-- A bulk decision gives each of its per-tuple decisions the same group id (its undo appends
-- compensating decisions under the same id); NULL for a decision made on its own and for every
-- decision recorded before v13.
ALTER TABLE decisions ADD COLUMN group_id TEXT;
CREATE INDEX decisions_group ON decisions(group_id);
-- Whether a decision was undone is asked per tuple by every decision, undo and outcome lookup:
-- without this index each asks by reading the whole decisions table.
CREATE INDEX decisions_compensates ON decisions(compensates);
-- Notes and tags on a tuple, append-only: the newest note of a tuple is the one in force
-- (its text and its tags, a JSON array of strings); older ones stay as its history.
CREATE TABLE notes (
    id          INTEGER PRIMARY KEY,
    task_id     TEXT NOT NULL REFERENCES tasks(task_id),
    author      TEXT NOT NULL,
    text        TEXT NOT NULL DEFAULT '',
    tags        TEXT NOT NULL DEFAULT '[]',
    created_at  TEXT NOT NULL
);
CREATE INDEX notes_task ON notes(task_id);
