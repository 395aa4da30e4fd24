-- A reseller's own billing and payee details (docs/decisions.md,
-- "Resellers: customers pay their reseller"): the supplier block of its
-- customers' invoices and the payee its customers pay, one row per
-- reseller keyed by its user id, the same fields as billing_settings. No
-- row: the reseller saved nothing yet. The GSTIN is '' for a reseller not
-- registered for GST.

-- +goose Up
CREATE TABLE IF NOT EXISTS reseller_billing_settings (
    user_id        BIGINT UNSIGNED NOT NULL,
    legal_name     VARCHAR(200) NOT NULL DEFAULT '',
    address        VARCHAR(500) NOT NULL DEFAULT '',
    state          CHAR(2) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    gstin          CHAR(15) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    pan            CHAR(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    invoice_prefix VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'IN',
    sac_code       CHAR(6) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '998319',
    bank_name      VARCHAR(100) NOT NULL DEFAULT '',
    account_name   VARCHAR(100) NOT NULL DEFAULT '',
    account_number VARCHAR(18) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    ifsc           CHAR(11) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    upi            VARCHAR(100) NOT NULL DEFAULT '',
    updated_at     DATETIME(6) NULL,
    PRIMARY KEY (user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS reseller_billing_settings;
