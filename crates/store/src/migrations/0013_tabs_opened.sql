-- An action opened a tab and the run went on in it: kept so a past run shows where it
-- changed tabs, as the live run viewer did.
CREATE TABLE tabs_opened (
    run_id  TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step    INTEGER NOT NULL,
    state   TEXT NOT NULL,
    idx     INTEGER NOT NULL,
    url     TEXT NOT NULL,              -- masked: query values, credentials and secrets
    at_ms   INTEGER NOT NULL,
    PRIMARY KEY (run_id, step, idx)
) WITHOUT ROWID;
