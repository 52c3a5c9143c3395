-- PostgreSQL mirror of ../v10.sql (types as in pg/v1.sql).
-- v10: what every worker of a shared store obeys, held in the store itself. `store_controls` is one
-- row per named control: `workers.job` (running, paused, cancelled: pause or cancel the job for
-- every worker), `budget.tokens` (a global token budget over the `usage` rows; workers stop
-- claiming when it is spent), `cap.endpoint.<name>` (at most N calls at once to one LLM endpoint).
-- `endpoint_slots` is the counted semaphore behind those caps: one row per call in flight, slot
-- 0..N-1, expiring like a task lease (or at once when its owner process is found dead on the
-- same host) so a killed worker's slot is reclaimed. Not copied by
-- `store copy` (they belong to the processes working on the source).
CREATE TABLE store_controls (
    name       TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    value      TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL,
    updated_by TEXT COLLATE "C" NOT NULL
);
CREATE TABLE endpoint_slots (
    endpoint   TEXT COLLATE "C" NOT NULL,
    slot       BIGINT NOT NULL CHECK (slot >= 0),
    owner      TEXT COLLATE "C" NOT NULL,
    host       TEXT COLLATE "C" NOT NULL,
    boot_id    TEXT COLLATE "C" NOT NULL DEFAULT '',
    pid        BIGINT NOT NULL,
    pid_start  BIGINT,
    taken_at   TEXT COLLATE "C" NOT NULL,
    expires_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (endpoint, slot)
);
