-- Schema version 3: the verbatim input JSON moves out of `tasks` into `task_sources`, so scans over
-- tasks (stats, lists) read only the working columns.
CREATE TABLE task_sources (
    task_id       TEXT PRIMARY KEY NOT NULL REFERENCES tasks(task_id),
    original_json TEXT NOT NULL
);
INSERT INTO task_sources (task_id, original_json) SELECT task_id, original_json FROM tasks;
ALTER TABLE tasks DROP COLUMN original_json;
