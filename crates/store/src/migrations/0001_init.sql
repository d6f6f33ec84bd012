-- Statewright run store, schema 1. Times are Unix milliseconds.
CREATE TABLE workflows (
    hash          TEXT PRIMARY KEY,          -- SHA-256 of `json`
    name          TEXT NOT NULL,
    json          TEXT NOT NULL,             -- the workflow as run
    first_seen_ms INTEGER NOT NULL
);

CREATE TABLE runs (
    id            TEXT PRIMARY KEY,
    workflow_hash TEXT NOT NULL REFERENCES workflows(hash),
    workflow      TEXT NOT NULL,
    parameters    TEXT NOT NULL,             -- JSON object, secrets masked
    browser       TEXT NOT NULL DEFAULT '',
    status        TEXT NOT NULL CHECK (status IN ('pending', 'running', 'needs_human_review',
                                                  'succeeded', 'failed', 'cancelled', 'interrupted')),
    outcome       TEXT,
    end_state     TEXT,
    message       TEXT,
    failure       TEXT,                      -- JSON
    started_ms    INTEGER NOT NULL,
    finished_ms   INTEGER,
    duration_ms   INTEGER,
    step_count    INTEGER NOT NULL DEFAULT 0,
    action_count  INTEGER NOT NULL DEFAULT 0,
    llm_calls     INTEGER NOT NULL DEFAULT 0,
    llm_tokens    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_by_start ON runs(started_ms);
CREATE INDEX runs_by_status ON runs(status);
CREATE INDEX runs_by_workflow ON runs(workflow, started_ms);

-- Each state entered, with every check's result and the page as it was.
CREATE TABLE steps (
    run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step        INTEGER NOT NULL,
    state       TEXT NOT NULL,
    state_index INTEGER NOT NULL,
    visit       INTEGER NOT NULL,
    elapsed_ms  INTEGER NOT NULL,
    entered_ms  INTEGER NOT NULL,
    url         TEXT NOT NULL,
    checks      TEXT NOT NULL,               -- JSON array of {check, passed}
    screenshot  TEXT,                        -- path under the store root, e.g. screens/ab/ab12….png
    page_url    TEXT,
    page_title  TEXT,
    page_text   TEXT,
    elements    TEXT,                        -- JSON
    PRIMARY KEY (run_id, step)
);  -- rows are large (page text, elements): a rowid table, not WITHOUT ROWID
CREATE INDEX steps_by_screenshot ON steps(screenshot) WHERE screenshot IS NOT NULL;

-- One row per action finished or preempted, in order (`seq` = the timeline's action_step).
CREATE TABLE actions (
    run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    step          INTEGER NOT NULL,
    state         TEXT NOT NULL,
    idx           INTEGER NOT NULL,
    kind          TEXT NOT NULL,             -- the action's type, or 'preempted'
    args          TEXT,                      -- JSON, secrets masked
    detail        TEXT,
    error         TEXT,
    by_state      TEXT,
    elapsed_ms    INTEGER,
    duration_ms   INTEGER,
    attempts      INTEGER,
    at_ms         INTEGER NOT NULL,
    artifact_name TEXT,
    artifact_path TEXT,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE INDEX actions_by_artifact ON actions(artifact_path) WHERE artifact_path IS NOT NULL;

-- Filled by the escalation and review features.
CREATE TABLE escalations (
    id          INTEGER PRIMARY KEY,
    run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step        INTEGER,
    state       TEXT,
    reason      TEXT NOT NULL,
    request     TEXT,                        -- JSON
    response    TEXT,                        -- JSON
    created_ms  INTEGER NOT NULL,
    resolved_ms INTEGER
);
CREATE INDEX escalations_by_run ON escalations(run_id);

CREATE TABLE review_items (
    id          INTEGER PRIMARY KEY,
    run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step        INTEGER,
    kind        TEXT NOT NULL,
    payload     TEXT,                        -- JSON
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected')),
    created_ms  INTEGER NOT NULL,
    resolved_ms INTEGER,
    resolution  TEXT
);
CREATE INDEX review_items_by_run ON review_items(run_id);
