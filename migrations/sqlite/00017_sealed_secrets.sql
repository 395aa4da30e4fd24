-- Webhook signing secrets and provider keys are stored sealed (see the
-- MySQL migration of the same number). SQLite does not enforce VARCHAR
-- lengths, so the columns need no change; the version keeps both
-- dialects' numbering alike.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
