-- The hourly usage roll-up behind the dashboard (decisions: "Usage
-- roll-ups").
--
-- hit_usage_hours holds, per user, service and local hour (hour: the UTC
-- instant the hour starts in TIMEZONE), the counts and sums of the hits
-- that became final in that hour's bucket: the statements that insert a
-- final hit or settle a pending one add to it in the same transaction, so
-- it equals the hit log at every commit. Pending hits are not in it (they
-- are few and read live). Money in integer ten-thousandths, as in
-- hit_daily_rollups. The primary key leads with the hour, so the admin's
-- dashboard and a day's closing read a range of it in order; user_index
-- serves a user's dashboard.
--
-- hit_usage_backfill records that the hits written before this roll-up
-- existed were counted into it (once, by the first instance to start:
-- its row is inserted in the transaction that counts them).

-- +goose Up
CREATE TABLE IF NOT EXISTS hit_usage_hours (
    user_id            BIGINT UNSIGNED NOT NULL,
    api_service_id     BIGINT UNSIGNED NOT NULL,
    hour               DATETIME NOT NULL,
    calls              BIGINT NOT NULL DEFAULT 0,
    success_calls      BIGINT NOT NULL DEFAULT 0,
    failed_calls       BIGINT NOT NULL DEFAULT 0,
    insufficient_calls BIGINT NOT NULL DEFAULT 0,
    revenue_units      BIGINT NOT NULL DEFAULT 0,
    cost_units         BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (hour, user_id, api_service_id),
    KEY hit_usage_hours_user_index (user_id, hour)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE IF NOT EXISTS hit_usage_backfill (
    id        TINYINT UNSIGNED NOT NULL PRIMARY KEY,
    zone      VARCHAR(64) NOT NULL,
    hits      BIGINT NOT NULL,
    filled_at DATETIME(6) NOT NULL,
    CONSTRAINT hit_usage_backfill_one CHECK (id = 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- +goose Down
DROP TABLE IF EXISTS hit_usage_backfill;
DROP TABLE IF EXISTS hit_usage_hours;
