-- Leases of running CSV exports (docs/decisions.md, "CSV exports: keyset pages, 2 per user, a stall deadline"): at most two at a
-- time per user, on every instance together. A row is one held slot; its
-- export renews expires_at while it runs and deletes the row when it ends.
-- A row whose expires_at has passed (its instance died) is free to take.

-- +goose Up
CREATE TABLE IF NOT EXISTS export_leases (
    user_id    BIGINT UNSIGNED NOT NULL,
    slot       TINYINT UNSIGNED NOT NULL,
    holder     VARCHAR(64) NOT NULL,
    expires_at DATETIME(6) NOT NULL,
    PRIMARY KEY (user_id, slot)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS export_leases;
