-- v12: how long the display took to settle before a step's screenshot was taken (no damage for
-- `[screen] settle_quiet_ms`, at most `settle_max_ms`), in milliseconds; NULL for a step without a
-- screenshot and for steps recorded before v12 (their screenshots were taken without waiting).
ALTER TABLE trial_steps ADD COLUMN settle_ms INTEGER;
