-- Reports: the same column, indexes and roll-up tables as
-- migrations/mysql/00004_reports.sql. cost_amount is TEXT like every money
-- column; the roll-up sums money in integer ten-thousandths (exact in SQLite's
-- 64-bit integer SUM).

-- +goose Up
ALTER TABLE api_hit_logs ADD COLUMN cost_amount TEXT NOT NULL DEFAULT '0.0000';
CREATE INDEX api_hit_logs_created_at_index ON api_hit_logs (created_at);
DROP INDEX api_hit_logs_user_created_index;
CREATE INDEX api_hit_logs_user_listing_index ON api_hit_logs (user_id, created_at, api_service_id, api_key_id, status);
DROP INDEX api_hit_logs_service_created_index;
CREATE INDEX api_hit_logs_service_listing_index ON api_hit_logs (api_service_id, created_at, status);
DROP INDEX api_hit_logs_api_key_id_index;
CREATE INDEX api_hit_logs_key_listing_index ON api_hit_logs (api_key_id, created_at, status);

CREATE TABLE hit_rollup_days (
    zone      VARCHAR(64) NOT NULL,
    day       CHAR(10) NOT NULL,
    closed_at DATETIME NOT NULL,
    PRIMARY KEY (zone, day)
);

CREATE TABLE hit_daily_rollups (
    zone               VARCHAR(64) NOT NULL,
    day                CHAR(10) NOT NULL,
    user_id            INTEGER NOT NULL,
    api_service_id     INTEGER NOT NULL,
    calls              INTEGER NOT NULL DEFAULT 0,
    success_calls      INTEGER NOT NULL DEFAULT 0,
    failed_calls       INTEGER NOT NULL DEFAULT 0,
    insufficient_calls INTEGER NOT NULL DEFAULT 0,
    revenue_units      INTEGER NOT NULL DEFAULT 0,
    cost_units         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (zone, day, user_id, api_service_id)
);
CREATE INDEX hit_daily_rollups_user_day_index ON hit_daily_rollups (zone, user_id, day);

-- +goose Down
DROP TABLE IF EXISTS hit_daily_rollups;
DROP TABLE IF EXISTS hit_rollup_days;
DROP INDEX IF EXISTS api_hit_logs_key_listing_index;
CREATE INDEX api_hit_logs_api_key_id_index ON api_hit_logs (api_key_id);
DROP INDEX IF EXISTS api_hit_logs_service_listing_index;
CREATE INDEX api_hit_logs_service_created_index ON api_hit_logs (api_service_id, created_at);
DROP INDEX IF EXISTS api_hit_logs_user_listing_index;
CREATE INDEX api_hit_logs_user_created_index ON api_hit_logs (user_id, created_at);
DROP INDEX IF EXISTS api_hit_logs_created_at_index;
ALTER TABLE api_hit_logs DROP COLUMN cost_amount;
