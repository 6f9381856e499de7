-- Seasons (issue 35): a server's admins run seasons of a calendar month or quarter (UTC); each has
-- its own leaderboard, computed from the results of the games finished in it, and its champion is
-- announced once in the channel they chose, in the language they chose.
CREATE TABLE season_settings (
    guild    BIGINT PRIMARY KEY,
    length   TEXT    NOT NULL CHECK (length IN ('month', 'quarter', 'off')),
    channel  BIGINT  NOT NULL,                 -- where the champion is announced
    language TEXT    NOT NULL
);

-- One row per season of a server; the running one has no `announced` (at most one per server).
CREATE TABLE seasons (
    guild         BIGINT  NOT NULL,
    number        INTEGER NOT NULL,            -- 1, 2, … per server
    starts        BIGINT  NOT NULL,            -- the games finished from `starts` until before `ends`
    ends          BIGINT  NOT NULL,
    champion      TEXT,                        -- the winner's rating key (NULL: nobody qualified)
    champion_name TEXT,
    announced     BIGINT,                      -- when it was closed and its post stored
    PRIMARY KEY (guild, number)
);
CREATE UNIQUE INDEX seasons_running ON seasons (guild) WHERE announced IS NULL;
CREATE INDEX results_by_time ON results (guild, ended_at);
