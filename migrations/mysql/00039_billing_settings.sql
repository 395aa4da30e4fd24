-- Supplier settings and billing profiles (docs/decisions.md, "Supplier
-- settings and billing profiles"): the one supplier record admins keep
-- (id 1, written here with the default invoice prefix and SAC, so that the
-- writer can lock an existing row), each account's billing profile (the
-- recipient of its invoices), and a service's own SAC code (NULL: the
-- supplier's default). Absent text is '' rather than NULL.

-- +goose Up
CREATE TABLE IF NOT EXISTS billing_settings (
    id             TINYINT UNSIGNED NOT NULL,
    legal_name     VARCHAR(200) NOT NULL DEFAULT '',
    address        VARCHAR(500) NOT NULL DEFAULT '',
    state          CHAR(2) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    gstin          CHAR(15) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    pan            CHAR(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    invoice_prefix VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'PG',
    sac_code       CHAR(6) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '998319',
    bank_name      VARCHAR(100) NOT NULL DEFAULT '',
    account_name   VARCHAR(100) NOT NULL DEFAULT '',
    account_number VARCHAR(18) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    ifsc           CHAR(11) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    upi            VARCHAR(100) NOT NULL DEFAULT '',
    updated_at     DATETIME(6) NULL,
    PRIMARY KEY (id),
    CONSTRAINT billing_settings_one_row CHECK (id = 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

INSERT IGNORE INTO billing_settings (id) VALUES (1);

CREATE TABLE IF NOT EXISTS billing_profiles (
    user_id    BIGINT UNSIGNED NOT NULL,
    legal_name VARCHAR(200) NOT NULL,
    address    VARCHAR(500) NOT NULL,
    state      CHAR(2) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    gstin      CHAR(15) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    created_at DATETIME(6) NULL,
    updated_at DATETIME(6) NULL,
    PRIMARY KEY (user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

ALTER TABLE api_services ADD COLUMN sac_code CHAR(6) CHARACTER SET ascii COLLATE ascii_bin NULL AFTER builtin;

-- +goose Down
ALTER TABLE api_services DROP COLUMN sac_code;
DROP TABLE IF EXISTS billing_profiles;
DROP TABLE IF EXISTS billing_settings;
