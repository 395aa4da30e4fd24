-- Recharge worker schedule (decisions: "Recharge worker"): when the
-- provider first answered Submit, when the worker looks next and how often
-- it has, and when a long-pending recharge was flagged for a person.
-- Existing pending rows are taken as submitted (the old code only knew
-- submitted ones) and due at once.

-- +goose Up
ALTER TABLE recharges
    ADD COLUMN submitted_at  DATETIME(6) NULL,
    ADD COLUMN next_check_at DATETIME(6) NULL,
    ADD COLUMN attempts      INT UNSIGNED NOT NULL DEFAULT 0,
    ADD COLUMN reconcile_at  DATETIME(6) NULL;
UPDATE recharges SET submitted_at = created_at, next_check_at = created_at;
ALTER TABLE recharges MODIFY next_check_at DATETIME(6) NOT NULL;
CREATE INDEX recharges_status_next_check_index ON recharges (status, next_check_at);
CREATE INDEX recharges_reconcile_index ON recharges (reconcile_at);

-- +goose Down
DROP INDEX recharges_reconcile_index ON recharges;
DROP INDEX recharges_status_next_check_index ON recharges;
ALTER TABLE recharges DROP COLUMN reconcile_at, DROP COLUMN attempts, DROP COLUMN next_check_at, DROP COLUMN submitted_at;
