"""The SQL both backends share, written once with PostgreSQL's ``$1, $2 …`` placeholders
(`qmarks` writes them as SQLite's ``?``), by the part of the storage that runs it; and the
outbox's nonces, which both store. What the dialects write differently (flags, arrays, row
locks, upserts, JSON, the shards' filter) stays in each backend's modules; a template here
takes the backend's filter as ``{on_shards}``.

>>> qmarks(TOUCH)
'UPDATE games SET updated_at = ? WHERE id = ?'
"""

from __future__ import annotations

import functools
import re
import secrets


@functools.lru_cache(maxsize=256)
def qmarks(sql: str) -> str:
    """SQL written for both backends with PostgreSQL's ``$1, $2 …``, in SQLite's ``?``; each
    numbered parameter must be used once, in order (a ValueError otherwise)."""
    numbers = [int(n) for n in re.findall(r"\$(\d+)", sql)]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"not $1, $2 … each once, in order: {sql}")
    return re.sub(r"\$\d+", "?", sql)


# --- games ----------------------------------------------------------------------------

GAME = "SELECT * FROM games WHERE id = $1"
SEATS = "SELECT * FROM seats WHERE game = $1 ORDER BY seat"
USERS = "SELECT user_id FROM seats WHERE game = $1 ORDER BY seat"
"""The members of a game in seat order (a start checks them)."""
HOST_SEAT = "INSERT INTO seats (game, seat, user_id, name) VALUES ($1, 0, $2, $3)"
LOBBY_SEATS = "SELECT seat, user_id FROM seats WHERE game = $1"
MEMBERS = "SELECT user_id, name, ai_level FROM seats WHERE game = $1 ORDER BY seat"
NEW_SEAT = "INSERT INTO seats (game, seat, user_id, name, ai_level) VALUES ($1, $2, $3, $4, $5)"
NO_SEATS = "DELETE FROM seats WHERE game = $1"
TOUCH = "UPDATE games SET updated_at = $1 WHERE id = $2"
LEFT = "UPDATE games SET host = COALESCE($1, host), status = $2, updated_at = $3 WHERE id = $4"
"""A lobby after a member left: its (new) host and status."""
HOSTED = (
    "SELECT channel FROM games WHERE status = 'lobby' AND COALESCE(guild, 0) = $1 AND host = $2 ORDER BY id"
)
"""The channels of a member's open lobbies in a server (the cap per member: `create_lobby`)."""
SHOWN = "UPDATE games SET lobby_message = $1 WHERE id = $2"
COMPUTER = "UPDATE games SET computer_by = $1, computer_at = $2, updated_at = $3 WHERE id = $4"
"""Who added the lobby's last computer player, and when (`add_computer`)."""
STALE = "status = 'lobby' AND updated_at < $1"
"""Lobbies nothing happened in since ``$1`` (no join, leave, computer, setting)."""
CLOSE = f"UPDATE games SET status = 'abandoned' WHERE id = $1 AND {STALE.replace('$1', '$2')}"
"""A stale lobby closed; its ``updated_at`` stays its last activity, so that it is forgotten as
soon as its message is edited (`PRUNED`)."""
PRUNED = (
    "status = 'abandoned' AND seed IS NULL AND updated_at < $1 AND NOT EXISTS "
    "(SELECT 1 FROM outbox o WHERE o.game = games.id AND o.state = 'pending')"
)
"""Lobbies closed (never started) with nothing since ``$1`` and nothing left to send: forgotten."""
START = (
    "UPDATE games SET status = 'active', seed = $1, record = $2, snapshot = $3, version = 0, "
    "highlight = $4, updated_at = $5 WHERE id = $6 AND status = 'lobby'"
)
COMMIT = (
    "UPDATE games SET version = $1, record = $2, snapshot = $3, status = $4, highlight = $5, "
    "updated_at = $6 WHERE id = $7 AND version = $8 AND status = 'active'"
)
"""The version check of a move: no row is changed unless the game is running at ``version = $8``."""
NEW_MOVE = (
    "INSERT INTO moves (game, number, seat, text, summary, auto, created_at, reveals, batch, "
    "events) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
)
NEW_SECRET = (
    "INSERT INTO secrets (game, seat, year, move, kind, text, told) VALUES ($1, $2, $3, $4, $5, $6, $7)"
)

