-- Gateway calls present the key's secret alone (Authorization: Bearer
-- <secret>), found by its SHA-256: the lookup needs an index, and a unique
-- one keeps a presented secret from ever matching two keys.

-- +goose Up
ALTER TABLE api_keys ADD UNIQUE KEY api_keys_secret_unique (secret);

-- +goose Down
ALTER TABLE api_keys DROP INDEX api_keys_secret_unique;
