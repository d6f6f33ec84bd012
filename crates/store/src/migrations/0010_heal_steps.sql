-- The step a heal happened in, so a past run shows it where it happened (NULL for older rows).
ALTER TABLE healed ADD COLUMN step INTEGER;
ALTER TABLE healed_checks ADD COLUMN step INTEGER;
