-- Each action keeps the other ways to find the element it acted on (most stable first), so
-- a run can be compiled into a workflow later (`statewright compile`), not only healed.
ALTER TABLE actions ADD COLUMN alternatives TEXT;
