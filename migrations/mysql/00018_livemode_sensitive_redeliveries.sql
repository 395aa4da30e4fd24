-- Livemode, sensitive parameters and redeliveries (docs/decisions.md, "Sensitive parameters are masked wherever they are kept"):
-- - payments.livemode: false for sandbox providers (the checkout shows
--   "Test mode"); rows made before this were the sandbox's, so the default
--   is false: a payment of unknown mode never looks live.
-- - webhook_redeliveries: one row per manual redelivery, counted under the
--   delivery's row lock for the limit of 10 per delivery per hour, so the
--   limit holds across instances.
-- - Aadhaar and PAN numbers are sensitive: documented parameters named
--   aadhaar_number or pan_number are marked so, and hit logs that stored
--   them in full before this keep only their masks (all but the last four
--   characters as X). A full Aadhaar number is never kept.

-- +goose Up
ALTER TABLE payments ADD COLUMN livemode BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE IF NOT EXISTS webhook_redeliveries (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    delivery_id  BIGINT UNSIGNED NOT NULL,
    requested_by BIGINT UNSIGNED NOT NULL,
    created_at   DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    KEY webhook_redeliveries_delivery_index (delivery_id, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

UPDATE api_documentations SET request_params = JSON_SET(request_params, '$.aadhaar_number.sensitive', TRUE)
    WHERE JSON_TYPE(JSON_EXTRACT(request_params, '$.aadhaar_number')) = 'OBJECT';
UPDATE api_documentations SET request_params = JSON_SET(request_params, '$.pan_number.sensitive', TRUE)
    WHERE JSON_TYPE(JSON_EXTRACT(request_params, '$.pan_number')) = 'OBJECT';

UPDATE api_hit_logs SET request_payload = JSON_SET(request_payload, '$.aadhaar_number',
        CONCAT(REPEAT('X', CHAR_LENGTH(JSON_UNQUOTE(JSON_EXTRACT(request_payload, '$.aadhaar_number'))) - 4),
               RIGHT(JSON_UNQUOTE(JSON_EXTRACT(request_payload, '$.aadhaar_number')), 4)))
    WHERE api_service_id IN (SELECT api_service_id FROM api_documentations
                             WHERE JSON_EXTRACT(request_params, '$.aadhaar_number.sensitive') = TRUE)
      AND (CASE WHEN JSON_VALID(request_payload) THEN JSON_TYPE(JSON_EXTRACT(request_payload, '$.aadhaar_number')) END) = 'STRING'
      AND (CASE WHEN JSON_VALID(request_payload) THEN CHAR_LENGTH(JSON_UNQUOTE(JSON_EXTRACT(request_payload, '$.aadhaar_number'))) END) > 4;
UPDATE api_hit_logs SET request_payload = JSON_SET(request_payload, '$.pan_number',
        CONCAT(REPEAT('X', CHAR_LENGTH(JSON_UNQUOTE(JSON_EXTRACT(request_payload, '$.pan_number'))) - 4),
               RIGHT(JSON_UNQUOTE(JSON_EXTRACT(request_payload, '$.pan_number')), 4)))
    WHERE api_service_id IN (SELECT api_service_id FROM api_documentations
                             WHERE JSON_EXTRACT(request_params, '$.pan_number.sensitive') = TRUE)
      AND (CASE WHEN JSON_VALID(request_payload) THEN JSON_TYPE(JSON_EXTRACT(request_payload, '$.pan_number')) END) = 'STRING'
      AND (CASE WHEN JSON_VALID(request_payload) THEN CHAR_LENGTH(JSON_UNQUOTE(JSON_EXTRACT(request_payload, '$.pan_number'))) END) > 4;

-- +goose Down
DROP TABLE IF EXISTS webhook_redeliveries;
ALTER TABLE payments DROP COLUMN livemode;
