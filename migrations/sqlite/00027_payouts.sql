-- Payouts (see the MySQL migration of the same number).

-- +goose Up
ALTER TABLE users ADD COLUMN daily_payout_limit TEXT NOT NULL DEFAULT '200000.00'
    CHECK (CAST(daily_payout_limit AS REAL) >= 0);

CREATE TABLE payouts (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id        VARCHAR(40) NOT NULL,
    user_id          INTEGER NOT NULL,
    api_key_id       INTEGER NOT NULL,
    request_id       VARCHAR(100) NOT NULL,
    reference_id     VARCHAR(64) NOT NULL,
    beneficiary_type VARCHAR(20) NOT NULL CHECK (beneficiary_type IN ('bank_account', 'vpa')),
    beneficiary_name VARCHAR(100) NOT NULL,
    account_number   VARCHAR(18) NULL,
    ifsc             CHAR(11) NULL,
    vpa              VARCHAR(320) NULL,
    amount           TEXT NOT NULL CHECK (CAST(amount AS REAL) > 0),
    fee              TEXT NOT NULL DEFAULT '0.0000',
    mode             VARCHAR(4) NOT NULL CHECK (mode IN ('IMPS', 'NEFT', 'UPI')),
    narration        VARCHAR(30) NULL,
    status           VARCHAR(10) NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'processing', 'success', 'failed', 'reversed')),
    utr              VARCHAR(40) NULL,
    fail_reason      VARCHAR(255) NULL,
    livemode         BOOLEAN NOT NULL DEFAULT 0,
    submitted_at     DATETIME NULL,
    next_check_at    DATETIME NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    processed_at     DATETIME NULL,
    reversed_at      DATETIME NULL,
    created_at       DATETIME NULL,
    updated_at       DATETIME NULL
);
CREATE UNIQUE INDEX payouts_public_id_unique ON payouts (public_id);
CREATE UNIQUE INDEX payouts_user_reference_unique ON payouts (user_id, reference_id);
CREATE INDEX payouts_user_created_index ON payouts (user_id, created_at);
CREATE INDEX payouts_created_index ON payouts (created_at);
CREATE INDEX payouts_due_index ON payouts (next_check_at);
CREATE INDEX payouts_utr_index ON payouts (utr);

-- +goose Down
DROP TABLE IF EXISTS payouts;
ALTER TABLE users DROP COLUMN daily_payout_limit;
