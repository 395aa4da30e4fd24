-- One UTR is claimed once, across payments and balance requests together
-- (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE utr_claims (
    utr        VARCHAR(50) NOT NULL PRIMARY KEY,
    owner      VARCHAR(20) NOT NULL,
    owner_id   INTEGER NOT NULL,
    created_at DATETIME NULL
);
CREATE INDEX utr_claims_owner_index ON utr_claims (owner, owner_id);

INSERT OR IGNORE INTO utr_claims (utr, owner, owner_id, created_at)
SELECT UPPER(TRIM(utr)), 'payment', id, updated_at FROM payments WHERE utr IS NOT NULL ORDER BY id;

INSERT OR IGNORE INTO utr_claims (utr, owner, owner_id, created_at)
SELECT UPPER(TRIM(utr_number)), 'balance_request', id, created_at FROM balance_requests ORDER BY id;

-- +goose Down
DROP TABLE IF EXISTS utr_claims;
