-- Languages (issue 14): a private event (a polled voice card, a drawn politics card) keeps the
-- English message it was told with and its values, so that its seat can read it in their own
-- language: JSON {"message": …, "values": {…}}; NULL for one stored before (its text is all there
-- is). A move's public events keep theirs in moves.events, next to each kind and text.
ALTER TABLE secrets ADD COLUMN told TEXT;