ASKED = (
    "UPDATE moves SET asked_at = (SELECT c.since + c.paused FROM clocks c WHERE c.game = moves.game "
    "AND c.seat = moves.seat) WHERE game = $1 AND number > $2 AND NOT auto AND number = (SELECT "
    "MIN(m.number) FROM moves m WHERE m.game = moves.game AND m.seat = moves.seat AND m.number > $3 "
    "AND NOT m.auto)"
)
"""When each seat that answered in a commit (its first own move after version ``$2`` = ``$3``) was
asked: its clock, vacation added. Run inside the commit, before the clocks change."""
LATE = (
    "INSERT INTO conduct (game, seat, user_id, kind, at) SELECT c.game, c.seat, s.user_id, 'missed', "
    "CAST($1 AS BIGINT) "
    "FROM clocks c JOIN seats s ON s.game = c.game AND s.seat = c.seat JOIN games g ON g.id = c.game "
    "WHERE c.game = $2 AND g.deadline_hours > 0 AND c.since + c.paused + g.deadline_hours * 3600 <= $3 "
    "AND c.seat IN (SELECT m.seat FROM moves m WHERE m.game = $4 AND m.number > $5 AND NOT m.auto)"
)
"""A deadline missed by each seat that answered in a commit (moves after version ``$5``) at ``$3``,
after its deadline (the game's at that moment). Run inside the commit, before the clocks change."""
CONDUCT = (
    "INSERT INTO conduct (game, seat, user_id, kind, at) SELECT game, seat, user_id, CAST($1 AS TEXT), "
    "CAST($2 AS BIGINT) FROM seats "
    "WHERE game = $3 AND seat = $4"
)
"""What the player holding a seat did (`conduct.kind`), at ``$2``."""
DEEDS = (
    "SELECT r.user_id, r.guild, 'finished' AS kind, r.ended_at AS at, CAST(NULL AS BIGINT) AS waited "
    "FROM results r WHERE r.user_id {users}$1{end} AND r.ended_at >= $2 AND NOT r.resigned "
    "UNION ALL SELECT c.user_id, COALESCE(g.guild, 0), c.kind, c.at, CAST(NULL AS BIGINT) FROM conduct c "
    "JOIN games g ON g.id = c.game WHERE c.user_id {users}$3{end} AND c.at >= $4 "
    "UNION ALL SELECT s.user_id, COALESCE(g.guild, 0), 'moved', m.created_at, m.created_at - m.asked_at "
    "FROM seats s JOIN games g ON g.id = s.game JOIN moves m ON m.game = s.game AND m.seat = s.seat "
    "AND m.number > s.held_since WHERE s.user_id {users}$5{end} AND m.asked_at IS NOT NULL "
    "AND NOT m.undone AND m.created_at >= $6 ORDER BY 4, 1, 3, 5"
)
"""What players did since ``$2`` (= ``$4``, ``$6``), each a `Deed`: the games they finished in
their seat (not resigned), their conduct, and the moves they answered (those of a seat's present
holder: a former holder's are not theirs to count) with the time they took. ``{users}$n{end}`` is
the backend's test that the user is one of a list (one parameter)."""

BY_STATE = (
    "SELECT CASE WHEN status = 'active' AND paused IS NOT NULL THEN 'paused' ELSE status END AS state, "
    "COUNT(*) AS games FROM games WHERE {on_shards} GROUP BY 1"
)
"""How many games there are in each state (`GamesProtocol.by_state`; ``{on_shards}`` on ``guild``)."""

# --- players --------------------------------------------------------------------------

SET_PREFS = (
    "INSERT INTO players (user_id, quiet_start, quiet_end, utc_offset, remind_by, language, ahead, "
    "digest_at, next_ping) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (user_id) DO UPDATE SET "
    "quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, "
    "utc_offset = excluded.utc_offset, remind_by = excluded.remind_by, language = excluded.language, "
    "ahead = excluded.ahead, digest_at = excluded.digest_at, next_ping = excluded.next_ping"
)
"""Store a player's preferences (their last digest's day is `CLAIM_DIGEST`'s alone)."""
DIGESTS = "SELECT * FROM players WHERE digest_at IS NOT NULL ORDER BY user_id"
"""The players who asked for a daily digest."""
CLAIM_DIGEST = (
    "UPDATE players SET digest_day = $1 WHERE user_id = $2 AND (digest_day IS NULL OR digest_day < $3)"
)
"""Take a player's digest of a day: one process, once."""
PLAYS = "SELECT 1 FROM seats WHERE game = $1 AND user_id = $2"
SEAT_USER = "SELECT user_id FROM seats WHERE game = $1 AND seat = $2"
NEW_HOST = "UPDATE games SET host = $1 WHERE id = $2 AND host = $3"

# --- clocks ---------------------------------------------------------------------------

REMINDED = "UPDATE clocks SET reminders = reminders + 1, last_reminded = $1 WHERE game = $2 AND seat = $3"

