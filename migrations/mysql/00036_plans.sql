-- Plans that bill (docs/decisions.md, "Plans that bill"): the plan catalog
-- seeded from the specification's words, one subscription per user and one
-- row per charged period. A period row is the charge's idempotency key:
-- (user_id, period) is unique, and it is inserted in the transaction that
-- debits its fee. users.plan_monthly_calls carries the plan's allowance on
-- the row the metered call locks anyway (NULL = unlimited).
-- Subscriptions of existing users are opened by the Go migration 00040, in
-- TIMEZONE's current month (SQL cannot know the month there).

-- +goose Up
CREATE TABLE IF NOT EXISTS plans (
    id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    code          VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    name          VARCHAR(100) NOT NULL,
    monthly_price DECIMAL(12, 2) NULL,
    monthly_calls INT UNSIGNED NULL,
    features      JSON NOT NULL,
    public        TINYINT(1) NOT NULL DEFAULT 0,
    status        VARCHAR(10) NOT NULL DEFAULT 'active',
    created_at    DATETIME(6) NULL,
    updated_at    DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY plans_code_unique (code)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

INSERT IGNORE INTO plans (code, name, monthly_price, monthly_calls, features, public, status, created_at, updated_at) VALUES
    ('starter', 'Starter', 0.00, 100,
     '["Up to 100 transactions per month", "Basic API access", "Email support", "Dashboard access"]',
     1, 'active', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6)),
    ('enterprise', 'Enterprise', NULL, NULL,
     '["Unlimited transactions", "Dedicated account manager", "24/7 phone support", "Uptime agreement (SLA)", "On-premise deployment"]',
     0, 'active', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6));

CREATE TABLE IF NOT EXISTS subscriptions (
    id             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id        BIGINT UNSIGNED NOT NULL,
    plan_code      VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    price          DECIMAL(12, 2) NOT NULL,
    period         CHAR(7) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    period_start   DATETIME(6) NOT NULL,
    period_end     DATETIME(6) NOT NULL,
    status         VARCHAR(10) NOT NULL DEFAULT 'active',
    past_due_since DATETIME(6) NULL,
    next_plan_code VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NULL,
    next_price     DECIMAL(12, 2) NULL,
    created_at     DATETIME(6) NULL,
    updated_at     DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY subscriptions_user_unique (user_id),
    KEY subscriptions_period_index (period),
    KEY subscriptions_status_index (status, past_due_since)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS subscription_periods (
    id              BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    subscription_id BIGINT UNSIGNED NOT NULL,
    user_id         BIGINT UNSIGNED NOT NULL,
    period          CHAR(7) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    plan_code       VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    amount          DECIMAL(12, 2) NOT NULL,
    status          VARCHAR(10) NOT NULL,
    paid_at         DATETIME(6) NULL,
    created_at      DATETIME(6) NULL,
    updated_at      DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY subscription_periods_user_period_unique (user_id, period),
    KEY subscription_periods_status_index (status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

ALTER TABLE users ADD COLUMN plan_monthly_calls INT UNSIGNED NULL AFTER plan_calls;
UPDATE users SET plan_monthly_calls = (SELECT p.monthly_calls FROM plans p WHERE p.code = users.plan);

-- +goose Down
ALTER TABLE users DROP COLUMN plan_monthly_calls;
DROP TABLE IF EXISTS subscription_periods;
DROP TABLE IF EXISTS subscriptions;
DROP TABLE IF EXISTS plans;
