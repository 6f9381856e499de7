-- Tournaments (issue 35): an organiser opens one in a channel, players sign up, the bot seats each
-- round's tables (a game in a thread each), posts the standings and the winner. A tournament is one
-- document (`state`, JSON: its settings, entrants and tables, `bot.service.tournament_state`),
-- changed whole at a `version`, with the posts that announce the change, in one transaction.
CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY,
    guild      INTEGER NOT NULL,
    channel    INTEGER NOT NULL,                -- where it was opened: its posts, its tables' threads
    status     TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'over', 'cancelled')),
    version    INTEGER NOT NULL DEFAULT 0,
    state      TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild, status);
