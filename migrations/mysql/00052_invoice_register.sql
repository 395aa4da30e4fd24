-- The GSTR-1 register (docs/decisions.md, "Tax invoices, credit notes and
-- statements") reads one issuer's documents dated in a month: issuer_key
-- (the reseller, or 0 for the platform) and issued_at.

-- +goose Up
ALTER TABLE invoices ADD KEY invoices_issuer_issued_index (issuer_key, issued_at, id);

-- +goose Down
ALTER TABLE invoices DROP INDEX invoices_issuer_issued_index;
