-- Issue 18 (see the MySQL migration of the same number): payments say
-- whether they are live (false for sandbox providers; rows made before this
-- were the sandbox's), manual webhook redeliveries are counted for their
-- hourly limit, and Aadhaar and PAN numbers are marked sensitive and masked
-- where hit logs already stored them in full.

-- +goose Up
ALTER TABLE payments ADD COLUMN livemode BOOLEAN NOT NULL DEFAULT 0 CHECK (livemode IN (0, 1));

CREATE TABLE webhook_redeliveries (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id  INTEGER NOT NULL,
    requested_by INTEGER NOT NULL,
    created_at   DATETIME NOT NULL
);
CREATE INDEX webhook_redeliveries_delivery_index ON webhook_redeliveries (delivery_id, created_at);

UPDATE api_documentations SET request_params = json_set(request_params, '$.aadhaar_number.sensitive', json('true'))
    WHERE json_type(request_params, '$.aadhaar_number') = 'object';
UPDATE api_documentations SET request_params = json_set(request_params, '$.pan_number.sensitive', json('true'))
    WHERE json_type(request_params, '$.pan_number') = 'object';

UPDATE api_hit_logs SET request_payload = json_set(request_payload, '$.aadhaar_number',
        substr('XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', 1, length(json_extract(request_payload, '$.aadhaar_number')) - 4)
        || substr(json_extract(request_payload, '$.aadhaar_number'), -4))
    WHERE api_service_id IN (SELECT api_service_id FROM api_documentations WHERE json_extract(request_params, '$.aadhaar_number.sensitive') = 1)
      AND CASE WHEN json_valid(request_payload) THEN json_type(request_payload, '$.aadhaar_number') END = 'text'
      AND CASE WHEN json_valid(request_payload) THEN length(json_extract(request_payload, '$.aadhaar_number')) END BETWEEN 5 AND 52;
UPDATE api_hit_logs SET request_payload = json_set(request_payload, '$.pan_number',
        substr('XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', 1, length(json_extract(request_payload, '$.pan_number')) - 4)
        || substr(json_extract(request_payload, '$.pan_number'), -4))
    WHERE api_service_id IN (SELECT api_service_id FROM api_documentations WHERE json_extract(request_params, '$.pan_number.sensitive') = 1)
      AND CASE WHEN json_valid(request_payload) THEN json_type(request_payload, '$.pan_number') END = 'text'
      AND CASE WHEN json_valid(request_payload) THEN length(json_extract(request_payload, '$.pan_number')) END BETWEEN 5 AND 52;

-- +goose Down
DROP TABLE IF EXISTS webhook_redeliveries;
ALTER TABLE payments DROP COLUMN livemode;
