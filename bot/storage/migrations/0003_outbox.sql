-- The outbox: every announcement (a channel post with its board, mentions and buttons, and
-- the direct messages that go with it) is stored in the same transaction as the change it
-- announces, then sent by the delivery task and marked sent. A crash at any point leaves
-- each announcement either pending (sent again, idempotently, through Discord's nonce) or
-- sent, never lost.

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game       INTEGER REFERENCES games (id) ON DELETE CASCADE,
    channel    INTEGER NOT NULL,                 -- posts of one channel go out in id order
    version    INTEGER,                          -- the game version announced (NULL: not a move)
    payload    TEXT    NOT NULL,                 -- JSON: the message, the DMs, the DM fallback
    image      BLOB,                             -- the attached file until it is sent
    nonce      TEXT    NOT NULL,                 -- Discord's message nonce (enforce_nonce)
    dms_done   TEXT    NOT NULL DEFAULT '{}',    -- JSON {index: message id, 0 when undeliverable}
    state      TEXT    NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'sent', 'held', 'failed')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    tried_at   INTEGER,                          -- when the channel post was last sent off
    next_try   INTEGER NOT NULL DEFAULT 0,
    message_id INTEGER,                          -- the channel message, once sent
    error      TEXT,                             -- why the last try failed
    created_at INTEGER NOT NULL,
    sent_at    INTEGER
);
CREATE INDEX outbox_pending ON outbox (channel, id) WHERE state = 'pending';

-- A game whose channel is gone (deleted, or a locked thread) is paused: no clock, no posts.
ALTER TABLE games ADD COLUMN paused TEXT;
-- The permissions the bot lacks in the game's channel, once the table was told (NULL: none).
ALTER TABLE games ADD COLUMN blocked TEXT;
