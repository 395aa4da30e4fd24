-- Resellers issue their customers' invoices (docs/decisions.md, "Tax
-- invoices, credit notes and statements"; decisions part 18, "Tax documents
-- follow the money"). issuer_id names the reseller that issued a document
-- (null: the platform); issuer_key is issuer_id or 0, so that each issuer's
-- numbers are unique in its own series: two resellers may both choose the
-- prefix "AB". A reseller's series key in invoice_series is "R<id>:" and
-- the series ("R12:AB/26-27"), hence the wider columns.
-- api_hit_logs.commission_cancelled keeps a hit's commission that a refund
-- cancelled (commission is then 0), so the platform's invoice to the
-- reseller can price the refunded call at the reseller's cost.
-- invoice_holds: a reseller told (once a month) that its customers'
-- documents wait for its billing record.

-- +goose Up
ALTER TABLE invoices
    ADD COLUMN issuer_id BIGINT UNSIGNED NULL,
    ADD COLUMN issuer_key BIGINT UNSIGNED NOT NULL DEFAULT 0,
    MODIFY COLUMN series VARCHAR(40) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    DROP INDEX invoices_number_unique,
    ADD UNIQUE KEY invoices_issuer_number_unique (issuer_key, number),
    ADD KEY invoices_issuer_index (issuer_id, id);

ALTER TABLE invoice_series
    MODIFY COLUMN series VARCHAR(40) CHARACTER SET ascii COLLATE ascii_bin NOT NULL;

ALTER TABLE api_hit_logs
    ADD COLUMN commission_cancelled DECIMAL(10, 4) NOT NULL DEFAULT 0.0000;

CREATE TABLE IF NOT EXISTS invoice_holds (
    reseller_id BIGINT UNSIGNED NOT NULL,
    month       CHAR(7) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at  DATETIME(6) NOT NULL,
    PRIMARY KEY (reseller_id, month)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS invoice_holds;
ALTER TABLE api_hit_logs DROP COLUMN commission_cancelled;
ALTER TABLE invoices
    DROP INDEX invoices_issuer_index,
    DROP INDEX invoices_issuer_number_unique,
    ADD UNIQUE KEY invoices_number_unique (number),
    DROP COLUMN issuer_key,
    DROP COLUMN issuer_id;
