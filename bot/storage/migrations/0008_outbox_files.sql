-- An announcement's attached file (a turn post's pictures, about 350 KB) in a table of its own.
-- SQLite writes a whole row again, its overflow pages too, whenever one of its columns changes,
-- and an outbox row changes four or five times on its way (its nonce, each claim, each attempt,
-- sent): with the file in the row, that was most of the database's work per move. The file is
-- deleted once the post is sent (as the column was set to NULL).
CREATE TABLE outbox_files (
    outbox INTEGER PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
    image  BLOB    NOT NULL
);
INSERT INTO outbox_files (outbox, image) SELECT id, image FROM outbox WHERE image IS NOT NULL;
ALTER TABLE outbox DROP COLUMN image;
