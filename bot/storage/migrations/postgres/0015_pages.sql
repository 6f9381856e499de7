-- A game's web page (issue 34): its unguessable address (`secrets.token_urlsafe(24)`, 192 random
-- bits), made on first need; renewing it (`/citta settings page:renew`) ends the old address.
-- NULL: none made yet. Unique: a token finds one game.
ALTER TABLE games ADD COLUMN page TEXT;
CREATE UNIQUE INDEX games_by_page ON games (page);
