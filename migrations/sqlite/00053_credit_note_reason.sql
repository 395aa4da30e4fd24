-- A credit note says why it was issued (see the MySQL migration of the same
-- number).

-- +goose Up
ALTER TABLE invoices ADD COLUMN reason VARCHAR(255) NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE invoices DROP COLUMN reason;
