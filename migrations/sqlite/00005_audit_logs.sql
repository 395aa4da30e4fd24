-- Audit log of admin actions: who did what to which record, the record
-- before and after (secrets left out), from which address, when.
-- No foreign keys: the history outlives the users and records it names.

-- +goose Up
CREATE TABLE audit_logs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    actor_id     INTEGER NOT NULL,
    action       VARCHAR(64) NOT NULL,
    target_type  VARCHAR(32) NOT NULL,
    target_id    INTEGER NULL,
    before_state TEXT NULL,
    after_state  TEXT NULL,
    ip_address   VARCHAR(45) NOT NULL DEFAULT '',
    request_id   VARCHAR(100) NOT NULL DEFAULT '',
    created_at   DATETIME NOT NULL
);
CREATE INDEX audit_logs_actor_index ON audit_logs (actor_id, id);
CREATE INDEX audit_logs_target_index ON audit_logs (target_type, target_id, id);
CREATE INDEX audit_logs_action_index ON audit_logs (action, id);

-- +goose Down
DROP TABLE IF EXISTS audit_logs;
