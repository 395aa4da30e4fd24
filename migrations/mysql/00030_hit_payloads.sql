-- Hit payloads in a table of their own (decisions: "Hit payloads are kept
-- for HIT_PAYLOAD_RETENTION"), so retention removes a month of them with
-- one TRUNCATE PARTITION instead of clearing rows one by one.
--
-- month is the hit's created_at month in UTC, counted from year 0
-- (YEAR * 12 + MONTH - 1). The table is a ring of 24 hash partitions on it:
-- a month's rows are in partition month MOD 24, and that partition holds
-- no other month until 24 months later, long after the retention (at most
-- 365 days on MySQL) has emptied it. Every write and read names the month
-- (the join computes it from the hit's created_at), so each touches one
-- partition. A hit without a payload row has none (cleared or never sent).
--
-- The payloads already in api_hit_logs move here (every row whose payload
-- is still there, and every pending hit, whose response is written when it
-- settles); then the columns go (an instant change on MariaDB ≥ 10.4 and
-- MySQL ≥ 8.0.29). Hits without created_at (never written by this
-- application) keep no payload. The retention mark of migration 00026 has
-- no use any more: whole months go.

-- +goose Up
CREATE TABLE IF NOT EXISTS hit_payloads (
    hit_id           BIGINT UNSIGNED NOT NULL,
    month            SMALLINT UNSIGNED NOT NULL,
    request_payload  MEDIUMTEXT NOT NULL,
    response_payload MEDIUMTEXT NULL,
    PRIMARY KEY (hit_id, month)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci
PARTITION BY HASH (month) PARTITIONS 24;

INSERT INTO hit_payloads (hit_id, month, request_payload, response_payload)
SELECT id, YEAR(created_at) * 12 + MONTH(created_at) - 1, request_payload, response_payload
FROM api_hit_logs
WHERE created_at IS NOT NULL AND (request_payload <> '' OR response_payload IS NOT NULL OR status = 'pending');

ALTER TABLE api_hit_logs DROP COLUMN request_payload, DROP COLUMN response_payload;

DROP TABLE IF EXISTS hit_payload_retention;

-- +goose Down
CREATE TABLE hit_payload_retention (
    id              TINYINT UNSIGNED NOT NULL,
    cleared_through BIGINT UNSIGNED NOT NULL DEFAULT 0,
    PRIMARY KEY (id),
    CONSTRAINT hit_payload_retention_one_row CHECK (id = 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
INSERT INTO hit_payload_retention (id, cleared_through) VALUES (1, 0);
ALTER TABLE api_hit_logs
    ADD COLUMN request_payload MEDIUMTEXT NOT NULL AFTER request_id,
    ADD COLUMN response_payload MEDIUMTEXT NULL AFTER request_payload;
UPDATE api_hit_logs h JOIN hit_payloads p ON p.hit_id = h.id
SET h.request_payload = p.request_payload, h.response_payload = p.response_payload;
DROP TABLE hit_payloads;
