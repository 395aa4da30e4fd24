-- Sign-in attempt counters (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE login_attempts (
    key_hash      CHAR(64) NOT NULL PRIMARY KEY,
    failures      INTEGER NOT NULL DEFAULT 0,
    blocked_until DATETIME NULL,
    updated_at    DATETIME NOT NULL
);
CREATE INDEX login_attempts_updated_index ON login_attempts (updated_at);

-- +goose Down
DROP TABLE login_attempts;
