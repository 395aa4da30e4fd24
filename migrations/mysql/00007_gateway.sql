-- Gateway records (docs/decisions.md, "Payments"): payments with their Idempotency-Keys,
-- mobile recharges, account verifications (identifiers stored masked only).
-- No foreign keys to users: these are money history, like the ledger.

-- +goose Up
CREATE TABLE IF NOT EXISTS payments (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    public_id    VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    user_id      BIGINT UNSIGNED NOT NULL,
    api_key_id   BIGINT UNSIGNED NOT NULL,
    amount       DECIMAL(12, 2) NOT NULL,
    currency     CHAR(3) NOT NULL DEFAULT 'INR',
    customer_id  VARCHAR(100) NOT NULL,
    callback_url VARCHAR(500) NOT NULL,
    status       ENUM('created', 'pending', 'success', 'failed', 'expired') NOT NULL DEFAULT 'created',
    provider_ref VARCHAR(100) NULL,
    expires_at   DATETIME(6) NOT NULL,
    completed_at DATETIME(6) NULL,
    created_at   DATETIME(6) NULL,
    updated_at   DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY payments_public_id_unique (public_id),
    KEY payments_user_id_index (user_id, id),
    KEY payments_status_expires_index (status, expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- One row per (merchant, Idempotency-Key), claimed in the transaction that
-- creates the payment; an expired row is replaced by the next claim.
CREATE TABLE IF NOT EXISTS payment_idempotency_keys (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id      BIGINT UNSIGNED NOT NULL,
    idem_key     VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    request_hash CHAR(64) NOT NULL,
    payment_id   BIGINT UNSIGNED NOT NULL,
    expires_at   DATETIME(6) NOT NULL,
    created_at   DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY payment_idempotency_keys_user_key_unique (user_id, idem_key),
    KEY payment_idempotency_keys_expires_index (expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS recharges (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id      BIGINT UNSIGNED NOT NULL,
    api_key_id   BIGINT UNSIGNED NOT NULL,
    reference_id VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    mobile       CHAR(10) NOT NULL,
    operator     VARCHAR(20) NOT NULL,
    circle       VARCHAR(40) NOT NULL,
    amount       DECIMAL(12, 2) NOT NULL,
    status       ENUM('pending', 'success', 'failed') NOT NULL DEFAULT 'pending',
    operator_ref VARCHAR(100) NULL,
    fail_reason  VARCHAR(255) NULL,
    created_at   DATETIME(6) NULL,
    updated_at   DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY recharges_user_reference_unique (user_id, reference_id),
    KEY recharges_status_created_index (status, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS verifications (
    id                BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id           BIGINT UNSIGNED NOT NULL,
    api_key_id        BIGINT UNSIGNED NOT NULL,
    request_id        VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    type              ENUM('bank_account', 'upi', 'pan', 'aadhaar') NOT NULL,
    masked_identifier VARCHAR(300) NOT NULL,
    verified          BOOLEAN NOT NULL,
    name_at_source    VARCHAR(255) NULL,
    reference_id      VARCHAR(100) NOT NULL,
    message           VARCHAR(255) NULL,
    created_at        DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY verifications_request_id_unique (request_id),
    KEY verifications_user_id_index (user_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS verifications;
DROP TABLE IF EXISTS recharges;
DROP TABLE IF EXISTS payment_idempotency_keys;
DROP TABLE IF EXISTS payments;
