-- Several bot processes on one database (issue 15): each works on the games of its shards and
-- claims, until a time, the work that must be done once (see bot/storage/shards.py).

-- The claim on a game's clock (its deadlines, reminders and stall notice) while a tick works on it.
ALTER TABLE games ADD COLUMN clock_claimed_by    TEXT;                        -- the process, NULL: none
ALTER TABLE games ADD COLUMN clock_claimed_until INTEGER NOT NULL DEFAULT 0;  -- then it expires
-- The claim on a pending announcement (the next of its channel) while it is being sent; once
-- sent, who sent it.
ALTER TABLE outbox ADD COLUMN claimed_by    TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;
-- The request (Discord's interaction id) of a seat's last vacation change: a copy of it applies once.
ALTER TABLE seats ADD COLUMN vacation_request INTEGER;
