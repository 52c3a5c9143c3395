-- PostgreSQL mirror of ../v9.sql (types as in pg/v1.sql).
-- Screen trials: every recorded computer_use step of a rollout trial, and the screenshots they
-- reference. A screenshot's PNG bytes live in a directory beside the store file
-- (`<store>.screens/<aa>/<sha256>.png`), content-addressed and shared between steps; a row of
-- `screenshots` is committed only after its file was written, fsynced and renamed into place.
CREATE TABLE screenshots (
    sha256 TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    bytes  BIGINT NOT NULL CHECK (bytes > 0),
    width  BIGINT NOT NULL CHECK (width > 0),
    height BIGINT NOT NULL CHECK (height > 0)
);
CREATE TABLE trial_steps (
    rollout_id     BIGINT NOT NULL REFERENCES rollouts(id),
    seq            BIGINT NOT NULL CHECK (seq >= 0),
    action_json    TEXT COLLATE "C" NOT NULL,
    at_ms          BIGINT NOT NULL,
    duration_ms    BIGINT NOT NULL,
    error          TEXT COLLATE "C",
    screenshot_sha TEXT COLLATE "C" REFERENCES screenshots(sha256),
    PRIMARY KEY (rollout_id, seq)
);
CREATE INDEX trial_steps_screenshot ON trial_steps(screenshot_sha) WHERE screenshot_sha IS NOT NULL;
