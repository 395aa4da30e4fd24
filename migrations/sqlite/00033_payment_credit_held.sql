-- A collection its merchant's balance cannot hold is held, not lost (see
-- the MySQL migration of the same number).

-- +goose Up
ALTER TABLE payments ADD COLUMN credit_held_at DATETIME NULL;
CREATE INDEX payments_credit_held_index ON payments (credit_held_at);

-- +goose Down
DROP INDEX payments_credit_held_index;
ALTER TABLE payments DROP COLUMN credit_held_at;
