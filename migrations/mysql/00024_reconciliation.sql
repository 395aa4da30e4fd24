-- Live UPI and bank-statement reconciliation (docs/decisions.md, "Bank-statement reconciliation"): the UTR a
-- payer reports on the checkout page of a upi_direct payment (unique: one
-- bank credit confirms one payment), and the imported statements with their
-- credit lines. Each line is recorded once (line_key, a hash of its content
-- and its occurrence in the file), so importing a file again inserts nothing.

-- +goose Up
ALTER TABLE payments ADD COLUMN utr VARCHAR(12) NULL, ADD UNIQUE KEY payments_utr_unique (utr);

CREATE TABLE IF NOT EXISTS reconciliation_statements (
    id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    imported_by   BIGINT UNSIGNED NOT NULL,
    file_name     VARCHAR(255) NOT NULL,
    file_sha256   CHAR(64) NOT NULL,
    credit_lines  INT UNSIGNED NOT NULL DEFAULT 0,
    new_lines     INT UNSIGNED NOT NULL DEFAULT 0,
    debit_lines   INT UNSIGNED NOT NULL DEFAULT 0,
    skipped_lines INT UNSIGNED NOT NULL DEFAULT 0,
    matched       INT UNSIGNED NOT NULL DEFAULT 0,
    unmatched     INT UNSIGNED NOT NULL DEFAULT 0,
    created_at    DATETIME(6) NULL,
    PRIMARY KEY (id),
    KEY reconciliation_statements_created_index (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS reconciliation_lines (
    id                 BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    statement_id       BIGINT UNSIGNED NOT NULL,
    line_key           CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    line_no            INT UNSIGNED NOT NULL,
    txn_date           CHAR(10) NOT NULL,
    narration          VARCHAR(500) NOT NULL,
    ref_no             VARCHAR(100) NOT NULL,
    utr                VARCHAR(50) NOT NULL,
    amount             DECIMAL(12, 2) NOT NULL,
    balance            DECIMAL(16, 2) NULL,
    status             ENUM('unmatched', 'matched', 'dismissed') NOT NULL DEFAULT 'unmatched',
    reason             VARCHAR(32) NULL,
    payment_id         BIGINT UNSIGNED NULL,
    payment_public_id  VARCHAR(40) NULL,
    balance_request_id BIGINT UNSIGNED NULL,
    decided_by         BIGINT UNSIGNED NULL,
    decided_at         DATETIME(6) NULL,
    note               VARCHAR(1000) NULL,
    created_at         DATETIME(6) NULL,
    updated_at         DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY reconciliation_lines_key_unique (line_key),
    UNIQUE KEY reconciliation_lines_payment_unique (payment_id),
    UNIQUE KEY reconciliation_lines_balance_request_unique (balance_request_id),
    KEY reconciliation_lines_statement_index (statement_id, id),
    KEY reconciliation_lines_status_index (status, id),
    KEY reconciliation_lines_utr_index (utr)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS reconciliation_lines;
DROP TABLE IF EXISTS reconciliation_statements;
ALTER TABLE payments DROP INDEX payments_utr_unique, DROP COLUMN utr;
