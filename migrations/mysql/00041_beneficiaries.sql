-- Saved payout beneficiaries (docs/decisions.md, "Panel payouts"): a bank
-- account or a UPI address of an account's, saved once verified.

-- +goose Up
CREATE TABLE IF NOT EXISTS beneficiaries (
    id             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id        BIGINT UNSIGNED NOT NULL,
    type           VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    name           VARCHAR(100) NOT NULL,
    account_number VARCHAR(18) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    ifsc           CHAR(11) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    vpa            VARCHAR(256) NOT NULL DEFAULT '',
    name_at_source VARCHAR(200) NOT NULL DEFAULT '',
    verified_at    DATETIME(6) NOT NULL,
    created_at     DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    KEY beneficiaries_user (user_id, id),
    CONSTRAINT fk_beneficiaries_user FOREIGN KEY (user_id) REFERENCES users (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS beneficiaries;
