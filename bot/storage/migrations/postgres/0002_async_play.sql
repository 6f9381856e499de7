-- Asynchronous play over days: per-game settings, computer seats, players' preferences,
-- move clocks (deadlines and reminders), vacation, and what undo and recap need in the log.

-- Per-game settings (`/citta settings`).
ALTER TABLE games ADD COLUMN deadline_hours INTEGER NOT NULL DEFAULT 24;  -- 0: no deadline
ALTER TABLE games ADD COLUMN remind_hours   INTEGER NOT NULL DEFAULT 12;  -- 0: no reminders
ALTER TABLE games ADD COLUMN policy         TEXT    NOT NULL DEFAULT 'wait'
    CHECK (policy IN ('wait', 'computer', 'skip'));                        -- at the deadline
ALTER TABLE games ADD COLUMN ai_level       TEXT    NOT NULL DEFAULT 'basic';  -- for 'computer'
ALTER TABLE games ADD COLUMN board_every    TEXT    NOT NULL DEFAULT 'move'
    CHECK (board_every IN ('move', 'round'));
ALTER TABLE games ADD COLUMN vacation_days  INTEGER NOT NULL DEFAULT 14;  -- per player and year

-- Seats: computer players (negative user ids), absent players played for, vacation.
ALTER TABLE seats ADD COLUMN ai_level       TEXT;                            -- NULL: a human
ALTER TABLE seats ADD COLUMN away           BOOLEAN NOT NULL DEFAULT false;  -- played for after a deadline
ALTER TABLE seats ADD COLUMN vacation_until BIGINT;                          -- clock paused until then
ALTER TABLE seats ADD COLUMN vacation_used  INTEGER NOT NULL DEFAULT 0;      -- days, this vacation year
ALTER TABLE seats ADD COLUMN vacation_year  BIGINT;                          -- when that year began

-- The move log: what undo and recap need. Older moves count as revealing (never undone).
ALTER TABLE moves ADD COLUMN reveals BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE moves ADD COLUMN batch   INTEGER;                        -- moves stored together share it
ALTER TABLE moves ADD COLUMN undone  BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE moves ADD COLUMN events  TEXT;                           -- public events [{kind, text}]

-- A player's preferences across games (`/citta me`).
CREATE TABLE players (
    user_id     BIGINT  PRIMARY KEY,
    quiet_start INTEGER,                      -- minutes after local midnight; NULL: no quiet hours
    quiet_end   INTEGER,
    utc_offset  INTEGER NOT NULL DEFAULT 0,   -- minutes
    remind_by   TEXT    NOT NULL DEFAULT 'mention' CHECK (remind_by IN ('mention', 'dm'))
);

-- One clock per seat we wait for: deadlines and reminders are computed from it, so they
-- survive restarts.
CREATE TABLE clocks (
    game          BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    since         BIGINT  NOT NULL,                -- when we started waiting
    paused        BIGINT  NOT NULL DEFAULT 0,      -- seconds of vacation added to the deadline
    reminders     INTEGER NOT NULL DEFAULT 0,      -- reminders sent
    last_reminded BIGINT,
    stalled       BOOLEAN NOT NULL DEFAULT false,  -- the table was told the game is stalled
    PRIMARY KEY (game, seat)
);
