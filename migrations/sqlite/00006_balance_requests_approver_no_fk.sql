-- Kept in step with mysql/00006, which drops the foreign key of
-- balance_requests.approved_by because InnoDB's check of it locks the
-- approver's row. SQLite checks foreign keys without row locks (writers are
-- serialised anyway), so its schema stays as it is.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
