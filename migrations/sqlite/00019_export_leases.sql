-- Leases of running CSV exports (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE export_leases (
    user_id    INTEGER NOT NULL,
    slot       INTEGER NOT NULL,
    holder     VARCHAR(64) NOT NULL,
    expires_at DATETIME NOT NULL,
    PRIMARY KEY (user_id, slot)
);

-- +goose Down
DROP TABLE export_leases;
