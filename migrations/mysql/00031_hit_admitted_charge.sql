-- The charge each metered call was admitted for (decisions: "Every
-- answered call is charged").
--
-- admitted_amount is the price the call was admitted at (its hold's or its
-- reservation's charge); the ledger check reports a successful hit whose
-- charge_amount differs from it, unless uncharged names the reason it was
-- not charged (the only one today: hold_released, a hold that crash
-- recovery released before its call was captured, on a balance that could
-- not pay). NULL on hits written before this migration: those are not
-- compared. Both columns are instant on MariaDB (ADD COLUMN, NULL).

-- +goose Up
ALTER TABLE api_hit_logs
    ADD COLUMN admitted_amount DECIMAL(10, 4) NULL,
    ADD COLUMN uncharged VARCHAR(32) NULL;

-- +goose Down
ALTER TABLE api_hit_logs
    DROP COLUMN uncharged,
    DROP COLUMN admitted_amount;
