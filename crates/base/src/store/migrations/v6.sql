-- v6: look events up by tuple. The filter's effective outcome and the workbench's Filter screen
-- read "the latest event of kind K for task T"; without this index both scanned the whole log
-- (51-76 ms per tuple on a 113k-tuple store).
CREATE INDEX events_task_kind ON events(task_id, kind, seq);
