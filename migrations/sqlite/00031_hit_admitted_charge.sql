-- The charge each metered call was admitted for (see the MySQL migration
-- of the same number).

-- +goose Up
ALTER TABLE api_hit_logs ADD COLUMN admitted_amount TEXT NULL;
ALTER TABLE api_hit_logs ADD COLUMN uncharged TEXT NULL;

-- +goose Down
ALTER TABLE api_hit_logs DROP COLUMN uncharged;
ALTER TABLE api_hit_logs DROP COLUMN admitted_amount;
