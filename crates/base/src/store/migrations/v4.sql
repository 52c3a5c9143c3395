-- v4: per-round lookups of script and reward runs use an index (the workbench reads the latest
-- round's rewards for every tuple; without these, each lookup scanned the whole run table).
CREATE INDEX IF NOT EXISTS script_runs_round ON script_runs(round_id);
CREATE INDEX IF NOT EXISTS reward_runs_round ON reward_runs(round_id);
