-- v11: money and rate, for workers sharing one store. `usage.cost_usd` is the cost in USD of the
-- call(s) a usage row records, at the provider prices configured when it was made
-- (`[agents.providers.*] input_price_per_mtok`, `output_price_per_mtok`); NULL on rows recorded
-- before v11 (unknown). A cost budget (`budget.usd` in `store_controls`) sums it.
-- `endpoint_calls` is the sliding window behind the per-endpoint rate caps
-- (`rate.endpoint.<name>` in `store_controls`, requests per minute over every worker): one row per
-- request started in the last minute, pruned as requests take their turn. Not copied by
-- `store copy` (it belongs to the processes working on the source).
ALTER TABLE usage ADD COLUMN cost_usd REAL;
CREATE TABLE endpoint_calls (
    id       INTEGER PRIMARY KEY,
    endpoint TEXT NOT NULL,
    at       TEXT NOT NULL,
    owner    TEXT NOT NULL
);
CREATE INDEX endpoint_calls_at ON endpoint_calls(endpoint, at);
