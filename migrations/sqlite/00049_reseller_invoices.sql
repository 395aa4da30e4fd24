-- Resellers issue their customers' invoices (see the MySQL migration of the
-- same number). SQLite does not enforce VARCHAR lengths: the series columns
-- need no change.

-- +goose Up
ALTER TABLE invoices ADD COLUMN issuer_id INTEGER NULL;
ALTER TABLE invoices ADD COLUMN issuer_key INTEGER NOT NULL DEFAULT 0;
DROP INDEX IF EXISTS invoices_number_unique;
CREATE UNIQUE INDEX invoices_issuer_number_unique ON invoices (issuer_key, number);
CREATE INDEX invoices_issuer_index ON invoices (issuer_id, id);
ALTER TABLE api_hit_logs ADD COLUMN commission_cancelled DECIMAL(10, 4) NOT NULL DEFAULT 0;
CREATE TABLE invoice_holds (
    reseller_id INTEGER NOT NULL,
    month       CHAR(7) NOT NULL,
    created_at  DATETIME NOT NULL,
    PRIMARY KEY (reseller_id, month)
);

-- +goose Down
DROP TABLE IF EXISTS invoice_holds;
ALTER TABLE api_hit_logs DROP COLUMN commission_cancelled;
DROP INDEX IF EXISTS invoices_issuer_index;
DROP INDEX IF EXISTS invoices_issuer_number_unique;
CREATE UNIQUE INDEX invoices_number_unique ON invoices (number);
ALTER TABLE invoices DROP COLUMN issuer_key;
ALTER TABLE invoices DROP COLUMN issuer_id;
