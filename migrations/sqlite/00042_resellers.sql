-- Resellers with customers of their own (see the MySQL migration of the
-- same number).

-- +goose Up
ALTER TABLE users ADD COLUMN parent_id INTEGER NULL REFERENCES users (id);
CREATE INDEX users_parent ON users (parent_id, id);

CREATE TABLE customer_prices (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    reseller_id INTEGER NOT NULL REFERENCES users (id),
    service_id  INTEGER NOT NULL REFERENCES api_services (id) ON DELETE CASCADE,
    price       DECIMAL(10, 4) NOT NULL,
    created_at  DATETIME NOT NULL,
    updated_at  DATETIME NOT NULL
);
CREATE UNIQUE INDEX customer_prices_reseller_service ON customer_prices (reseller_id, service_id);
CREATE INDEX customer_prices_service ON customer_prices (service_id);

CREATE TABLE reseller_settings (
    reseller_id    INTEGER PRIMARY KEY REFERENCES users (id),
    default_markup DECIMAL(6, 2) NULL,
    brand_name     VARCHAR(100) NOT NULL DEFAULT '',
    logo_path      VARCHAR(255) NOT NULL DEFAULT '',
    logo_type      VARCHAR(32) NOT NULL DEFAULT '',
    support_email  VARCHAR(255) NOT NULL DEFAULT '',
    support_phone  VARCHAR(20) NOT NULL DEFAULT '',
    updated_at     DATETIME NOT NULL
);

CREATE TABLE reseller_domains (
    host        VARCHAR(253) NOT NULL PRIMARY KEY COLLATE NOCASE,
    reseller_id INTEGER NOT NULL REFERENCES users (id),
    created_at  DATETIME NOT NULL
);
CREATE INDEX reseller_domains_reseller ON reseller_domains (reseller_id);

ALTER TABLE api_hit_logs ADD COLUMN reseller_id INTEGER NULL;
ALTER TABLE api_hit_logs ADD COLUMN commission DECIMAL(10, 4) NOT NULL DEFAULT 0;
CREATE INDEX api_hit_logs_reseller_created ON api_hit_logs (reseller_id, created_at);

CREATE TABLE commission_settlements (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    reseller_id    INTEGER NOT NULL REFERENCES users (id),
    hour_start     DATETIME NOT NULL,
    hits           INTEGER NOT NULL,
    amount         DECIMAL(12, 2) NOT NULL,
    transaction_id INTEGER NULL,
    created_at     DATETIME NOT NULL
);
CREATE UNIQUE INDEX commission_settlements_reseller_hour ON commission_settlements (reseller_id, hour_start);

CREATE TABLE transfers (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    reseller_id        INTEGER NOT NULL REFERENCES users (id),
    customer_id        INTEGER NOT NULL REFERENCES users (id),
    direction          VARCHAR(16) NOT NULL,
    amount             DECIMAL(12, 2) NOT NULL CHECK (amount > 0),
    idempotency_key    VARCHAR(255) NULL,
    request_hash       CHAR(64) NOT NULL DEFAULT '',
    balance_request_id INTEGER NULL,
    created_at         DATETIME NOT NULL
);
CREATE UNIQUE INDEX transfers_idempotency ON transfers (reseller_id, idempotency_key);
CREATE INDEX transfers_customer ON transfers (customer_id, id);

-- +goose Down
DROP TABLE IF EXISTS transfers;
DROP TABLE IF EXISTS commission_settlements;
DROP INDEX IF EXISTS api_hit_logs_reseller_created;
ALTER TABLE api_hit_logs DROP COLUMN commission;
ALTER TABLE api_hit_logs DROP COLUMN reseller_id;
DROP TABLE IF EXISTS reseller_domains;
DROP TABLE IF EXISTS reseller_settings;
DROP TABLE IF EXISTS customer_prices;
DROP INDEX IF EXISTS users_parent;
ALTER TABLE users DROP COLUMN parent_id;
