-- Reuse detection of refresh tokens (see the MySQL migration of the same
-- number).

-- +goose Up
ALTER TABLE personal_access_tokens ADD COLUMN previous_token VARCHAR(64) NULL;
CREATE INDEX personal_access_tokens_previous_index ON personal_access_tokens (previous_token);

-- +goose Down
DROP INDEX personal_access_tokens_previous_index;
ALTER TABLE personal_access_tokens DROP COLUMN previous_token;
