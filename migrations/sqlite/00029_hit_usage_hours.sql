-- The hourly usage roll-up (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE hit_usage_hours (
    user_id            INTEGER NOT NULL,
    api_service_id     INTEGER NOT NULL,
    hour               DATETIME NOT NULL,
    calls              INTEGER NOT NULL DEFAULT 0,
    success_calls      INTEGER NOT NULL DEFAULT 0,
    failed_calls       INTEGER NOT NULL DEFAULT 0,
    insufficient_calls INTEGER NOT NULL DEFAULT 0,
    revenue_units      INTEGER NOT NULL DEFAULT 0,
    cost_units         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (hour, user_id, api_service_id)
) WITHOUT ROWID;
CREATE INDEX hit_usage_hours_user_index ON hit_usage_hours (user_id, hour);

CREATE TABLE hit_usage_backfill (
    id        INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    zone      TEXT NOT NULL,
    hits      INTEGER NOT NULL,
    filled_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE hit_usage_backfill;
DROP TABLE hit_usage_hours;
