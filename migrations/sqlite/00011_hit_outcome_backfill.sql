-- The outcome of the hits written before 00010 (see the MySQL migration of
-- the same number).

-- +goose Up
UPDATE api_hit_logs SET outcome = status WHERE status IN ('failed', 'insufficient_balance');

-- +goose Down
SELECT 1;
