-- Gateway records (docs/decisions.md, "Payments"): payments with their Idempotency-Keys,
-- mobile recharges, account verifications (identifiers stored masked only).
-- Money is TEXT on SQLite (exact decimals written by the application).

-- +goose Up
CREATE TABLE payments (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id    VARCHAR(40) NOT NULL,
    user_id      INTEGER NOT NULL,
    api_key_id   INTEGER NOT NULL,
    amount       TEXT NOT NULL,
    currency     CHAR(3) NOT NULL DEFAULT 'INR',
    customer_id  VARCHAR(100) NOT NULL,
    callback_url VARCHAR(500) NOT NULL,
    status       VARCHAR(10) NOT NULL DEFAULT 'created'
        CHECK (status IN ('created', 'pending', 'success', 'failed', 'expired')),
    provider_ref VARCHAR(100) NULL,
    expires_at   DATETIME NOT NULL,
    completed_at DATETIME NULL,
    created_at   DATETIME NULL,
    updated_at   DATETIME NULL
);
CREATE UNIQUE INDEX payments_public_id_unique ON payments (public_id);
CREATE INDEX payments_user_id_index ON payments (user_id, id);
CREATE INDEX payments_status_expires_index ON payments (status, expires_at);

CREATE TABLE payment_idempotency_keys (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    request_hash CHAR(64) NOT NULL,
    payment_id   INTEGER NOT NULL,
    expires_at   DATETIME NOT NULL,
    created_at   DATETIME NULL
);
CREATE UNIQUE INDEX payment_idempotency_keys_user_key_unique ON payment_idempotency_keys (user_id, idem_key);
CREATE INDEX payment_idempotency_keys_expires_index ON payment_idempotency_keys (expires_at);

CREATE TABLE recharges (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL,
    api_key_id   INTEGER NOT NULL,
    reference_id VARCHAR(64) NOT NULL,
    mobile       CHAR(10) NOT NULL,
    operator     VARCHAR(20) NOT NULL,
    circle       VARCHAR(40) NOT NULL,
    amount       TEXT NOT NULL,
    status       VARCHAR(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'success', 'failed')),
    operator_ref VARCHAR(100) NULL,
    fail_reason  VARCHAR(255) NULL,
    created_at   DATETIME NULL,
    updated_at   DATETIME NULL
);
CREATE UNIQUE INDEX recharges_user_reference_unique ON recharges (user_id, reference_id);
CREATE INDEX recharges_status_created_index ON recharges (status, created_at);

CREATE TABLE verifications (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id           INTEGER NOT NULL,
    api_key_id        INTEGER NOT NULL,
    request_id        VARCHAR(100) NOT NULL,
    type              VARCHAR(20) NOT NULL CHECK (type IN ('bank_account', 'upi', 'pan', 'aadhaar')),
    masked_identifier VARCHAR(300) NOT NULL,
    verified          BOOLEAN NOT NULL,
    name_at_source    VARCHAR(255) NULL,
    reference_id      VARCHAR(100) NOT NULL,
    message           VARCHAR(255) NULL,
    created_at        DATETIME NULL
);
CREATE UNIQUE INDEX verifications_request_id_unique ON verifications (request_id);
CREATE INDEX verifications_user_id_index ON verifications (user_id, id);

-- +goose Down
DROP TABLE IF EXISTS verifications;
DROP TABLE IF EXISTS recharges;
DROP TABLE IF EXISTS payment_idempotency_keys;
DROP TABLE IF EXISTS payments;
