-- A customer is an account of role user (see the MySQL migration of the
-- same number). SQLite cannot add a CHECK to an existing table, and
-- rebuilding users (referenced by most tables) is not worth the risk: two
-- triggers refuse the same rows instead.

-- +goose Up
UPDATE users SET parent_id = NULL WHERE parent_id IS NOT NULL AND role <> 'user';

-- +goose StatementBegin
CREATE TRIGGER users_customer_is_user_insert BEFORE INSERT ON users
WHEN NEW.parent_id IS NOT NULL AND NEW.role <> 'user'
BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: users_customer_is_user');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER users_customer_is_user_update BEFORE UPDATE OF parent_id, role ON users
WHEN NEW.parent_id IS NOT NULL AND NEW.role <> 'user'
BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: users_customer_is_user');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER IF EXISTS users_customer_is_user_update;
DROP TRIGGER IF EXISTS users_customer_is_user_insert;
