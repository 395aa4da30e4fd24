-- balance_requests.approved_by loses its foreign key. On InnoDB, setting it
-- took a shared lock on the approving admin's users row; the approval then
-- locks the owner's row for the credit, so an admin approving while their
-- own metered calls (or another approval) held their row deadlocked, and the
-- caller got a spurious 503. Users are only ever soft-deleted, so the key
-- never had anything to do (as with transactions, which have none).

-- +goose Up
ALTER TABLE balance_requests DROP FOREIGN KEY balance_requests_approved_by_foreign;

-- +goose Down
ALTER TABLE balance_requests ADD CONSTRAINT balance_requests_approved_by_foreign
    FOREIGN KEY (approved_by) REFERENCES users (id) ON DELETE SET NULL;