# --- the outbox -----------------------------------------------------------------------

NONCE_BYTES = 3
"""A post's nonce is ``<6 random hex digits>.<its id in hex>``: unique per database, and at most 23
characters for any id (a 64-bit one has 16 hex digits), so that a direct message's, which adds
``d<n>``, fits Discord's 25 too (`bot.service.delivery.dm_nonce`)."""


def fresh_nonce(outbox_id: int) -> str:
    """A new nonce for the post ``outbox_id`` (see `NONCE_BYTES`).

    >>> len(fresh_nonce(2**63 - 1)), fresh_nonce(255)[-3:]
    (23, '.ff')
    """
    return f"{secrets.token_hex(NONCE_BYTES)}.{outbox_id:x}"


NEW_FILE = "INSERT INTO outbox_files (outbox, image) VALUES ($1, $2)"
WITH_FILE = "SELECT o.*, f.image FROM outbox o LEFT JOIN outbox_files f ON f.outbox = o.id"
"""An outbox row and its attached file (None: it has none, or it was sent)."""
POST = f"{WITH_FILE} WHERE o.id = $1"
HEAD = f"{WITH_FILE} WHERE o.channel = $1 AND o.state = 'pending' ORDER BY o.id LIMIT 1"
"""A channel's oldest pending post, with its file."""
HEADS = (
    "SELECT o.* FROM outbox o LEFT JOIN games g ON g.id = o.game WHERE o.id IN "
    "(SELECT MIN(id) FROM outbox WHERE state = 'pending' GROUP BY channel) "
    "AND {on_shards} ORDER BY o.id"
)
"""Each channel's oldest pending post, without its file (``{on_shards}`` on ``g.guild``)."""
TRYING = "UPDATE outbox SET attempts = attempts + 1, tried_at = $1 WHERE id = $2"
RETRY = "UPDATE outbox SET next_try = $1, error = $2, claimed_by = NULL, claimed_until = 0 WHERE id = $3"
FAILED = "UPDATE outbox SET state = 'failed', error = $1 WHERE id = $2"
POST_GUILD = "(SELECT guild FROM games WHERE id = outbox.game)"
UNBLOCK = "UPDATE outbox SET next_try = 0 WHERE state = 'pending' AND error LIKE $1 AND {on_shards}"
"""The posts waiting for a permission due again (``{on_shards}`` on `POST_GUILD`, from ``$2``)."""
PRUNABLE = (
    "state IN ('sent', 'failed') AND COALESCE(sent_at, created_at) < $1 AND NOT EXISTS "
    "(SELECT 1 FROM games g WHERE g.id = outbox.game AND g.version = outbox.version)"
)
"""The outbox rows `prune` forgets (their files go with them: ON DELETE CASCADE)."""
BACKLOG = (
    "SELECT COUNT(*) AS posts, MIN(o.created_at) AS oldest FROM outbox o LEFT JOIN games g ON g.id = o.game "
    "WHERE o.state = 'pending' AND (o.error IS NULL OR o.error NOT LIKE $1) AND {on_shards}"
)
"""The posts waiting to be sent and the oldest one's time (`OutboxProtocol.backlog`): pending, not
waiting for a permission (``$1``: `MISSING` and ``%``); ``{on_shards}`` on ``g.guild``."""
HOLD = "UPDATE outbox SET state = 'held', error = $1 WHERE channel = $2 AND state = 'pending'"
RELEASE = (
    "UPDATE outbox SET state = 'pending', error = NULL, next_try = 0, claimed_by = NULL, "
    "claimed_until = 0 WHERE channel = $1 AND state = 'held'"
)
MOVE_POST = (
    "UPDATE outbox SET channel = $1, nonce = $2, state = 'pending', error = NULL, next_try = 0, "
    "claimed_by = NULL, claimed_until = 0, tried_at = NULL WHERE id = $3"
)
"""A post of a game moved to another channel (`move_game`): due there at once, never tried
there, with a new nonce (one Discord saw in the channel that is gone must not answer for it)."""

# --- claims ---------------------------------------------------------------------------

FREE_CLOCKS = "UPDATE games SET clock_claimed_by = NULL, clock_claimed_until = 0 WHERE clock_claimed_by {0}"
FREE_POSTS = (
    "UPDATE outbox SET claimed_by = NULL, claimed_until = 0 WHERE state = 'pending' AND claimed_by {0}"
)
"""Free the claims whose holder column matches ``{0}``: `OWNER` or `PREDECESSORS`, formatted
with that column."""
OWNER = "= $1"
"""The claims of one owner ($1)."""
PREDECESSORS = "<> $1 AND substr({0}, 1, $2) = $3"
"""The claims of other owners ($1: the new one) in a slot ($3: the slot and ``#``, $2 its length)."""

