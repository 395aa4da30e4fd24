-- Refunds of successful payments (docs/decisions.md, "Refunds debit the merchant first"): the refund rows, the
-- Idempotency-Keys of POST /api/v1/payment/refund, and each payment's
-- refunded total (Σ of its refunds not failed). Money is TEXT on SQLite
-- (exact decimals written by the application).

-- +goose Up
ALTER TABLE payments ADD COLUMN refunded_amount TEXT NOT NULL DEFAULT '0.00';

CREATE TABLE payment_refunds (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id     VARCHAR(40) NOT NULL,
    payment_id    INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    amount        TEXT NOT NULL,
    reason        VARCHAR(255) NOT NULL DEFAULT '',
    status        VARCHAR(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processed', 'failed')),
    livemode      BOOLEAN NOT NULL DEFAULT 0,
    provider_ref  VARCHAR(100) NULL,
    fail_reason   VARCHAR(255) NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_check_at DATETIME NOT NULL,
    completed_at  DATETIME NULL,
    created_at    DATETIME NULL,
    updated_at    DATETIME NULL
);
CREATE UNIQUE INDEX payment_refunds_public_id_unique ON payment_refunds (public_id);
CREATE INDEX payment_refunds_payment_index ON payment_refunds (payment_id, id);
CREATE INDEX payment_refunds_user_index ON payment_refunds (user_id, id);
CREATE INDEX payment_refunds_due_index ON payment_refunds (status, next_check_at);

CREATE TABLE refund_idempotency_keys (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    request_hash CHAR(64) NOT NULL,
    refund_id    INTEGER NOT NULL,
    expires_at   DATETIME NOT NULL,
    created_at   DATETIME NULL
);
CREATE UNIQUE INDEX refund_idempotency_keys_user_key_unique ON refund_idempotency_keys (user_id, idem_key);
CREATE INDEX refund_idempotency_keys_expires_index ON refund_idempotency_keys (expires_at);

-- +goose Down
DROP TABLE IF EXISTS refund_idempotency_keys;
DROP TABLE IF EXISTS payment_refunds;
ALTER TABLE payments DROP COLUMN refunded_amount;
