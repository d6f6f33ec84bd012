-- Element checks heal as actions do: the other locators of the element each check found
-- when its state was last recognised, and the checks a run healed (proposed changes).
CREATE TABLE check_locators (
    workflow     TEXT NOT NULL,
    state        TEXT NOT NULL,
    idx          INTEGER NOT NULL,
    check_json   TEXT NOT NULL,              -- JSON Check the state had
    alternatives TEXT NOT NULL,              -- JSON array of Target
    updated_ms   INTEGER NOT NULL,
    PRIMARY KEY (workflow, state, idx)
) WITHOUT ROWID;

CREATE TABLE healed_checks (
    run_id     TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    state      TEXT NOT NULL,
    idx        INTEGER NOT NULL,
    from_check TEXT NOT NULL,
    to_check   TEXT NOT NULL,
    at_ms      INTEGER NOT NULL,
    PRIMARY KEY (run_id, state, idx)
);
