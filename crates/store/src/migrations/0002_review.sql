-- Statewright run store, schema 2: the review queue, recorded locators, kept workflow
-- versions. `review_items` of schema 1 was never written, so it is replaced.
ALTER TABLE runs ADD COLUMN workflow_path TEXT;

DROP TABLE review_items;
-- One row per escalation to a person. The run waits while `status` is 'open'; another
-- process resolves it by writing `resolution` and setting `status` to 'resolved'.
CREATE TABLE review_items (
    id          INTEGER PRIMARY KEY,
    run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step        INTEGER,
    state       TEXT,
    kind        TEXT NOT NULL,               -- the failure's kind, e.g. 'action', 'no_state'
    reason      TEXT NOT NULL,
    request     TEXT NOT NULL,               -- JSON EscalationRequest (no screenshot bytes)
    screenshot  TEXT,                        -- path under the store root
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'cancelled')),
    created_ms  INTEGER NOT NULL,
    resolved_ms INTEGER,
    resolution  TEXT,                        -- JSON Resolution
    saved_to    TEXT                         -- the workflow file the fix was saved into
);
CREATE INDEX review_items_by_run ON review_items(run_id);
CREATE INDEX review_items_open ON review_items(status) WHERE status = 'open';

-- Alternative locators of each element action, from its last success, for healing.
CREATE TABLE locators (
    workflow     TEXT NOT NULL,
    state        TEXT NOT NULL,
    idx          INTEGER NOT NULL,
    target       TEXT NOT NULL,              -- JSON Target the action had
    alternatives TEXT NOT NULL,              -- JSON array of Target
    updated_ms   INTEGER NOT NULL,
    PRIMARY KEY (workflow, state, idx)
) WITHOUT ROWID;

-- Locators healed during a run: proposed changes to the workflow, saved with a review.
CREATE TABLE healed (
    run_id     TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    state      TEXT NOT NULL,
    idx        INTEGER NOT NULL,
    from_target TEXT NOT NULL,
    to_target  TEXT NOT NULL,
    at_ms      INTEGER NOT NULL,
    PRIMARY KEY (run_id, state, idx)
) WITHOUT ROWID;

-- Workflow files as they were before a saved fix replaced them.
CREATE TABLE workflow_versions (
    id        INTEGER PRIMARY KEY,
    path      TEXT NOT NULL,
    json      TEXT NOT NULL,
    saved_ms  INTEGER NOT NULL,
    reason    TEXT NOT NULL
);
CREATE INDEX workflow_versions_by_path ON workflow_versions(path, id);
