-- Initial schema for MySQL / MariaDB: the seed's resources (part 2) plus the
-- columns the core needs (plans, reservations, key day counters).
-- Money is DECIMAL with the seed's precision; the application never does
-- arithmetic on it in SQL. Secrets, keys and ids compared byte for byte use
-- the binary collation so 'ABC' and 'abc' are different keys.
-- MySQL commits each CREATE TABLE on its own, so a run that stopped half-way
-- cannot be rolled back; IF NOT EXISTS lets the next start finish it.

-- +goose Up
CREATE TABLE IF NOT EXISTS users (
    id                BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    name              VARCHAR(255) NOT NULL,
    email             VARCHAR(255) NOT NULL,
    phone             VARCHAR(20) NOT NULL,
    password          VARCHAR(255) NOT NULL,
    role              ENUM('admin', 'reseller', 'user') NOT NULL DEFAULT 'user',
    status            ENUM('active', 'blocked', 'pending') NOT NULL DEFAULT 'pending',
    plan              ENUM('starter', 'enterprise') NOT NULL DEFAULT 'starter',
    plan_month        CHAR(7) NULL,
    plan_calls        INT NOT NULL DEFAULT 0,
    balance           DECIMAL(12, 2) NOT NULL DEFAULT 0.00,
    total_spent       DECIMAL(12, 2) NOT NULL DEFAULT 0.00,
    low_balance_alert DECIMAL(12, 2) NULL,
    api_key           VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    api_secret        VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    webhook_url       VARCHAR(255) NULL,
    ip_address        VARCHAR(45) NULL,
    email_verified_at DATETIME(6) NULL,
    remember_token    VARCHAR(100) NULL,
    created_at        DATETIME(6) NULL,
    updated_at        DATETIME(6) NULL,
    deleted_at        DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY users_email_unique (email),
    UNIQUE KEY users_phone_unique (phone),
    UNIQUE KEY users_api_key_unique (api_key),
    KEY users_role_status_index (role, status),
    CONSTRAINT users_balance_non_negative CHECK (balance >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS password_reset_tokens (
    email      VARCHAR(255) NOT NULL,
    token      VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    created_at DATETIME(6) NULL,
    PRIMARY KEY (email)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Panel refresh tokens: token holds the hex SHA-256 of the token value.
CREATE TABLE IF NOT EXISTS personal_access_tokens (
    id             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    tokenable_type VARCHAR(255) NOT NULL,
    tokenable_id   BIGINT UNSIGNED NOT NULL,
    name           VARCHAR(255) NOT NULL,
    token          VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    abilities      TEXT NULL,
    last_used_at   DATETIME(6) NULL,
    expires_at     DATETIME(6) NULL,
    created_at     DATETIME(6) NULL,
    updated_at     DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY personal_access_tokens_token_unique (token),
    KEY personal_access_tokens_tokenable_index (tokenable_type, tokenable_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS api_services (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    name         VARCHAR(255) NOT NULL,
    slug         VARCHAR(255) NOT NULL,
    description  TEXT NULL,
    category     VARCHAR(100) NOT NULL,
    provider_url VARCHAR(500) NOT NULL,
    provider_key VARCHAR(500) NULL,
    method       ENUM('GET', 'POST', 'PUT', 'DELETE') NOT NULL DEFAULT 'POST',
    headers      JSON NULL,
    parameters   JSON NULL,
    status       ENUM('active', 'inactive') NOT NULL DEFAULT 'active',
    builtin      BOOLEAN NOT NULL DEFAULT FALSE,
    created_at   DATETIME(6) NULL,
    updated_at   DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY api_services_slug_unique (slug),
    KEY api_services_status_index (status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- user_scope makes (service, default row) unique: a unique key on a
-- nullable user_id alone would let any number of NULL (default) rows in.
CREATE TABLE IF NOT EXISTS api_pricing (
    id                 BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    api_service_id     BIGINT UNSIGNED NOT NULL,
    user_id            BIGINT UNSIGNED NULL,
    admin_cost         DECIMAL(10, 4) NOT NULL DEFAULT 0.0000,
    user_price         DECIMAL(10, 4) NOT NULL DEFAULT 0.0000,
    reseller_price     DECIMAL(10, 4) NOT NULL DEFAULT 0.0000,
    minimum_hit_charge DECIMAL(10, 2) NOT NULL DEFAULT 0.00,
    status             ENUM('active', 'inactive') NOT NULL DEFAULT 'active',
    user_scope         BIGINT UNSIGNED AS (COALESCE(user_id, 0)) STORED,
    created_at         DATETIME(6) NULL,
    updated_at         DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY api_pricing_service_user_unique (api_service_id, user_scope),
    KEY api_pricing_user_id_index (user_id),
    CONSTRAINT api_pricing_api_service_id_foreign FOREIGN KEY (api_service_id)
        REFERENCES api_services (id) ON DELETE CASCADE,
    -- No cascade on user_id: MySQL 8 refuses CASCADE/SET NULL on the base
    -- column of a stored generated column (user_scope). Users are only ever
    -- soft-deleted, so the restriction never bites.
    CONSTRAINT api_pricing_user_id_foreign FOREIGN KEY (user_id)
        REFERENCES users (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- secret holds the hex SHA-256 of the key's secret; hits_today counts calls
-- of the local day in hits_date.
CREATE TABLE IF NOT EXISTS api_keys (
    id               BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id          BIGINT UNSIGNED NOT NULL,
    `key`            VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    secret           VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    name             VARCHAR(255) NOT NULL,
    allowed_services JSON NULL,
    allowed_ips      VARCHAR(500) NULL,
    daily_limit      INT NOT NULL DEFAULT 1000,
    hits_today       INT NOT NULL DEFAULT 0,
    hits_date        CHAR(10) NULL,
    last_used_at     DATETIME(6) NULL,
    status           ENUM('active', 'revoked') NOT NULL DEFAULT 'active',
    created_at       DATETIME(6) NULL,
    updated_at       DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY api_keys_key_unique (`key`),
    KEY api_keys_user_id_index (user_id),
    CONSTRAINT api_keys_user_id_foreign FOREIGN KEY (user_id)
        REFERENCES users (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- No foreign keys: hit logs are history and outlive services and keys.
-- status pending = charge reserved, upstream answer not settled yet.
-- Payloads are MEDIUMTEXT so a payload near the application's cap (60 kB by
-- default) never hits TEXT's 64 KiB limit.
CREATE TABLE IF NOT EXISTS api_hit_logs (
    id               BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id          BIGINT UNSIGNED NOT NULL,
    api_service_id   BIGINT UNSIGNED NOT NULL,
    api_key_id       BIGINT UNSIGNED NOT NULL,
    request_id       VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    request_payload  MEDIUMTEXT NOT NULL,
    response_payload MEDIUMTEXT NULL,
    charge_amount    DECIMAL(10, 4) NOT NULL DEFAULT 0.0000,
    reserved_amount  DECIMAL(10, 4) NOT NULL DEFAULT 0.0000,
    ip_address       VARCHAR(45) NOT NULL,
    status           ENUM('success', 'failed', 'insufficient_balance', 'pending') NOT NULL DEFAULT 'success',
    response_time_ms INT NOT NULL DEFAULT 0,
    created_at       DATETIME(6) NULL,
    updated_at       DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY api_hit_logs_request_id_unique (request_id),
    KEY api_hit_logs_user_created_index (user_id, created_at),
    KEY api_hit_logs_service_created_index (api_service_id, created_at),
    KEY api_hit_logs_status_created_index (status, created_at),
    KEY api_hit_logs_api_key_id_index (api_key_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- A decided request is money history: deleting its user is refused.
CREATE TABLE IF NOT EXISTS balance_requests (
    id             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id        BIGINT UNSIGNED NOT NULL,
    amount         DECIMAL(12, 2) NOT NULL,
    utr_number     VARCHAR(50) NOT NULL,
    payment_method VARCHAR(20) NOT NULL DEFAULT 'upi',
    screenshot     VARCHAR(255) NULL,
    remarks        TEXT NULL,
    status         ENUM('pending', 'approved', 'rejected') NOT NULL DEFAULT 'pending',
    approved_by    BIGINT UNSIGNED NULL,
    approved_at    DATETIME(6) NULL,
    admin_remarks  TEXT NULL,
    created_at     DATETIME(6) NULL,
    updated_at     DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY balance_requests_utr_number_unique (utr_number),
    KEY balance_requests_user_id_index (user_id, id),
    KEY balance_requests_status_created_index (status, created_at),
    CONSTRAINT balance_requests_user_id_foreign FOREIGN KEY (user_id)
        REFERENCES users (id),
    CONSTRAINT balance_requests_approved_by_foreign FOREIGN KEY (approved_by)
        REFERENCES users (id) ON DELETE SET NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- The ledger. No foreign key to users: a ledger row is never deleted, and an
-- insert must not take a shared lock on the user row it does not need.
CREATE TABLE IF NOT EXISTS transactions (
    id             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id        BIGINT UNSIGNED NOT NULL,
    txn_id         VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    type           ENUM('credit', 'debit', 'refund') NOT NULL,
    amount         DECIMAL(12, 2) NOT NULL,
    balance_before DECIMAL(12, 2) NOT NULL,
    balance_after  DECIMAL(12, 2) NOT NULL,
    reference_type VARCHAR(50) NOT NULL,
    reference_id   BIGINT UNSIGNED NULL,
    description    TEXT NOT NULL,
    status         ENUM('completed', 'pending', 'failed') NOT NULL DEFAULT 'completed',
    created_at     DATETIME(6) NULL,
    updated_at     DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY transactions_txn_id_unique (txn_id),
    KEY transactions_user_id_index (user_id, id),
    KEY transactions_reference_index (reference_type, reference_id),
    KEY transactions_created_at_index (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- One documentation record per service; PutDoc replaces it.
CREATE TABLE IF NOT EXISTS api_documentations (
    id               BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    api_service_id   BIGINT UNSIGNED NOT NULL,
    endpoint         VARCHAR(255) NOT NULL,
    method           ENUM('GET', 'POST', 'PUT', 'DELETE') NOT NULL,
    description      TEXT NOT NULL,
    request_params   JSON NOT NULL,
    response_example JSON NOT NULL,
    error_codes      JSON NOT NULL,
    sort_order       INT NOT NULL DEFAULT 0,
    created_at       DATETIME(6) NULL,
    updated_at       DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY api_documentations_api_service_id_unique (api_service_id),
    CONSTRAINT api_documentations_api_service_id_foreign FOREIGN KEY (api_service_id)
        REFERENCES api_services (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Values generated once and shared by every instance (the JWT key).
CREATE TABLE IF NOT EXISTS settings (
    name  VARCHAR(100) NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

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
