-- The key's secret hash is looked up by gateway calls (see the MySQL
-- migration of the same number).

-- +goose Up
CREATE UNIQUE INDEX api_keys_secret_unique ON api_keys (secret);

-- +goose Down
DROP INDEX api_keys_secret_unique;
