-- Resellers with customers of their own (docs/decisions.md, "Resellers"):
-- one level, admin → reseller → customer.
--
-- users.parent_id names a customer's reseller (null for everyone else).
-- customer_prices: a reseller's selling price of a service to its
-- customers; reseller_settings: its default markup and brand;
-- reseller_domains: the host names its brand answers on. A billed hit of a
-- customer carries its reseller and the reseller's commission on it;
-- commission_settlements credit them per reseller and closed local hour,
-- once (the unique key). transfers move money between a reseller and its
-- customer, once per Idempotency-Key.

-- +goose Up
ALTER TABLE users
    ADD COLUMN parent_id BIGINT UNSIGNED NULL,
    ADD KEY users_parent (parent_id, id),
    ADD CONSTRAINT fk_users_parent FOREIGN KEY (parent_id) REFERENCES users (id);

CREATE TABLE IF NOT EXISTS customer_prices (
    id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    reseller_id BIGINT UNSIGNED NOT NULL,
    service_id  BIGINT UNSIGNED NOT NULL,
    price       DECIMAL(10, 4) NOT NULL,
    created_at  DATETIME(6) NOT NULL,
    updated_at  DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY customer_prices_reseller_service (reseller_id, service_id),
    KEY customer_prices_service (service_id),
    CONSTRAINT fk_customer_prices_reseller FOREIGN KEY (reseller_id) REFERENCES users (id),
    CONSTRAINT fk_customer_prices_service FOREIGN KEY (service_id) REFERENCES api_services (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS reseller_settings (
    reseller_id    BIGINT UNSIGNED NOT NULL,
    default_markup DECIMAL(6, 2) NULL,
    brand_name     VARCHAR(100) NOT NULL DEFAULT '',
    logo_path      VARCHAR(255) NOT NULL DEFAULT '',
    logo_type      VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    support_email  VARCHAR(255) NOT NULL DEFAULT '',
    support_phone  VARCHAR(20) NOT NULL DEFAULT '',
    updated_at     DATETIME(6) NOT NULL,
    PRIMARY KEY (reseller_id),
    CONSTRAINT fk_reseller_settings_user FOREIGN KEY (reseller_id) REFERENCES users (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS reseller_domains (
    host        VARCHAR(253) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
    reseller_id BIGINT UNSIGNED NOT NULL,
    created_at  DATETIME(6) NOT NULL,
    PRIMARY KEY (host),
    KEY reseller_domains_reseller (reseller_id),
    CONSTRAINT fk_reseller_domains_user FOREIGN KEY (reseller_id) REFERENCES users (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

ALTER TABLE api_hit_logs
    ADD COLUMN reseller_id BIGINT UNSIGNED NULL,
    ADD COLUMN commission DECIMAL(10, 4) NOT NULL DEFAULT 0.0000,
    ADD KEY api_hit_logs_reseller_created (reseller_id, created_at);

CREATE TABLE IF NOT EXISTS commission_settlements (
    id             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    reseller_id    BIGINT UNSIGNED NOT NULL,
    hour_start     DATETIME(6) NOT NULL,
    hits           INT UNSIGNED NOT NULL,
    amount         DECIMAL(12, 2) NOT NULL,
    transaction_id BIGINT UNSIGNED NULL,
    created_at     DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY commission_settlements_reseller_hour (reseller_id, hour_start),
    CONSTRAINT fk_commission_settlements_user FOREIGN KEY (reseller_id) REFERENCES users (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS transfers (
    id              BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    reseller_id     BIGINT UNSIGNED NOT NULL,
    customer_id     BIGINT UNSIGNED NOT NULL,
    direction       VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    amount          DECIMAL(12, 2) NOT NULL,
    idempotency_key VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NULL,
    request_hash    CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    balance_request_id BIGINT UNSIGNED NULL,
    created_at      DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY transfers_idempotency (reseller_id, idempotency_key),
    KEY transfers_customer (customer_id, id),
    CONSTRAINT fk_transfers_reseller FOREIGN KEY (reseller_id) REFERENCES users (id),
    CONSTRAINT fk_transfers_customer FOREIGN KEY (customer_id) REFERENCES users (id),
    CONSTRAINT transfers_amount_positive CHECK (amount > 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS transfers;
DROP TABLE IF EXISTS commission_settlements;
ALTER TABLE api_hit_logs DROP KEY api_hit_logs_reseller_created, DROP COLUMN commission, DROP COLUMN reseller_id;
DROP TABLE IF EXISTS reseller_domains;
DROP TABLE IF EXISTS reseller_settings;
DROP TABLE IF EXISTS customer_prices;
ALTER TABLE users DROP FOREIGN KEY fk_users_parent, DROP KEY users_parent, DROP COLUMN parent_id;
