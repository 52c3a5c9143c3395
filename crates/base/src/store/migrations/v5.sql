-- Schema version 5: stored environment states. For each round, the state of every environment
-- (a web app's name, or `files` for the file-system domain) at the initial endpoint (after
-- initial_setup.py on V_init) and the golden endpoint (after golden_patch.py on V_gold); for each
-- rollout trial, its final state. The JSON is content-addressed in `blobs` (an unchanged seed is
-- stored once); `volatile` lists the app's masked key-path globs (JSON array).
CREATE TABLE state_snapshots (
    id         INTEGER PRIMARY KEY,
    round_id   INTEGER REFERENCES rounds(id),
    rollout_id INTEGER REFERENCES rollouts(id),
    endpoint   TEXT NOT NULL CHECK (endpoint IN ('initial', 'golden', 'final')),
    env        TEXT NOT NULL,
    state_sha  TEXT NOT NULL REFERENCES blobs(sha256),
    volatile   TEXT NOT NULL DEFAULT '[]',
    CHECK ((round_id IS NULL) <> (rollout_id IS NULL)),
    CHECK ((endpoint = 'final') = (rollout_id IS NOT NULL))
);
CREATE UNIQUE INDEX state_snapshots_round ON state_snapshots(round_id, endpoint, env)
    WHERE round_id IS NOT NULL;
CREATE UNIQUE INDEX state_snapshots_rollout ON state_snapshots(rollout_id, env)
    WHERE rollout_id IS NOT NULL;
