-- Tax invoices and credit notes (docs/decisions.md, "Tax invoices"). A
-- document is written once, whole, in the transaction that takes its
-- number: the lines and the parties as they were at issue are kept in it.
-- (user_id, month, kind, corrects_key) is unique: one invoice per account
-- and month, one credit note per account, month and invoice corrected
-- (corrects_key is corrects_id, or 0 for an invoice). invoice_series holds
-- each series' last number: its row lock makes numbers consecutive.

-- +goose Up
CREATE TABLE IF NOT EXISTS invoices (
    id              BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id         BIGINT UNSIGNED NOT NULL,
    kind            VARCHAR(12) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    number          VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    series          VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    seq             BIGINT UNSIGNED NOT NULL,
    month           CHAR(7) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    corrects_id     BIGINT UNSIGNED NULL,
    corrects_key    BIGINT UNSIGNED NOT NULL DEFAULT 0,
    corrects_number VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NULL,
    corrects_issued_at DATETIME(6) NULL,
    rate            DECIMAL(5, 2) NOT NULL,
    place_of_supply CHAR(2) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    supplier        JSON NOT NULL,
    recipient       JSON NOT NULL,
    payee           JSON NOT NULL,
    `lines`         JSON NOT NULL,
    gross           DECIMAL(14, 2) NOT NULL,
    taxable         DECIMAL(14, 2) NOT NULL,
    cgst            DECIMAL(14, 2) NOT NULL,
    sgst            DECIMAL(14, 2) NOT NULL,
    igst            DECIMAL(14, 2) NOT NULL,
    issued_at       DATETIME(6) NOT NULL,
    created_at      DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY invoices_number_unique (number),
    UNIQUE KEY invoices_series_seq_unique (series, seq),
    UNIQUE KEY invoices_user_month_kind_unique (user_id, month, kind, corrects_key),
    KEY invoices_month_index (month, id),
    KEY invoices_user_index (user_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS invoice_series (
    series   VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    last_seq BIGINT UNSIGNED NOT NULL DEFAULT 0,
    PRIMARY KEY (series)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- A month every account of which has its documents: later rounds skip it.
CREATE TABLE IF NOT EXISTS invoice_months (
    month       CHAR(7) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    finished_at DATETIME(6) NOT NULL,
    PRIMARY KEY (month)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS invoice_months;
DROP TABLE IF EXISTS invoice_series;
DROP TABLE IF EXISTS invoices;
