-- Recharge worker schedule (decisions: "Recharge worker"): when the
-- provider first answered Submit, when the worker looks next and how often
-- it has, and when a long-pending recharge was flagged for a person.
-- Existing pending rows are taken as submitted and due at once.

-- +goose Up
ALTER TABLE recharges ADD COLUMN submitted_at DATETIME NULL;
ALTER TABLE recharges ADD COLUMN next_check_at DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00';
ALTER TABLE recharges ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE recharges ADD COLUMN reconcile_at DATETIME NULL;
UPDATE recharges SET submitted_at = created_at, next_check_at = COALESCE(created_at, next_check_at);
CREATE INDEX recharges_status_next_check_index ON recharges (status, next_check_at);
CREATE INDEX recharges_reconcile_index ON recharges (reconcile_at);

-- +goose Down
DROP INDEX recharges_reconcile_index;
DROP INDEX recharges_status_next_check_index;
ALTER TABLE recharges DROP COLUMN reconcile_at;
ALTER TABLE recharges DROP COLUMN attempts;
ALTER TABLE recharges DROP COLUMN next_check_at;
ALTER TABLE recharges DROP COLUMN submitted_at;
