-- Reports: the upstream cost of each hit, the index that pages hit logs
-- newest first, and the daily roll-up behind the dashboard.
--
-- cost_amount is the pricing row's admin_cost at the time of a successful
-- call (0.0000 for failed, rejected and pending calls, and for hits written
-- before this migration). ADD COLUMN is instant on MariaDB 10.3+ / MySQL 8.
--
-- hit_rollup_days marks a local day (in the zone TIMEZONE named when it was
-- closed) as rolled up; hit_daily_rollups holds, per closed day, user and
-- service, the counts and sums of that day's hits. A day is closed lazily,
-- by the first dashboard read after it ended (plus a grace period) with no
-- hit left pending; its hits never change afterwards. Money is summed in
-- integer ten-thousandths (revenue_units = SUM(charge_amount) * 10000), so
-- SUM() over the roll-up is exact integer arithmetic on both databases.

-- +goose Up
CREATE TABLE IF NOT EXISTS hit_rollup_days (
    zone      VARCHAR(64) NOT NULL,
    day       CHAR(10) NOT NULL,
    closed_at DATETIME(6) NOT NULL,
    PRIMARY KEY (zone, day)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE IF NOT EXISTS hit_daily_rollups (
    zone               VARCHAR(64) NOT NULL,
    day                CHAR(10) NOT NULL,
    user_id            BIGINT UNSIGNED NOT NULL,
    api_service_id     BIGINT UNSIGNED NOT NULL,
    calls              BIGINT NOT NULL DEFAULT 0,
    success_calls      BIGINT NOT NULL DEFAULT 0,
    failed_calls       BIGINT NOT NULL DEFAULT 0,
    insufficient_calls BIGINT NOT NULL DEFAULT 0,
    revenue_units      BIGINT NOT NULL DEFAULT 0,
    cost_units         BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (zone, day, user_id, api_service_id),
    KEY hit_daily_rollups_user_day_index (zone, user_id, day)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The hit log's list indexes: newest first (created_at) for every filter,
-- and every other filter column inside the index, so a capped count or a
-- deep page of one user's, service's or key's calls is read from the index
-- alone, never row by row. They replace the 00001 indexes they extend.
-- One statement, last: MySQL commits DDL statement by statement, and a run
-- stopped before it is finished by the next start (the tables above are
-- IF NOT EXISTS); ADD COLUMN has no IF NOT EXISTS on MySQL 8.
ALTER TABLE api_hit_logs
    ADD COLUMN cost_amount DECIMAL(10, 4) NOT NULL DEFAULT 0.0000 AFTER charge_amount,
    ADD KEY api_hit_logs_created_at_index (created_at),
    DROP KEY api_hit_logs_user_created_index,
    ADD KEY api_hit_logs_user_listing_index (user_id, created_at, api_service_id, api_key_id, status),
    DROP KEY api_hit_logs_service_created_index,
    ADD KEY api_hit_logs_service_listing_index (api_service_id, created_at, status),
    DROP KEY api_hit_logs_api_key_id_index,
    ADD KEY api_hit_logs_key_listing_index (api_key_id, created_at, status);

-- +goose Down
DROP TABLE IF EXISTS hit_daily_rollups;
DROP TABLE IF EXISTS hit_rollup_days;
ALTER TABLE api_hit_logs
    DROP KEY api_hit_logs_key_listing_index,
    ADD KEY api_hit_logs_api_key_id_index (api_key_id),
    DROP KEY api_hit_logs_service_listing_index,
    ADD KEY api_hit_logs_service_created_index (api_service_id, created_at),
    DROP KEY api_hit_logs_user_listing_index,
    ADD KEY api_hit_logs_user_created_index (user_id, created_at),
    DROP KEY api_hit_logs_created_at_index,
    DROP COLUMN cost_amount;
