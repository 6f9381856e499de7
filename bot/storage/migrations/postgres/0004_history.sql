-- A server's history: each finished game's placings (what the stats count), the players'
-- ratings per server, and the replay animation posted after the end of a game.

-- One row per seat of a finished game, stored in the transaction of its final move.
CREATE TABLE results (
    game          BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER          NOT NULL,
    guild         BIGINT           NOT NULL,  -- 0: no server
    player        TEXT             NOT NULL,  -- 'user:<id>', 'computer:<level>', or 'former'
    user_id       BIGINT,                     -- NULL: a computer player or a forgotten player
    name          TEXT             NOT NULL,
    rank          INTEGER          NOT NULL,  -- 1 = first; equal ranks share a place
    score         INTEGER          NOT NULL,
    gold          INTEGER          NOT NULL,
    citizens      INTEGER          NOT NULL,
    bonus         INTEGER          NOT NULL,  -- complete cities
    hunger_vp     INTEGER          NOT NULL,
    resigned      BOOLEAN          NOT NULL,
    hungry_years  INTEGER          NOT NULL,  -- years with citizens lost to hunger
    built         TEXT             NOT NULL,  -- JSON {building: how many it built}
    mu_before     DOUBLE PRECISION NOT NULL,
    sigma_before  DOUBLE PRECISION NOT NULL,
    mu_after      DOUBLE PRECISION NOT NULL,
    sigma_after   DOUBLE PRECISION NOT NULL,
    ended_at      BIGINT           NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX results_by_player ON results (guild, player, game);
CREATE INDEX results_by_guild ON results (guild, game);

-- The current rating of each player (and computer level) per server.
CREATE TABLE ratings (
    guild  BIGINT           NOT NULL,
    player TEXT             NOT NULL,
    name   TEXT             NOT NULL,
    mu     DOUBLE PRECISION NOT NULL,
    sigma  DOUBLE PRECISION NOT NULL,
    games  INTEGER          NOT NULL,
    PRIMARY KEY (guild, player)
);

-- True once the replay animation of a finished game was stored in the outbox (or could not be made).
ALTER TABLE games ADD COLUMN replayed BOOLEAN NOT NULL DEFAULT false;
-- Games that ended before the history existed have no replay to post.
UPDATE games SET replayed = true WHERE status IN ('over', 'abandoned');
