-- Rank roles (issue 35): a server's admins map Discord roles to places or ratings, and the bot keeps
-- them current, giving and taking only the roles it gave itself (bot.service.ranks).
CREATE TABLE rank_roles (
    guild BIGINT  NOT NULL,
    role  BIGINT  NOT NULL,                   -- the Discord role's id
    rule  TEXT    NOT NULL CHECK (rule IN ('champion', 'top', 'rating')),
    value DOUBLE PRECISION NOT NULL,                   -- top: the places; rating: the least rating; champion: 0
    PRIMARY KEY (guild, role)
);

-- One row per (role, member) the bot gave or is about to give or take: `wanted` (decided, not yet
-- checked whether the member holds it already), `putting` (the member lacked it: the bot gives it),
-- `held` (given), `removing` (the bot takes it back). Only these are ever taken.
CREATE TABLE rank_grants (
    guild  BIGINT  NOT NULL,
    role   BIGINT  NOT NULL,
    member BIGINT  NOT NULL,
    state  TEXT    NOT NULL CHECK (state IN ('wanted', 'putting', 'held', 'removing')),
    PRIMARY KEY (guild, role, member)
);

-- A server with rank roles: when its holders were last decided (0: a rule changed since), where and in
-- which language its admins hear that Discord refused a change, and since when it refuses.
CREATE TABLE rank_sync (
    guild      BIGINT  PRIMARY KEY,
    synced_at  BIGINT  NOT NULL,
    channel    BIGINT  NOT NULL,
    language   TEXT    NOT NULL,
    refused_at BIGINT                         -- NULL: Discord did not refuse the last change
);
