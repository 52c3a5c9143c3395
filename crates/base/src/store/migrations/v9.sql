-- Screen trials: every recorded computer_use step of a rollout trial, and the screenshots they
-- reference. A screenshot's PNG bytes live in a directory beside the store file
-- (`<store>.screens/<aa>/<sha256>.png`), content-addressed and shared between steps; a row of
-- `screenshots` is committed only after its file was written, fsynced and renamed into place.
CREATE TABLE screenshots (
    sha256 TEXT PRIMARY KEY NOT NULL,
    bytes  INTEGER NOT NULL CHECK (bytes > 0),
    width  INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0)
) WITHOUT ROWID;
CREATE TABLE trial_steps (
    rollout_id     INTEGER NOT NULL REFERENCES rollouts(id),
    seq            INTEGER NOT NULL CHECK (seq >= 0),
    action_json    TEXT NOT NULL,
    at_ms          INTEGER NOT NULL,
    duration_ms    INTEGER NOT NULL,
    error          TEXT,
    screenshot_sha TEXT REFERENCES screenshots(sha256),
    PRIMARY KEY (rollout_id, seq)
) WITHOUT ROWID;
CREATE INDEX trial_steps_screenshot ON trial_steps(screenshot_sha) WHERE screenshot_sha IS NOT NULL;
