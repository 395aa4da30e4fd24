-- The key's secret hash is looked up by gateway calls (see the MySQL
-- migration of the same number).

-- +goose Up
CREATE UNIQUE INDEX api_keys_secret_unique ON api_keys (secret);

-- The built-in gateway services' seeded descriptions named the old
-- credential; only text still as seeded changes (admins may have edited it).
UPDATE api_services SET description = REPLACE(description, 'Bearer <API key>', 'Bearer <API secret>')
    WHERE builtin = 1 AND description LIKE '%Bearer <API key>%';
UPDATE api_documentations SET description = REPLACE(description, 'Bearer <API key>', 'Bearer <API secret>')
    WHERE description LIKE '%Bearer <API key>%'
      AND api_service_id IN (SELECT id FROM api_services WHERE builtin = 1);

-- +goose Down
UPDATE api_services SET description = REPLACE(description, 'Bearer <API secret>', 'Bearer <API key>')
    WHERE builtin = 1 AND description LIKE '%Bearer <API secret>%';
UPDATE api_documentations SET description = REPLACE(description, 'Bearer <API secret>', 'Bearer <API key>')
    WHERE description LIKE '%Bearer <API secret>%'
      AND api_service_id IN (SELECT id FROM api_services WHERE builtin = 1);
DROP INDEX api_keys_secret_unique;
