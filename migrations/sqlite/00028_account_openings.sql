-- Digital account openings (docs/decisions.md, "Digital account opening keeps PAN and Aadhaar masked only"). The applicant's PAN and
-- Aadhaar number are stored masked only (all but the last 4 characters as
-- X; the full Aadhaar number is never written anywhere), and so is the new
-- account's number.

-- +goose Up
CREATE TABLE account_openings (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id      VARCHAR(40) NOT NULL,
    user_id        INTEGER NOT NULL,
    api_key_id     INTEGER NOT NULL,
    reference_id   VARCHAR(64) NOT NULL,
    product        VARCHAR(20) NOT NULL,
    name           VARCHAR(100) NOT NULL,
    dob            CHAR(10) NOT NULL,
    pan_masked     CHAR(10) NOT NULL,
    aadhaar_masked CHAR(12) NOT NULL,
    mobile         CHAR(10) NOT NULL,
    email          VARCHAR(254) NOT NULL,
    address        VARCHAR(300) NOT NULL,
    status         VARCHAR(12) NOT NULL DEFAULT 'initiated'
        CHECK (status IN ('initiated', 'kyc_pending', 'opened', 'rejected')),
    kyc_url        VARCHAR(500) NULL,
    account_number VARCHAR(40) NULL,
    ifsc           CHAR(11) NULL,
    reject_reason  VARCHAR(255) NULL,
    livemode       BOOLEAN NOT NULL DEFAULT 0,
    attempts       INTEGER NOT NULL DEFAULT 0,
    next_check_at  DATETIME NOT NULL,
    created_at     DATETIME NULL,
    updated_at     DATETIME NULL
);
CREATE UNIQUE INDEX account_openings_public_id_unique ON account_openings (public_id);
CREATE UNIQUE INDEX account_openings_user_reference_unique ON account_openings (user_id, reference_id);
CREATE INDEX account_openings_user_index ON account_openings (user_id, id);
CREATE INDEX account_openings_due_index ON account_openings (status, next_check_at);

-- +goose Down
DROP TABLE IF EXISTS account_openings;
