-- PostgreSQL mirror of ../v3.sql (types as in pg/v1.sql).
-- Schema version 3: the verbatim input JSON moves out of `tasks` into `task_sources`, so scans over
-- tasks (stats, lists) read only the working columns.
CREATE TABLE task_sources (
    task_id       TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES tasks(task_id),
    original_json TEXT COLLATE "C" NOT NULL
);
INSERT INTO task_sources (task_id, original_json) SELECT task_id, original_json FROM tasks;
ALTER TABLE tasks DROP COLUMN original_json;
