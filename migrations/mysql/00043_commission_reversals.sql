-- Commission hours are UTC hours, each hit is credited once, and a refund
-- of a billed charge takes its commission back (docs/decisions.md,
-- "Resellers").
--
-- api_hit_logs.commission_settlement_id: the settlement that credited the
-- hit's commission, set by it in its transaction; a settlement counts only
-- hits no settlement counted, so settlements keyed by a local hour start
-- (written before hours were UTC) and by a UTC hour never count one hit
-- twice. The backfill marks each settled hit with the first settlement
-- whose hour holds it. commission_settlements.reversed: the commission of
-- its hits refunded after it credited them; reversal_taken: what
-- settlement runs debited back of it (the rest is due, carried forward).

-- +goose Up
ALTER TABLE api_hit_logs ADD COLUMN commission_settlement_id BIGINT UNSIGNED NULL;

ALTER TABLE commission_settlements
    ADD COLUMN reversed       DECIMAL(12, 4) NOT NULL DEFAULT 0.0000,
    ADD COLUMN reversal_taken DECIMAL(12, 2) NOT NULL DEFAULT 0.00;

UPDATE api_hit_logs h SET h.commission_settlement_id = (
    SELECT MIN(s.id) FROM commission_settlements s
    WHERE s.reseller_id = h.reseller_id AND h.created_at >= s.hour_start AND h.created_at < s.hour_start + INTERVAL 1 HOUR)
WHERE h.reseller_id IS NOT NULL AND h.status = 'success' AND h.commission <> 0;

-- +goose Down
ALTER TABLE commission_settlements DROP COLUMN reversal_taken, DROP COLUMN reversed;
ALTER TABLE api_hit_logs DROP COLUMN commission_settlement_id;
