-- Supplier settings and billing profiles, and a service's own SAC code
-- (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE billing_settings (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    legal_name     VARCHAR(200) NOT NULL DEFAULT '',
    address        VARCHAR(500) NOT NULL DEFAULT '',
    state          CHAR(2) NOT NULL DEFAULT '',
    gstin          CHAR(15) NOT NULL DEFAULT '',
    pan            CHAR(10) NOT NULL DEFAULT '',
    invoice_prefix VARCHAR(8) NOT NULL DEFAULT 'PG',
    sac_code       CHAR(6) NOT NULL DEFAULT '998319',
    bank_name      VARCHAR(100) NOT NULL DEFAULT '',
    account_name   VARCHAR(100) NOT NULL DEFAULT '',
    account_number VARCHAR(18) NOT NULL DEFAULT '',
    ifsc           CHAR(11) NOT NULL DEFAULT '',
    upi            VARCHAR(100) NOT NULL DEFAULT '',
    updated_at     DATETIME NULL
);

INSERT OR IGNORE INTO billing_settings (id) VALUES (1);

CREATE TABLE billing_profiles (
    user_id    INTEGER PRIMARY KEY,
    legal_name VARCHAR(200) NOT NULL,
    address    VARCHAR(500) NOT NULL,
    state      CHAR(2) NOT NULL,
    gstin      CHAR(15) NOT NULL DEFAULT '',
    created_at DATETIME NULL,
    updated_at DATETIME NULL
);

ALTER TABLE api_services ADD COLUMN sac_code CHAR(6) NULL;

-- +goose Down
ALTER TABLE api_services DROP COLUMN sac_code;
DROP TABLE IF EXISTS billing_profiles;
DROP TABLE IF EXISTS billing_settings;
