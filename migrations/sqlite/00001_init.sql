-- Initial schema for SQLite, the embedded default; the same tables, keys and
-- cascades as migrations/mysql/00001_init.sql.
-- Money columns are TEXT on purpose: SQLite's DECIMAL affinity would store
-- REAL and lose exactness, while the application writes and reads exact
-- decimal strings ("12.30", "0.5000"). Enums are CHECK constraints. Foreign
-- keys are enforced because every connection sets PRAGMA foreign_keys=ON.

-- +goose Up
CREATE TABLE users (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    name              VARCHAR(255) NOT NULL,
    email             VARCHAR(255) NOT NULL COLLATE NOCASE,
    phone             VARCHAR(20) NOT NULL,
    password          VARCHAR(255) NOT NULL,
    role              VARCHAR(10) NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'reseller', 'user')),
    status            VARCHAR(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('active', 'blocked', 'pending')),
    plan              VARCHAR(10) NOT NULL DEFAULT 'starter' CHECK (plan IN ('starter', 'enterprise')),
    plan_month        CHAR(7) NULL,
    plan_calls        INTEGER NOT NULL DEFAULT 0,
    balance           TEXT NOT NULL DEFAULT '0.00' CHECK (CAST(balance AS REAL) >= 0),
    total_spent       TEXT NOT NULL DEFAULT '0.00',
    low_balance_alert TEXT NULL,
    api_key           VARCHAR(64) NULL,
    api_secret        VARCHAR(128) NULL,
    webhook_url       VARCHAR(255) NULL,
    ip_address        VARCHAR(45) NULL,
    email_verified_at DATETIME NULL,
    remember_token    VARCHAR(100) NULL,
    created_at        DATETIME NULL,
    updated_at        DATETIME NULL,
    deleted_at        DATETIME NULL
);
CREATE UNIQUE INDEX users_email_unique ON users (email);
CREATE UNIQUE INDEX users_phone_unique ON users (phone);
CREATE UNIQUE INDEX users_api_key_unique ON users (api_key);
CREATE INDEX users_role_status_index ON users (role, status);

CREATE TABLE password_reset_tokens (
    email      VARCHAR(255) NOT NULL PRIMARY KEY COLLATE NOCASE,
    token      VARCHAR(255) NOT NULL,
    created_at DATETIME NULL
);

-- Panel refresh tokens: token holds the hex SHA-256 of the token value.
CREATE TABLE personal_access_tokens (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    tokenable_type VARCHAR(255) NOT NULL,
    tokenable_id   INTEGER NOT NULL,
    name           VARCHAR(255) NOT NULL,
    token          VARCHAR(64) NOT NULL,
    abilities      TEXT NULL,
    last_used_at   DATETIME NULL,
    expires_at     DATETIME NULL,
    created_at     DATETIME NULL,
    updated_at     DATETIME NULL
);
CREATE UNIQUE INDEX personal_access_tokens_token_unique ON personal_access_tokens (token);
CREATE INDEX personal_access_tokens_tokenable_index ON personal_access_tokens (tokenable_type, tokenable_id);

CREATE TABLE api_services (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         VARCHAR(255) NOT NULL,
    slug         VARCHAR(255) NOT NULL COLLATE NOCASE,
    description  TEXT NULL,
    category     VARCHAR(100) NOT NULL,
    provider_url VARCHAR(500) NOT NULL,
    provider_key VARCHAR(500) NULL,
    method       VARCHAR(6) NOT NULL DEFAULT 'POST' CHECK (method IN ('GET', 'POST', 'PUT', 'DELETE')),
    headers      TEXT NULL CHECK (headers IS NULL OR json_valid(headers)),
    parameters   TEXT NULL CHECK (parameters IS NULL OR json_valid(parameters)),
    status       VARCHAR(8) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
    builtin      BOOLEAN NOT NULL DEFAULT 0 CHECK (builtin IN (0, 1)),
    created_at   DATETIME NULL,
    updated_at   DATETIME NULL
);
CREATE UNIQUE INDEX api_services_slug_unique ON api_services (slug);
CREATE INDEX api_services_status_index ON api_services (status);

-- The unique expression index makes (service, default row) unique: a unique
-- key on a nullable user_id alone would let any number of NULL rows in.
CREATE TABLE api_pricing (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    api_service_id     INTEGER NOT NULL REFERENCES api_services (id) ON DELETE CASCADE,
    user_id            INTEGER NULL REFERENCES users (id), -- restrict, as on MySQL
    admin_cost         TEXT NOT NULL DEFAULT '0.0000',
    user_price         TEXT NOT NULL DEFAULT '0.0000',
    reseller_price     TEXT NOT NULL DEFAULT '0.0000',
    minimum_hit_charge TEXT NOT NULL DEFAULT '0.00',
    status             VARCHAR(8) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
    created_at         DATETIME NULL,
    updated_at         DATETIME NULL
);
CREATE UNIQUE INDEX api_pricing_service_user_unique ON api_pricing (api_service_id, COALESCE(user_id, 0));
CREATE INDEX api_pricing_user_id_index ON api_pricing (user_id);

-- secret holds the hex SHA-256 of the key's secret; hits_today counts calls
-- of the local day in hits_date.
CREATE TABLE api_keys (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    "key"            VARCHAR(64) NOT NULL,
    secret           VARCHAR(128) NOT NULL,
    name             VARCHAR(255) NOT NULL,
    allowed_services TEXT NULL CHECK (allowed_services IS NULL OR json_valid(allowed_services)),
    allowed_ips      VARCHAR(500) NULL,
    daily_limit      INTEGER NOT NULL DEFAULT 1000,
    hits_today       INTEGER NOT NULL DEFAULT 0,
    hits_date        CHAR(10) NULL,
    last_used_at     DATETIME NULL,
    status           VARCHAR(7) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
    created_at       DATETIME NULL,
    updated_at       DATETIME NULL
);
CREATE UNIQUE INDEX api_keys_key_unique ON api_keys ("key");
CREATE INDEX api_keys_user_id_index ON api_keys (user_id);

