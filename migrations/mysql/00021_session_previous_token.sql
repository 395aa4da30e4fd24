-- Reuse detection of refresh tokens: a session's row keeps the hash its
-- token had before the last rotation. Presenting that token again ends the
-- session (core/panel Refresh).

-- +goose Up
ALTER TABLE personal_access_tokens
    ADD COLUMN previous_token VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    ADD KEY personal_access_tokens_previous_index (previous_token);

-- +goose Down
ALTER TABLE personal_access_tokens
    DROP KEY personal_access_tokens_previous_index,
    DROP COLUMN previous_token;
