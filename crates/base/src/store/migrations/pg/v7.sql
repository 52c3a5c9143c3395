-- PostgreSQL mirror of ../v7.sql (types as in pg/v1.sql).
-- Task leases: a process claims a task before any stage (loop, rollout, verify) works on it. One
-- row per leased task; the owner renews `heartbeat_at`/`expires_at` while it works and deletes the
-- row when done. A row whose `expires_at` has passed, or whose owner process is gone (same host and
-- boot: `pid` no longer runs with start time `pid_start`; same host, other boot: rebooted), may be
-- taken over. Times are RFC 3339 UTC with milliseconds, so they compare as text.
CREATE TABLE IF NOT EXISTS task_leases (
    task_id      TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES tasks(task_id),
    owner        TEXT COLLATE "C" NOT NULL,
    stage        TEXT COLLATE "C" NOT NULL,
    host         TEXT COLLATE "C" NOT NULL,
    boot_id      TEXT COLLATE "C" NOT NULL DEFAULT '',
    pid          BIGINT NOT NULL,
    pid_start    BIGINT,
    claimed_at   TEXT COLLATE "C" NOT NULL,
    heartbeat_at TEXT COLLATE "C" NOT NULL,
    expires_at   TEXT COLLATE "C" NOT NULL
);
CREATE INDEX IF NOT EXISTS task_leases_owner ON task_leases(owner);