# --- history --------------------------------------------------------------------------

NEW_RESULT = (
    "INSERT INTO results (game, seat, guild, player, user_id, name, rank, score, gold, citizens, "
    "bonus, hunger_vp, resigned, hungry_years, built, mu_before, sigma_before, mu_after, "
    "sigma_after, ended_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, "
    "$15, $16, $17, $18, $19, $20)"
)
RESULTS_OF = "SELECT * FROM results WHERE guild = $1 AND player = $2 ORDER BY game, seat"
GAME_RESULTS = "SELECT * FROM results WHERE game = $1 ORDER BY seat"
FINISHED = (
    "SELECT g.id, g.channel, MAX(r.ended_at) AS ended_at, (SELECT o.message_id FROM outbox o "
    "WHERE o.game = g.id AND o.version = g.version ORDER BY o.id LIMIT 1) AS message_id "
    "FROM games g JOIN results r ON r.game = g.id WHERE r.guild = $1 AND g.id < $2 "
    "GROUP BY g.id ORDER BY g.id DESC LIMIT $3"
)
"""The last games finished in a server before a game id, newest first, with their final post's message."""
NO_GAME_AFTER = 2**63 - 1
"""A game id above every other (the first page of `FINISHED`): the largest BIGINT."""
FORMER_SEAT_SQL = "UPDATE seats SET name = $1, user_id = $2 WHERE game = $3 AND seat = $4"
FORGET_RESULTS = "UPDATE results SET player = $1, user_id = NULL, name = $2 WHERE guild = $3 AND player = $4"
FORGET_RATING = "DELETE FROM ratings WHERE guild = $1 AND player = $2"

GAMES_OF = (
    "SELECT * FROM games WHERE status IN ('lobby', 'active') AND id IN "
    "(SELECT game FROM seats WHERE user_id = $1 AND NOT resigned) ORDER BY updated_at DESC, id DESC LIMIT $2"
)
"""The open games a user holds a seat in, the most recently changed first (`GamesProtocol.games_of`)."""

FORGET_CONDUCT = (
    "DELETE FROM conduct WHERE user_id = $1 AND game IN (SELECT id FROM games WHERE COALESCE(guild, 0) = $2)"
)
"""A forgotten player's conduct in a server's games (`bot.service.reliability` counts it no more)."""

PAGE_MADE = "UPDATE games SET page = $1 WHERE id = $2 AND page IS NULL"
"""A game's web page gets its first token (`GamesProtocol.page`): the first to ask wins."""
PAGE = "SELECT page FROM games WHERE id = $1"
PAGE_RENEWED = "UPDATE games SET page = $1 WHERE id = $2"
BY_PAGE = "SELECT * FROM games WHERE page = $1"

SEASON_SETTINGS = "SELECT * FROM season_settings WHERE guild = $1"
SET_SEASONS = (
    "INSERT INTO season_settings (guild, length, channel, language) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (guild) DO UPDATE SET length = excluded.length, channel = excluded.channel, "
    "language = excluded.language"
)
RUNNING_SEASON = "SELECT * FROM seasons WHERE guild = $1 AND announced IS NULL"
DROP_RUNNING = "DELETE FROM seasons WHERE guild = $1 AND announced IS NULL"
NEW_SEASON = (
    "INSERT INTO seasons (guild, number, starts, ends) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING"
)
"""Start a season, unless the server has one running (or one of that number) already: of two at once,
one is stored."""
CLOSE_SEASON = (
    "UPDATE seasons SET champion = $1, champion_name = $2, announced = $3 "
    "WHERE guild = $4 AND number = $5 AND announced IS NULL"
)
"""End a running season (once: a season already announced is left as it is)."""
PAST_SEASONS = "SELECT * FROM seasons WHERE guild = $1 AND announced IS NOT NULL ORDER BY number DESC"
TITLES = "SELECT * FROM seasons WHERE guild = $1 AND champion = $2 AND announced IS NOT NULL ORDER BY number"
SEASON_RESULTS = (
    "SELECT * FROM results WHERE guild = $1 AND ended_at >= $2 AND ended_at < $3 "
    "ORDER BY ended_at, game, seat"
)
"""The seats of the games of a server finished in a season, in the order the games ended."""
DUE_SEASONS = "SELECT * FROM seasons WHERE announced IS NULL AND ends <= {now} AND {on_shards} ORDER BY guild"


# --- tournaments ------------------------------------------------------------------------

