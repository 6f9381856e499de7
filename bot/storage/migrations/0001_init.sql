-- La Città for Discord: games, seats, the move log and each seat's private information.

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    guild          INTEGER,
    channel        INTEGER NOT NULL,
    host           INTEGER NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'abandoned')),
    setup          TEXT    NOT NULL CHECK (setup IN ('beginner', 'experienced')),
    players_wanted INTEGER,
    seed           INTEGER,            -- secret: never shown in a message
    version        INTEGER NOT NULL DEFAULT 0,  -- number of moves made
    record         TEXT,               -- engine Record as JSON (seed + moves)
    snapshot       TEXT,               -- engine state as JSON (secrets included)
    highlight      TEXT    NOT NULL DEFAULT '[]',  -- hexes of the last move, JSON list
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);

-- One game per channel at a time (a lobby or a running game).
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_channel ON games (channel, id);

CREATE TABLE seats (
    game     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    resigned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seat),
    UNIQUE (game, user_id)
);

CREATE TABLE moves (
    game       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number     INTEGER NOT NULL,   -- 1-based; equals the game version after the move
    seat       INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    summary    TEXT    NOT NULL DEFAULT '',  -- public events only
    auto       INTEGER NOT NULL DEFAULT 0,   -- made by the bot for a resigned player
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game, number)
);

-- Private events (polled voice cards, drawn politics cards): shown only to their seat.
CREATE TABLE secrets (
    game INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    year INTEGER NOT NULL,
    move INTEGER NOT NULL,
    kind TEXT    NOT NULL,
    text TEXT    NOT NULL
);
CREATE INDEX secrets_by_seat ON secrets (game, seat, year);
