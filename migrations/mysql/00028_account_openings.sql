-- Digital account openings (docs/decisions.md, "Digital account opening keeps PAN and Aadhaar masked only"). The applicant's PAN and
-- Aadhaar number are stored masked only (all but the last 4 characters as
-- X; the full Aadhaar number is never written anywhere), and so is the new
-- account's number. No foreign key to users, like the other gateway records.

-- +goose Up
CREATE TABLE IF NOT EXISTS account_openings (
    id             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    public_id      VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    user_id        BIGINT UNSIGNED NOT NULL,
    api_key_id     BIGINT UNSIGNED NOT NULL,
    reference_id   VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    product        VARCHAR(20) NOT NULL,
    name           VARCHAR(100) NOT NULL,
    dob            CHAR(10) NOT NULL,
    pan_masked     CHAR(10) NOT NULL,
    aadhaar_masked CHAR(12) NOT NULL,
    mobile         CHAR(10) NOT NULL,
    email          VARCHAR(254) NOT NULL,
    address        VARCHAR(300) NOT NULL,
    status         ENUM('initiated', 'kyc_pending', 'opened', 'rejected') NOT NULL DEFAULT 'initiated',
    kyc_url        VARCHAR(500) NULL,
    account_number VARCHAR(40) NULL,
    ifsc           CHAR(11) NULL,
    reject_reason  VARCHAR(255) NULL,
    livemode       TINYINT(1) NOT NULL DEFAULT 0,
    attempts       INT NOT NULL DEFAULT 0,
    next_check_at  DATETIME(6) NOT NULL,
    created_at     DATETIME(6) NULL,
    updated_at     DATETIME(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY account_openings_public_id_unique (public_id),
    UNIQUE KEY account_openings_user_reference_unique (user_id, reference_id),
    KEY account_openings_user_index (user_id, id),
    KEY account_openings_due_index (status, next_check_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS account_openings;
