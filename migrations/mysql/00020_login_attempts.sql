-- Sign-in attempt counters, shared by every instance (core/signin): one row
-- per (account, address) pair, per address and per account, keyed by the
-- SHA-256 of that name so no email or address is stored. Rows idle for an
-- hour read as zero and are purged a few at a time.

-- +goose Up
CREATE TABLE IF NOT EXISTS login_attempts (
    key_hash      CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    failures      INT NOT NULL DEFAULT 0,
    blocked_until DATETIME(6) NULL,
    updated_at    DATETIME(6) NOT NULL,
    PRIMARY KEY (key_hash),
    KEY login_attempts_updated_index (updated_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS login_attempts;
