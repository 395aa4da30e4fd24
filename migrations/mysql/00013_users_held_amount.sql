-- The money of a user's open holds (00012): the balance less it is what a
-- debit may take. The constraint keeps the held money within the balance
-- whatever the application does.

-- +goose Up
ALTER TABLE users
    ADD COLUMN held_amount DECIMAL(12, 2) NOT NULL DEFAULT 0.00 AFTER total_spent,
    ADD CONSTRAINT users_held_within_balance CHECK (held_amount >= 0 AND held_amount <= balance);

-- +goose Down
ALTER TABLE users DROP CONSTRAINT users_held_within_balance, DROP COLUMN held_amount;
