-- Task leases: a process claims a task before any stage (loop, rollout, verify) works on it. One
-- row per leased task; the owner renews `heartbeat_at`/`expires_at` while it works and deletes the
-- row when done. A row whose `expires_at` has passed, or whose owner process is gone (same host and
-- boot: `pid` no longer runs with start time `pid_start`; same host, other boot: rebooted), may be
-- taken over. Times are RFC 3339 UTC with milliseconds, so they compare as text.
CREATE TABLE IF NOT EXISTS task_leases (
    task_id      TEXT PRIMARY KEY NOT NULL REFERENCES tasks(task_id),
    owner        TEXT NOT NULL,
    stage        TEXT NOT NULL,
    host         TEXT NOT NULL,
    boot_id      TEXT NOT NULL DEFAULT '',
    pid          INTEGER NOT NULL,
    pid_start    INTEGER,
    claimed_at   TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS task_leases_owner ON task_leases(owner);