NEW_TOURNAMENT = (
    "INSERT INTO tournaments (guild, channel, status, state, created_at, updated_at) "
    "VALUES ($1, $2, 'signup', $3, $4, $5) RETURNING id"
)
TOURNAMENT = "SELECT * FROM tournaments WHERE id = $1"
GUILD_TOURNAMENTS = "SELECT * FROM tournaments WHERE guild = $1 ORDER BY id DESC"
ACTIVE_TOURNAMENTS = (
    "SELECT * FROM tournaments WHERE status IN ('signup', 'running') AND {on_shards} ORDER BY id"
)
CHANGE_TOURNAMENT = (
    "UPDATE tournaments SET status = $1, state = $2, version = version + 1, updated_at = $3 "
    "WHERE id = $4 AND version = $5"
)
# --- rank roles ------------------------------------------------------------------------

SET_RANK_RULE = (
    "INSERT INTO rank_roles (guild, role, rule, value) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (guild, role) DO UPDATE SET rule = excluded.rule, value = excluded.value"
)
RANK_SYNC_AGAIN = (
    "INSERT INTO rank_sync (guild, synced_at, channel, language, refused_at) VALUES ($1, 0, $2, $3, NULL) "
    "ON CONFLICT (guild) DO UPDATE SET synced_at = 0, channel = excluded.channel, "
    "language = excluded.language, refused_at = NULL"
)
"""A server's holders to be decided again at the next tick (its rules changed); a refusal forgotten."""
DROP_RANK_RULE = "DELETE FROM rank_roles WHERE guild = $1 AND role = $2"
FORGET_WANTED = "DELETE FROM rank_grants WHERE guild = $1 AND role = $2 AND state = 'wanted'"
TAKE_BACK = "UPDATE rank_grants SET state = 'removing' WHERE guild = $1 AND role = $2"
RANK_SYNC_DIRTY = "UPDATE rank_sync SET synced_at = 0 WHERE guild = $1"
RANK_RULES = "SELECT * FROM rank_roles WHERE guild = $1 ORDER BY role"
RANK_SYNCS = (
    "SELECT s.*, "
    "COALESCE((SELECT MAX(r.ended_at) FROM results r WHERE r.guild = s.guild), 0) AS last_result, "
    "COALESCE((SELECT MAX(x.announced) FROM seasons x WHERE x.guild = s.guild), 0) AS last_season, "
    "(SELECT COUNT(*) FROM rank_grants g WHERE g.guild = s.guild AND g.state <> 'held') AS pending "
    "FROM rank_sync s WHERE {on_shards} ORDER BY s.guild"
)
"""The servers with rank roles, with the last time a game ended or a season was announced there
(either changes who should hold a role) and the grants waiting for a Discord call."""
RANK_GRANTS = "SELECT * FROM rank_grants WHERE guild = $1 ORDER BY role, member"
NEW_GRANT = "INSERT INTO rank_grants (guild, role, member, state) VALUES ($1, $2, $3, 'wanted')"
SET_GRANT = "UPDATE rank_grants SET state = $1 WHERE guild = $2 AND role = $3 AND member = $4"
FORGET_GRANT = "DELETE FROM rank_grants WHERE guild = $1 AND role = $2 AND member = $3"
RANK_SYNCED = "UPDATE rank_sync SET synced_at = $1 WHERE guild = $2"
RANK_REFUSED = "UPDATE rank_sync SET refused_at = $1 WHERE guild = $2 AND refused_at IS NULL"
RANK_STILL_REFUSED = "UPDATE rank_sync SET refused_at = $1 WHERE guild = $2"
RANK_ACCEPTED = "UPDATE rank_sync SET refused_at = NULL WHERE guild = $1"
RANK_REFUSED_SINCE = "SELECT refused_at FROM rank_sync WHERE guild = $1"
SERVER_PAGE = "SELECT token FROM server_pages WHERE guild = $1"
SERVER_PAGE_ON = "INSERT INTO server_pages (guild, token) VALUES ($1, $2) ON CONFLICT (guild) DO NOTHING"
"""A server's page is switched on with a first token, unless it is on already (it keeps its address)."""
SERVER_PAGE_RENEWED = (
    "INSERT INTO server_pages (guild, token) VALUES ($1, $2) "
    "ON CONFLICT (guild) DO UPDATE SET token = excluded.token"
)
SERVER_PAGE_OFF = "DELETE FROM server_pages WHERE guild = $1"
SERVER_BY_PAGE = "SELECT guild FROM server_pages WHERE token = $1"
RUNNING_OF_SERVER = "SELECT * FROM games WHERE guild = $1 AND status = 'active' ORDER BY id DESC LIMIT $2"
