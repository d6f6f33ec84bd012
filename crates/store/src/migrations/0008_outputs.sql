-- What each `extract` read (JSON), and a run's variables as last extracted (a JSON object),
-- kept up to date as the run goes so that a crashed run still shows what it had read.
ALTER TABLE actions ADD COLUMN value TEXT;
ALTER TABLE runs ADD COLUMN outputs TEXT;
