-- The outcome of the hits written before 00010 (decisions: "The hit log's
-- outcome column"): every hit that is neither success nor pending. Safe to
-- run again.

-- +goose Up
UPDATE api_hit_logs SET outcome = status WHERE status IN ('failed', 'insufficient_balance');

-- +goose Down
SELECT 1;
