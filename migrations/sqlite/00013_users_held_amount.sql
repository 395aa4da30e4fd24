-- The money of a user's open holds (see the MySQL migration of the same
-- number).

-- +goose Up
ALTER TABLE users ADD COLUMN held_amount TEXT NOT NULL DEFAULT '0.00'
    CHECK (CAST(held_amount AS REAL) >= 0 AND CAST(held_amount AS REAL) <= CAST(balance AS REAL));

-- +goose Down
ALTER TABLE users DROP COLUMN held_amount;
