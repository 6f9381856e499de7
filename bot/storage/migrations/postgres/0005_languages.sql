-- Languages (issue 14): a game's public language (its channel posts and their pictures) and a
-- player's own choice for what is private to them (NULL: their Discord client's language).
ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE players ADD COLUMN language TEXT;
