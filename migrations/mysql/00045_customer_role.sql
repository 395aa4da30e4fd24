-- A customer is an account of role user (docs/decisions.md, "Resellers"):
-- an admin or a reseller is never anyone's customer. A role change ends the
-- reseller relation in the application (audited there); the constraint
-- keeps it so whatever writes the row. Accounts promoted before this
-- migration lose their parent here.

-- +goose Up
UPDATE users SET parent_id = NULL WHERE parent_id IS NOT NULL AND role <> 'user';
ALTER TABLE users ADD CONSTRAINT users_customer_is_user CHECK (parent_id IS NULL OR role = 'user');

-- +goose Down
ALTER TABLE users DROP CONSTRAINT users_customer_is_user;
