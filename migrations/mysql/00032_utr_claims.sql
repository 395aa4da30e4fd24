-- One UTR is claimed once, across payments and balance requests together
-- (docs/decisions.md, "A UTR is claimed once"): the primary key is the
-- claim. The UTR's canonical form (trimmed, upper case) is written by the
-- application in the transaction that gives a payment or a request its UTR.
-- Existing UTRs are claimed by payments first, then by balance requests in
-- the order they were filed; a later duplicate keeps its row, unclaimed.

-- +goose Up
CREATE TABLE IF NOT EXISTS utr_claims (
    utr        VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    owner      VARCHAR(20) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    owner_id   BIGINT UNSIGNED NOT NULL,
    created_at DATETIME(6) NULL,
    PRIMARY KEY (utr),
    KEY utr_claims_owner_index (owner, owner_id)
) ENGINE = InnoDB DEFAULT CHARSET = ascii COLLATE = ascii_bin;

INSERT IGNORE INTO utr_claims (utr, owner, owner_id, created_at)
SELECT UPPER(TRIM(utr)), 'payment', id, updated_at FROM payments WHERE utr IS NOT NULL ORDER BY id;

INSERT IGNORE INTO utr_claims (utr, owner, owner_id, created_at)
SELECT UPPER(TRIM(utr_number)), 'balance_request', id, created_at FROM balance_requests ORDER BY id;

-- +goose Down
DROP TABLE IF EXISTS utr_claims;
