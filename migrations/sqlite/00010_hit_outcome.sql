-- The hit log's outcome (see the MySQL migration of the same number): the
-- status, except that a pending hit reads 'success'; the list indexes carry
-- it where they carried status, so a successful settlement changes none of
-- them.

-- +goose Up
ALTER TABLE api_hit_logs ADD COLUMN outcome VARCHAR(20) NOT NULL DEFAULT 'success'
    CHECK (outcome IN ('success', 'failed', 'insufficient_balance'));
DROP INDEX api_hit_logs_user_listing_index;
CREATE INDEX api_hit_logs_user_listing_index ON api_hit_logs (user_id, created_at, api_service_id, api_key_id, outcome);
DROP INDEX api_hit_logs_service_listing_index;
CREATE INDEX api_hit_logs_service_listing_index ON api_hit_logs (api_service_id, created_at, outcome);
DROP INDEX api_hit_logs_key_listing_index;
CREATE INDEX api_hit_logs_key_listing_index ON api_hit_logs (api_key_id, created_at, outcome);

-- +goose Down
DROP INDEX api_hit_logs_key_listing_index;
CREATE INDEX api_hit_logs_key_listing_index ON api_hit_logs (api_key_id, created_at, status);
DROP INDEX api_hit_logs_service_listing_index;
CREATE INDEX api_hit_logs_service_listing_index ON api_hit_logs (api_service_id, created_at, status);
DROP INDEX api_hit_logs_user_listing_index;
CREATE INDEX api_hit_logs_user_listing_index ON api_hit_logs (user_id, created_at, api_service_id, api_key_id, status);
ALTER TABLE api_hit_logs DROP COLUMN outcome;
