-- A daily digest (issue 32): at the local time a player chose (minutes after midnight in their
-- time zone, `utc_offset`; NULL: no digest), one direct message listing the games waiting on them;
-- `digest_day` is the local day (days since the epoch) of the last one, so that it goes once a day
-- whichever process sends it.
ALTER TABLE players ADD COLUMN digest_at INTEGER;
ALTER TABLE players ADD COLUMN digest_day INTEGER;
-- "You are next": a direct message when the player before them starts a turn (1: asked for).
ALTER TABLE players ADD COLUMN next_ping INTEGER NOT NULL DEFAULT 0;
