-- The states that also matched a step's page and lost on priority (JSON array of names,
-- NULL when none): evidence for `validate`'s "never won" finding.
ALTER TABLE steps ADD COLUMN also_matched TEXT;
-- Transitions are read per workflow, in run order.
CREATE INDEX steps_by_run ON steps(run_id, step);
