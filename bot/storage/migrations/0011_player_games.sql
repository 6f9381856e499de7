-- A player's games at a glance (issue 32): the open games a member holds a seat in, in every
-- server, are found by their seats; a game's last post (its jump link) by its outbox entries.
CREATE INDEX seats_by_user ON seats (user_id);
CREATE INDEX outbox_by_game ON outbox (game, id) WHERE state = 'sent';