-- No foreign keys: hit logs are history and outlive services and keys.
-- status pending = charge reserved, upstream answer not settled yet.
CREATE TABLE api_hit_logs (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          INTEGER NOT NULL,
    api_service_id   INTEGER NOT NULL,
    api_key_id       INTEGER NOT NULL,
    request_id       VARCHAR(100) NOT NULL,
    request_payload  TEXT NOT NULL,
    response_payload TEXT NULL,
    charge_amount    TEXT NOT NULL DEFAULT '0.0000',
    reserved_amount  TEXT NOT NULL DEFAULT '0.0000',
    ip_address       VARCHAR(45) NOT NULL,
    status           VARCHAR(20) NOT NULL DEFAULT 'success'
        CHECK (status IN ('success', 'failed', 'insufficient_balance', 'pending')),
    response_time_ms INTEGER NOT NULL DEFAULT 0,
    created_at       DATETIME NULL,
    updated_at       DATETIME NULL
);
CREATE UNIQUE INDEX api_hit_logs_request_id_unique ON api_hit_logs (request_id);
CREATE INDEX api_hit_logs_user_created_index ON api_hit_logs (user_id, created_at);
CREATE INDEX api_hit_logs_service_created_index ON api_hit_logs (api_service_id, created_at);
CREATE INDEX api_hit_logs_status_created_index ON api_hit_logs (status, created_at);
CREATE INDEX api_hit_logs_api_key_id_index ON api_hit_logs (api_key_id);

-- A decided request is money history: deleting its user is refused.
CREATE TABLE balance_requests (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL REFERENCES users (id),
    amount         TEXT NOT NULL,
    utr_number     VARCHAR(50) NOT NULL COLLATE NOCASE,
    payment_method VARCHAR(20) NOT NULL DEFAULT 'upi',
    screenshot     VARCHAR(255) NULL,
    remarks        TEXT NULL,
    status         VARCHAR(8) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    approved_by    INTEGER NULL REFERENCES users (id) ON DELETE SET NULL,
    approved_at    DATETIME NULL,
    admin_remarks  TEXT NULL,
    created_at     DATETIME NULL,
    updated_at     DATETIME NULL
);
CREATE UNIQUE INDEX balance_requests_utr_number_unique ON balance_requests (utr_number);
CREATE INDEX balance_requests_user_id_index ON balance_requests (user_id, id);
CREATE INDEX balance_requests_status_created_index ON balance_requests (status, created_at);

-- The ledger. No foreign key to users: a ledger row is never deleted.
CREATE TABLE transactions (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL,
    txn_id         VARCHAR(100) NOT NULL,
    type           VARCHAR(6) NOT NULL CHECK (type IN ('credit', 'debit', 'refund')),
    amount         TEXT NOT NULL,
    balance_before TEXT NOT NULL,
    balance_after  TEXT NOT NULL,
    reference_type VARCHAR(50) NOT NULL,
    reference_id   INTEGER NULL,
    description    TEXT NOT NULL,
    status         VARCHAR(9) NOT NULL DEFAULT 'completed' CHECK (status IN ('completed', 'pending', 'failed')),
    created_at     DATETIME NULL,
    updated_at     DATETIME NULL
);
CREATE UNIQUE INDEX transactions_txn_id_unique ON transactions (txn_id);
CREATE INDEX transactions_user_id_index ON transactions (user_id, id);
CREATE INDEX transactions_reference_index ON transactions (reference_type, reference_id);
CREATE INDEX transactions_created_at_index ON transactions (created_at);

-- One documentation record per service; PutDoc replaces it.
CREATE TABLE api_documentations (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    api_service_id   INTEGER NOT NULL REFERENCES api_services (id) ON DELETE CASCADE,
    endpoint         VARCHAR(255) NOT NULL,
    method           VARCHAR(6) NOT NULL CHECK (method IN ('GET', 'POST', 'PUT', 'DELETE')),
    description      TEXT NOT NULL,
    request_params   TEXT NOT NULL CHECK (json_valid(request_params)),
    response_example TEXT NOT NULL CHECK (json_valid(response_example)),
    error_codes      TEXT NOT NULL CHECK (json_valid(error_codes)),
    sort_order       INTEGER NOT NULL DEFAULT 0,
    created_at       DATETIME NULL,
    updated_at       DATETIME NULL
);
CREATE UNIQUE INDEX api_documentations_api_service_id_unique ON api_documentations (api_service_id);

-- Values generated once and shared by every instance (the JWT key).
CREATE TABLE settings (
    name  VARCHAR(100) NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);

-- +goose Down
DROP TABLE IF EXISTS settings;
DROP TABLE IF EXISTS api_documentations;
DROP TABLE IF EXISTS transactions;
DROP TABLE IF EXISTS balance_requests;
DROP TABLE IF EXISTS api_hit_logs;
DROP TABLE IF EXISTS api_keys;
DROP TABLE IF EXISTS api_pricing;
DROP TABLE IF EXISTS api_services;
DROP TABLE IF EXISTS personal_access_tokens;
DROP TABLE IF EXISTS password_reset_tokens;
DROP TABLE IF EXISTS users;
