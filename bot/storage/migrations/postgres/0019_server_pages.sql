-- A server's page (issue 34): when its admins switch it on (`/citta-server page on`), one page per
-- server at an unguessable address (`secrets.token_urlsafe(24)`, 192 random bits) lists its games
-- and its leaderboard; `renew` gives it a new token (the old address then finds nothing), `off`
-- deletes the row. No row: the server has no page. Unique: a token finds one server.
CREATE TABLE server_pages (
    guild BIGINT  PRIMARY KEY,
    token TEXT    NOT NULL UNIQUE
);
-- The page lists a server's running games, the newest first.
CREATE INDEX games_running_by_guild ON games (guild, id) WHERE status = 'active';
