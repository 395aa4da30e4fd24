-- Collection fees and payment purposes (see the MySQL migration of the
-- same number).

-- +goose Up
ALTER TABLE users ADD COLUMN collection_fee_percent TEXT NOT NULL DEFAULT '0.00'
    CHECK (CAST(collection_fee_percent AS REAL) >= 0 AND CAST(collection_fee_percent AS REAL) <= 100);
ALTER TABLE payments ADD COLUMN purpose VARCHAR(10) NOT NULL DEFAULT 'collection'
    CHECK (purpose IN ('collection', 'balance'));
ALTER TABLE payments ADD COLUMN fee TEXT NOT NULL DEFAULT '0.00';

-- +goose Down
ALTER TABLE payments DROP COLUMN fee;
ALTER TABLE payments DROP COLUMN purpose;
ALTER TABLE users DROP COLUMN collection_fee_percent;
