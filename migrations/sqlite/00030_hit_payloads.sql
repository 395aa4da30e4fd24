-- Hit payloads in a table of their own (see the MySQL migration of the
-- same number). SQLite has no partitions: retention deletes the rows of
-- expired hits in bounded batches, oldest hit first. month is kept as on
-- MySQL (the hit's created_at month in UTC, YEAR * 12 + MONTH - 1).

-- +goose Up
CREATE TABLE hit_payloads (
    hit_id           INTEGER NOT NULL PRIMARY KEY,
    month            INTEGER NOT NULL,
    request_payload  TEXT NOT NULL,
    response_payload TEXT NULL
);

INSERT INTO hit_payloads (hit_id, month, request_payload, response_payload)
SELECT id, CAST(strftime('%Y', created_at) AS INTEGER) * 12 + CAST(strftime('%m', created_at) AS INTEGER) - 1,
       request_payload, response_payload
FROM api_hit_logs
WHERE created_at IS NOT NULL AND (request_payload <> '' OR response_payload IS NOT NULL OR status = 'pending');

ALTER TABLE api_hit_logs DROP COLUMN request_payload;
ALTER TABLE api_hit_logs DROP COLUMN response_payload;

DROP TABLE IF EXISTS hit_payload_retention;

-- +goose Down
CREATE TABLE hit_payload_retention (
    id              INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    cleared_through INTEGER NOT NULL DEFAULT 0
);
INSERT INTO hit_payload_retention (id, cleared_through) VALUES (1, 0);
ALTER TABLE api_hit_logs ADD COLUMN request_payload TEXT NOT NULL DEFAULT '';
ALTER TABLE api_hit_logs ADD COLUMN response_payload TEXT NULL;
UPDATE api_hit_logs SET request_payload = p.request_payload, response_payload = p.response_payload
FROM hit_payloads p WHERE p.hit_id = api_hit_logs.id;
DROP TABLE hit_payloads;
