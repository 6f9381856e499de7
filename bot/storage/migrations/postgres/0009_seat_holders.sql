-- The game's version when a seat's player took it over (`/citta replace`): they see only what was
-- revealed to the seat after it (a polled card of the year stays the previous player's). 0: they
-- have held the seat from the start.
ALTER TABLE seats ADD COLUMN held_since INTEGER NOT NULL DEFAULT 0;
