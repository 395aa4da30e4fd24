-- Plans that bill: the plan catalog, subscriptions and charged periods
-- (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE plans (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    code          VARCHAR(50) NOT NULL,
    name          VARCHAR(100) NOT NULL,
    monthly_price TEXT NULL,
    monthly_calls INTEGER NULL,
    features      TEXT NOT NULL CHECK (json_valid(features)),
    public        INTEGER NOT NULL DEFAULT 0,
    status        VARCHAR(10) NOT NULL DEFAULT 'active',
    created_at    DATETIME NULL,
    updated_at    DATETIME NULL
);
CREATE UNIQUE INDEX plans_code_unique ON plans (code);

INSERT OR IGNORE INTO plans (code, name, monthly_price, monthly_calls, features, public, status, created_at, updated_at) VALUES
    ('starter', 'Starter', '0.00', 100,
     '["Up to 100 transactions per month", "Basic API access", "Email support", "Dashboard access"]',
     1, 'active', NULL, NULL),
    ('enterprise', 'Enterprise', NULL, NULL,
     '["Unlimited transactions", "Dedicated account manager", "24/7 phone support", "Uptime agreement (SLA)", "On-premise deployment"]',
     0, 'active', NULL, NULL);

CREATE TABLE subscriptions (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL,
    plan_code      VARCHAR(50) NOT NULL,
    price          TEXT NOT NULL,
    period         CHAR(7) NOT NULL,
    period_start   DATETIME NOT NULL,
    period_end     DATETIME NOT NULL,
    status         VARCHAR(10) NOT NULL DEFAULT 'active',
    past_due_since DATETIME NULL,
    next_plan_code VARCHAR(50) NULL,
    next_price     TEXT NULL,
    created_at     DATETIME NULL,
    updated_at     DATETIME NULL
);
CREATE UNIQUE INDEX subscriptions_user_unique ON subscriptions (user_id);
CREATE INDEX subscriptions_period_index ON subscriptions (period);
CREATE INDEX subscriptions_status_index ON subscriptions (status, past_due_since);

CREATE TABLE subscription_periods (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    subscription_id INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    period          CHAR(7) NOT NULL,
    plan_code       VARCHAR(50) NOT NULL,
    amount          TEXT NOT NULL,
    status          VARCHAR(10) NOT NULL,
    paid_at         DATETIME NULL,
    created_at      DATETIME NULL,
    updated_at      DATETIME NULL
);
CREATE UNIQUE INDEX subscription_periods_user_period_unique ON subscription_periods (user_id, period);
CREATE INDEX subscription_periods_status_index ON subscription_periods (status);

ALTER TABLE users ADD COLUMN plan_monthly_calls INTEGER NULL;
UPDATE users SET plan_monthly_calls = (SELECT p.monthly_calls FROM plans p WHERE p.code = users.plan);

-- +goose Down
ALTER TABLE users DROP COLUMN plan_monthly_calls;
DROP TABLE IF EXISTS subscription_periods;
DROP TABLE IF EXISTS subscriptions;
DROP TABLE IF EXISTS plans;
