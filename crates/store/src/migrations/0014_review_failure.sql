-- A review's failure in a column of its own, written with the review, so listing the queue
-- (the app polls it every few seconds) never reads a request: it took each listed review's
-- failure out of its request with json_extract, parsing the page's elements (up to
-- megabytes) of every review listed at every poll. The table is rebuilt with the request and
-- the screenshot last: a row's columns are stored in order, and a column after a request
-- too large for its page is reached only through the request's overflow pages.
CREATE TABLE review_items_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step        INTEGER,
    state       TEXT,
    kind        TEXT NOT NULL,
    reason      TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'resolved', 'cancelled', 'approved', 'rejected')),
    created_ms  INTEGER NOT NULL,
    resolved_ms INTEGER,
    resolution  TEXT,
    saved_to    TEXT,
    proposed_by TEXT,
    failure     TEXT,                        -- JSON Failure, the request's; NULL if it was unreadable
    screenshot  TEXT,
    request     TEXT NOT NULL
);
-- A request that is not JSON leaves its failure NULL rather than the store unopenable.
INSERT INTO review_items_new (id, run_id, step, state, kind, reason, status, created_ms, resolved_ms, resolution,
    saved_to, proposed_by, failure, screenshot, request)
    SELECT id, run_id, step, state, kind, reason, status, created_ms, resolved_ms, resolution, saved_to, proposed_by,
    CASE WHEN json_valid(request) THEN json_extract(request, '$.failure') END, screenshot, request
    FROM review_items;
-- The ids' high mark goes with the table (the rename carries it): an id a prune freed is
-- never given to another review.
DELETE FROM sqlite_sequence WHERE name = 'review_items_new';
UPDATE sqlite_sequence SET name = 'review_items_new' WHERE name = 'review_items';
DROP TABLE review_items;
ALTER TABLE review_items_new RENAME TO review_items;
CREATE INDEX review_items_by_run ON review_items(run_id);
CREATE INDEX review_items_open ON review_items(status) WHERE status = 'open';
