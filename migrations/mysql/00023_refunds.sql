-- Refunds of successful payments (docs/decisions.md, "Refunds debit the merchant first"): the refund rows, the
-- Idempotency-Keys of POST /api/v1/payment/refund, and each payment's
-- refunded total (Σ of its refunds not failed), kept under the payment's
-- row lock so concurrent refunds never pass the amount collected.

-- +goose Up
ALTER TABLE payments
    ADD COLUMN refunded_amount DECIMAL(12, 2) NOT NULL DEFAULT 0.00;

CREATE TABLE IF NOT EXISTS payment_refunds (
    id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    public_id     VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    payment_id    BIGINT UNSIGNED NOT NULL,
    user_id       BIGINT UNSIGNED NOT NULL,
    amount        DECIMAL(12, 2) NOT NULL,
    reason        VARCHAR(255) NOT NULL DEFAULT '',
    status        ENUM('pending', 'processed', 'failed') NOT NULL DEFAULT 'pending',
    livemode      TINYINT(1) NOT NULL DEFAULT 0,
    provider_ref  VARCHAR(100) NULL,
    fail_reason   VARCHAR(255) NULL,
    attempts      INT NOT NULL DEFAULT 0,
    next_check_at DATETIME(6) NOT NULL,
    completed_at  DATETIME(6) NULL,
    created_at    DATETIME(6) NULL,
    updated_at    DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY payment_refunds_public_id_unique (public_id),
    KEY payment_refunds_payment_index (payment_id, id),
    KEY payment_refunds_user_index (user_id, id),
    KEY payment_refunds_due_index (status, next_check_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- One row per (merchant, Idempotency-Key) of a refund, claimed in the
-- transaction that creates the refund; an expired row gives way.
CREATE TABLE IF NOT EXISTS refund_idempotency_keys (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id      BIGINT UNSIGNED NOT NULL,
    idem_key     VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    request_hash CHAR(64) NOT NULL,
    refund_id    BIGINT UNSIGNED NOT NULL,
    expires_at   DATETIME(6) NOT NULL,
    created_at   DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY refund_idempotency_keys_user_key_unique (user_id, idem_key),
    KEY refund_idempotency_keys_expires_index (expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS refund_idempotency_keys;
DROP TABLE IF EXISTS payment_refunds;
ALTER TABLE payments DROP COLUMN refunded_amount;
