-- Collections credit the merchant (docs/decisions.md, "Collections credit the merchant in the transaction that ends the payment"): each user's
-- collection fee (a percentage of every successful payment, debited with
-- its credit), the fee a successful payment paid, and what a payment is
-- for: a merchant's collection, or the payer adding to their own balance
-- (POST /api/v1/panel/balance/checkout, no fee).
-- Accounts that existed before keep 0.00: no fee was ever agreed with them;
-- new accounts take COLLECTION_FEE_PERCENT when they are created.

-- +goose Up
ALTER TABLE users
    ADD COLUMN collection_fee_percent DECIMAL(5, 2) NOT NULL DEFAULT 0.00,
    ADD CONSTRAINT users_collection_fee_percent_range CHECK (collection_fee_percent >= 0 AND collection_fee_percent <= 100);
ALTER TABLE payments
    ADD COLUMN purpose ENUM('collection', 'balance') NOT NULL DEFAULT 'collection',
    ADD COLUMN fee DECIMAL(12, 2) NOT NULL DEFAULT 0.00;

-- +goose Down
ALTER TABLE payments DROP COLUMN fee, DROP COLUMN purpose;
ALTER TABLE users DROP CONSTRAINT users_collection_fee_percent_range, DROP COLUMN collection_fee_percent;
