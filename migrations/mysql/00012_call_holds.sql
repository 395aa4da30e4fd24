-- Holds on a balance for metered calls (decisions: "Metered calls run on
-- holds"). A hold sets aside, in one transaction under the user's row
-- lock, the money and the key's daily count of a number of calls at one
-- price; the calls then run without a database round trip of their own and
-- are charged afterwards, in batches, from the hold. A hold's row exists
-- while the hold is open: its release deletes it. Crash recovery releases
-- the holds whose expiry is long past (call_holds_expires_index).
--
-- CREATE TABLE IF NOT EXISTS alone: MySQL commits DDL statement by
-- statement, so the users column comes in 00013.

-- +goose Up
CREATE TABLE IF NOT EXISTS call_holds (
    id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    user_id     BIGINT UNSIGNED NOT NULL,
    api_key_id  BIGINT UNSIGNED NOT NULL,
    day         CHAR(10) NOT NULL,
    unit_amount DECIMAL(12, 2) NOT NULL,
    calls       INT NOT NULL,
    used_calls  INT NOT NULL DEFAULT 0,
    used_amount DECIMAL(12, 2) NOT NULL DEFAULT 0.00,
    expires_at  DATETIME(6) NOT NULL,
    created_at  DATETIME(6) NULL,
    PRIMARY KEY (id),
    KEY call_holds_user_index (user_id),
    KEY call_holds_expires_index (expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS call_holds;
