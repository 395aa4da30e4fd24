-- Live UPI and bank-statement reconciliation (see the MySQL migration of the
-- same number). Money is TEXT on SQLite (exact decimals written by the
-- application); txn_date is YYYY-MM-DD.

-- +goose Up
ALTER TABLE payments ADD COLUMN utr VARCHAR(12) NULL;
CREATE UNIQUE INDEX payments_utr_unique ON payments (utr);

CREATE TABLE reconciliation_statements (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    imported_by   INTEGER NOT NULL,
    file_name     VARCHAR(255) NOT NULL,
    file_sha256   CHAR(64) NOT NULL,
    credit_lines  INTEGER NOT NULL DEFAULT 0,
    new_lines     INTEGER NOT NULL DEFAULT 0,
    debit_lines   INTEGER NOT NULL DEFAULT 0,
    skipped_lines INTEGER NOT NULL DEFAULT 0,
    matched       INTEGER NOT NULL DEFAULT 0,
    unmatched     INTEGER NOT NULL DEFAULT 0,
    created_at    DATETIME NULL
);
CREATE INDEX reconciliation_statements_created_index ON reconciliation_statements (created_at);

CREATE TABLE reconciliation_lines (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    statement_id       INTEGER NOT NULL,
    line_key           CHAR(64) NOT NULL,
    line_no            INTEGER NOT NULL,
    txn_date           VARCHAR(10) NOT NULL,
    narration          VARCHAR(500) NOT NULL,
    ref_no             VARCHAR(100) NOT NULL,
    utr                VARCHAR(50) NOT NULL COLLATE NOCASE,
    amount             TEXT NOT NULL,
    balance            TEXT NULL,
    status             VARCHAR(10) NOT NULL DEFAULT 'unmatched'
        CHECK (status IN ('unmatched', 'matched', 'dismissed')),
    reason             VARCHAR(32) NULL,
    payment_id         INTEGER NULL,
    payment_public_id  VARCHAR(40) NULL,
    balance_request_id INTEGER NULL,
    decided_by         INTEGER NULL,
    decided_at         DATETIME NULL,
    note               VARCHAR(1000) NULL,
    created_at         DATETIME NULL,
    updated_at         DATETIME NULL
);
CREATE UNIQUE INDEX reconciliation_lines_key_unique ON reconciliation_lines (line_key);
CREATE UNIQUE INDEX reconciliation_lines_payment_unique ON reconciliation_lines (payment_id);
CREATE UNIQUE INDEX reconciliation_lines_balance_request_unique ON reconciliation_lines (balance_request_id);
CREATE INDEX reconciliation_lines_statement_index ON reconciliation_lines (statement_id, id);
CREATE INDEX reconciliation_lines_status_index ON reconciliation_lines (status, id);
CREATE INDEX reconciliation_lines_utr_index ON reconciliation_lines (utr);

-- +goose Down
DROP TABLE reconciliation_lines;
DROP TABLE reconciliation_statements;
DROP INDEX payments_utr_unique;
ALTER TABLE payments DROP COLUMN utr;
