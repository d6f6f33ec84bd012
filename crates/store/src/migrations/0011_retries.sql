-- A state's actions run again because they were not verified: kept so a past run shows its
-- retries where they happened, as the live run viewer did.
CREATE TABLE retries (
    run_id  TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step    INTEGER NOT NULL,
    state   TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    max     INTEGER NOT NULL,
    reason  TEXT NOT NULL,
    at_ms   INTEGER NOT NULL,
    PRIMARY KEY (run_id, step, attempt)
) WITHOUT ROWID;
