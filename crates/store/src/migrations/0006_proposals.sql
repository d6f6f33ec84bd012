-- Fixes the model found are proposals in the review queue: nobody waits on them, a person
-- approves (the fix is saved into the workflow) or rejects them. `proposed_by` names the
-- model; NULL for a run waiting for a person.
CREATE TABLE review_items_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step        INTEGER,
    state       TEXT,
    kind        TEXT NOT NULL,
    reason      TEXT NOT NULL,
    request     TEXT NOT NULL,
    screenshot  TEXT,
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'resolved', 'cancelled', 'approved', 'rejected')),
    created_ms  INTEGER NOT NULL,
    resolved_ms INTEGER,
    resolution  TEXT,
    saved_to    TEXT,
    proposed_by TEXT
);
INSERT INTO review_items_new (id, run_id, step, state, kind, reason, request, screenshot, status, created_ms,
    resolved_ms, resolution, saved_to)
    SELECT id, run_id, step, state, kind, reason, request, screenshot, status, created_ms, resolved_ms, resolution,
    saved_to FROM review_items;
DROP TABLE review_items;
ALTER TABLE review_items_new RENAME TO review_items;
CREATE INDEX review_items_by_run ON review_items(run_id);
CREATE INDEX review_items_open ON review_items(status) WHERE status = 'open';
