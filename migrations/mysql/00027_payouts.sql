-- Payouts (docs/decisions.md, "Payouts: debited first, refunded exactly once"): money sent from a user's balance to a bank
-- account or a UPI address, and each account's daily payout limit. The
-- amount is debited (ledger reference_type payout) in the transaction that
-- inserts the row; next_check_at is NULL once nothing more can happen.

-- +goose Up
ALTER TABLE users
    ADD COLUMN daily_payout_limit DECIMAL(12, 2) NOT NULL DEFAULT 200000.00,
    ADD CONSTRAINT users_daily_payout_limit_range CHECK (daily_payout_limit >= 0);

CREATE TABLE IF NOT EXISTS payouts (
    id               BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    public_id        VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    user_id          BIGINT UNSIGNED NOT NULL,
    api_key_id       BIGINT UNSIGNED NOT NULL,
    request_id       VARCHAR(100) NOT NULL,
    reference_id     VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    beneficiary_type ENUM('bank_account', 'vpa') NOT NULL,
    beneficiary_name VARCHAR(100) NOT NULL,
    account_number   VARCHAR(18) NULL,
    ifsc             CHAR(11) NULL,
    vpa              VARCHAR(320) NULL,
    amount           DECIMAL(12, 2) NOT NULL,
    fee              DECIMAL(12, 4) NOT NULL DEFAULT 0.0000,
    mode             ENUM('IMPS', 'NEFT', 'UPI') NOT NULL,
    narration        VARCHAR(30) NULL,
    status           ENUM('pending', 'processing', 'success', 'failed', 'reversed') NOT NULL DEFAULT 'pending',
    utr              VARCHAR(40) NULL,
    fail_reason      VARCHAR(255) NULL,
    livemode         TINYINT(1) NOT NULL DEFAULT 0,
    submitted_at     DATETIME(6) NULL,
    next_check_at    DATETIME(6) NULL,
    attempts         INT NOT NULL DEFAULT 0,
    processed_at     DATETIME(6) NULL,
    reversed_at      DATETIME(6) NULL,
    created_at       DATETIME(6) NULL,
    updated_at       DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY payouts_public_id_unique (public_id),
    UNIQUE KEY payouts_user_reference_unique (user_id, reference_id),
    KEY payouts_user_created_index (user_id, created_at),
    KEY payouts_created_index (created_at),
    KEY payouts_due_index (next_check_at),
    KEY payouts_utr_index (utr),
    CONSTRAINT payouts_amount_positive CHECK (amount > 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS payouts;
ALTER TABLE users DROP CONSTRAINT users_daily_payout_limit_range, DROP COLUMN daily_payout_limit;
