-- Saved payout beneficiaries (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE beneficiaries (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL REFERENCES users (id),
    type           VARCHAR(16) NOT NULL,
    name           VARCHAR(100) NOT NULL,
    account_number VARCHAR(18) NOT NULL DEFAULT '',
    ifsc           CHAR(11) NOT NULL DEFAULT '',
    vpa            VARCHAR(256) NOT NULL DEFAULT '',
    name_at_source VARCHAR(200) NOT NULL DEFAULT '',
    verified_at    DATETIME NOT NULL,
    created_at     DATETIME NOT NULL
);
CREATE INDEX beneficiaries_user ON beneficiaries (user_id, id);

-- +goose Down
DROP TABLE IF EXISTS beneficiaries;
