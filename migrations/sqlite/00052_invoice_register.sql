-- The GSTR-1 register's read (see the MySQL migration of the same number).

-- +goose Up
CREATE INDEX invoices_issuer_issued_index ON invoices (issuer_key, issued_at, id);

-- +goose Down
DROP INDEX IF EXISTS invoices_issuer_issued_index;
