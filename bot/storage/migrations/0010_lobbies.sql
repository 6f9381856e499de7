-- Lobbies (issue 30): the lobby's message is edited through the outbox, stale lobbies are closed
-- and forgotten, and a double-sent `/citta add-ai` adds one computer player.

-- The lobby's message in its channel (the answer to `/citta new`); NULL: not known (a lobby opened
-- before this, or the bot stopped between the answer and noting it): its buttons' presses edit it.
ALTER TABLE games ADD COLUMN lobby_message INTEGER;
-- Who added the lobby's last computer player, and when: a second request of theirs a moment later
-- is the same request sent twice.
ALTER TABLE games ADD COLUMN computer_by INTEGER;
ALTER TABLE games ADD COLUMN computer_at INTEGER;
-- The message an outbox entry edits (its text and buttons replaced); NULL: a new post.
ALTER TABLE outbox ADD COLUMN edits INTEGER;
-- The open lobbies of a host (the cap per member), and the lobbies the clock closes and forgets.
CREATE INDEX games_lobbies_by_host ON games (host) WHERE status = 'lobby';
CREATE INDEX games_lobbies_by_age ON games (updated_at) WHERE status IN ('lobby', 'abandoned') AND seed IS NULL;
