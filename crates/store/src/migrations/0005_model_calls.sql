-- Every call the LLM stage made: what it cost and what came of it. Prompts are not kept
-- (they hold page text); their size is.
CREATE TABLE model_calls (
    id                INTEGER PRIMARY KEY,
    run_id            TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step              INTEGER NOT NULL,
    state             TEXT,
    model             TEXT NOT NULL,
    prompt_chars      INTEGER NOT NULL,
    prompt_tokens     INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    latency_ms        INTEGER NOT NULL,
    cost              REAL NOT NULL,
    answer            TEXT NOT NULL,
    accepted          INTEGER NOT NULL,
    error             TEXT,
    at_ms             INTEGER NOT NULL
);
CREATE INDEX model_calls_by_run ON model_calls(run_id, id);
ALTER TABLE runs ADD COLUMN llm_cost REAL NOT NULL DEFAULT 0;
