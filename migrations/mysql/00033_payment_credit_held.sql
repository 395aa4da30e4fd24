-- A successful collection its merchant's balance cannot hold (DECIMAL(12,2)
-- overflow) is held, not lost (docs/decisions.md, "A collection the balance
-- cannot hold is held, never silent"): the payment stays pending with the
-- time its credit was first held, never expires, and admins list it.

-- +goose Up
ALTER TABLE payments ADD COLUMN credit_held_at DATETIME(6) NULL,
    ADD KEY payments_credit_held_index (credit_held_at);

-- +goose Down
ALTER TABLE payments DROP INDEX payments_credit_held_index, DROP COLUMN credit_held_at;
