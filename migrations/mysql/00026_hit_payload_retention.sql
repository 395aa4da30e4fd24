-- Hit payload retention (HIT_PAYLOAD_RETENTION, issue 21): the retention
-- worker clears the payloads of old hits in primary-key order, a bounded
-- range at a time. cleared_through is the id up to which every hit is past
-- retention and cleared, so a worker (on any instance, after any restart)
-- starts there instead of walking the cleared history again. One row; it
-- only moves forward (UPDATE ... WHERE cleared_through < ?), so several
-- instances sweeping at once are harmless.

-- +goose Up
CREATE TABLE hit_payload_retention (
    id              TINYINT UNSIGNED NOT NULL,
    cleared_through BIGINT UNSIGNED NOT NULL DEFAULT 0,
    PRIMARY KEY (id),
    CONSTRAINT hit_payload_retention_one_row CHECK (id = 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
INSERT INTO hit_payload_retention (id, cleared_through) VALUES (1, 0);

-- +goose Down
DROP TABLE hit_payload_retention;
