-- A reseller's own billing and payee details (see the MySQL migration of
-- the same number).

-- +goose Up
CREATE TABLE reseller_billing_settings (
    user_id        INTEGER PRIMARY KEY,
    legal_name     VARCHAR(200) NOT NULL DEFAULT '',
    address        VARCHAR(500) NOT NULL DEFAULT '',
    state          CHAR(2) NOT NULL DEFAULT '',
    gstin          CHAR(15) NOT NULL DEFAULT '',
    pan            CHAR(10) NOT NULL DEFAULT '',
    invoice_prefix VARCHAR(8) NOT NULL DEFAULT 'IN',
    sac_code       CHAR(6) NOT NULL DEFAULT '998319',
    bank_name      VARCHAR(100) NOT NULL DEFAULT '',
    account_name   VARCHAR(100) NOT NULL DEFAULT '',
    account_number VARCHAR(18) NOT NULL DEFAULT '',
    ifsc           CHAR(11) NOT NULL DEFAULT '',
    upi            VARCHAR(100) NOT NULL DEFAULT '',
    updated_at     DATETIME NULL
);

-- +goose Down
DROP TABLE IF EXISTS reseller_billing_settings;
