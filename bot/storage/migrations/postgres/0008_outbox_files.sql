-- An announcement's attached file (a turn post's pictures, about 350 KB) in a table of its own,
-- as in SQLite (where a file in the row is written again at every change of the row: its nonce,
-- each claim, each attempt, sent). PostgreSQL keeps such a value out of line already; the
-- table keeps both schemas one, and the outbox rows the delivery task scans small. The file is
-- deleted once the post is sent (as the column was set to NULL).
CREATE TABLE outbox_files (
    outbox BIGINT PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
    image  BYTEA  NOT NULL
);
INSERT INTO outbox_files (outbox, image) SELECT id, image FROM outbox WHERE image IS NOT NULL;
ALTER TABLE outbox DROP COLUMN image;
