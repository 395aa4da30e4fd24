-- Holds on a balance for metered calls (see the MySQL migration of the same
-- number). Money columns are TEXT, as everywhere on SQLite.

-- +goose Up
CREATE TABLE call_holds (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER NOT NULL,
    api_key_id  INTEGER NOT NULL,
    day         CHAR(10) NOT NULL,
    unit_amount TEXT NOT NULL,
    calls       INTEGER NOT NULL,
    used_calls  INTEGER NOT NULL DEFAULT 0,
    used_amount TEXT NOT NULL DEFAULT '0.00',
    expires_at  DATETIME NOT NULL,
    created_at  DATETIME NULL
);
CREATE INDEX call_holds_user_index ON call_holds (user_id);
CREATE INDEX call_holds_expires_index ON call_holds (expires_at);

-- +goose Down
DROP TABLE call_holds;
