-- Reliability and pace (issue 32): what a player's figures over the last days are counted from
-- (`bot.service.reliability`), and the minimum a lobby's host asks of those who join.

-- The minimum: the share of their games a joining player finished (percent; 0: none), and the
-- longest median time to move they may have (hours; 0: none).
ALTER TABLE games ADD COLUMN min_finished INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN max_pace_hours INTEGER NOT NULL DEFAULT 0;
-- When the decision a player answered with this move was asked (their seat's clock, vacation
-- added), on the first move of a seat in a commit that its player made; NULL: the bot made it,
-- a further move of the same answer, or a move stored before this.
ALTER TABLE moves ADD COLUMN asked_at INTEGER;
-- What a player did to their games, once, when it happened: a deadline missed (the bot played for
-- them, or they answered after it), a resignation, a seat left (handed to someone else).
CREATE TABLE conduct (
    game    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('missed', 'resigned', 'left')),
    at      INTEGER NOT NULL
);
CREATE INDEX conduct_by_user ON conduct (user_id, at);
CREATE INDEX results_by_user ON results (user_id, ended_at);
