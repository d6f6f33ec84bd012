-- A drag's `to` heals as its target does: recorded locators and healed locators name which
-- of the action's elements they are for (`target`, or a drag's `to`), one row each.
CREATE TABLE locators_by_field (
    workflow     TEXT NOT NULL,
    state        TEXT NOT NULL,
    idx          INTEGER NOT NULL,
    field        TEXT NOT NULL,              -- `target`, or a drag's `to`
    target       TEXT NOT NULL,              -- JSON Target the action had there
    alternatives TEXT NOT NULL,              -- JSON array of Target
    updated_ms   INTEGER NOT NULL,
    PRIMARY KEY (workflow, state, idx, field)
) WITHOUT ROWID;
INSERT INTO locators_by_field SELECT workflow, state, idx, 'target', target, alternatives, updated_ms FROM locators;
DROP TABLE locators;
ALTER TABLE locators_by_field RENAME TO locators;

CREATE TABLE healed_by_field (
    run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    state       TEXT NOT NULL,
    idx         INTEGER NOT NULL,
    field       TEXT NOT NULL,
    from_target TEXT NOT NULL,
    to_target   TEXT NOT NULL,
    at_ms       INTEGER NOT NULL,
    step        INTEGER,
    PRIMARY KEY (run_id, state, idx, field)
) WITHOUT ROWID;
INSERT INTO healed_by_field SELECT run_id, state, idx, 'target', from_target, to_target, at_ms, step FROM healed;
DROP TABLE healed;
ALTER TABLE healed_by_field RENAME TO healed;
