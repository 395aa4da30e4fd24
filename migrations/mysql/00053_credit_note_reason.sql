-- A credit note says why it was issued (docs/decisions.md, "Tax invoices,
-- credit notes and statements"; CGST rule 53): invoices.reason is written
-- with the document ("Refund of the fee of a failed payout") and never
-- changed; '' for invoices and for credit notes issued before it existed.

-- +goose Up
ALTER TABLE invoices ADD COLUMN reason VARCHAR(255) NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE invoices DROP COLUMN reason;
