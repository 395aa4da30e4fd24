-- Commission hours are UTC hours, each hit is credited once, and a refund
-- of a billed charge takes its commission back (see the MySQL migration
-- of the same number).

-- +goose Up
ALTER TABLE api_hit_logs ADD COLUMN commission_settlement_id INTEGER NULL;

ALTER TABLE commission_settlements ADD COLUMN reversed DECIMAL(12, 4) NOT NULL DEFAULT 0;
ALTER TABLE commission_settlements ADD COLUMN reversal_taken DECIMAL(12, 2) NOT NULL DEFAULT 0;

UPDATE api_hit_logs SET commission_settlement_id = (
    SELECT MIN(s.id) FROM commission_settlements s
    WHERE s.reseller_id = api_hit_logs.reseller_id
      AND julianday(api_hit_logs.created_at) >= julianday(s.hour_start)
      AND julianday(api_hit_logs.created_at) < julianday(s.hour_start, '+1 hour'))
WHERE reseller_id IS NOT NULL AND status = 'success' AND commission <> 0;

-- +goose Down
ALTER TABLE commission_settlements DROP COLUMN reversal_taken;
ALTER TABLE commission_settlements DROP COLUMN reversed;
ALTER TABLE api_hit_logs DROP COLUMN commission_settlement_id;
