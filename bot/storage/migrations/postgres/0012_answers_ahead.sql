-- Answers ahead (issue 32): a player's standing answers to the decisions asked outside their turn,
-- as JSON: {"prefer": "computer" or "health education culture", "first": "computer", …}; NULL: none.
ALTER TABLE players ADD COLUMN ahead TEXT;
