-- Audit log of admin actions: who did what to which record, the record
-- before and after (secrets left out), from which address, when.
-- No foreign keys: the history outlives the users and records it names.

-- +goose Up
CREATE TABLE IF NOT EXISTS audit_logs (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    actor_id     BIGINT UNSIGNED NOT NULL,
    action       VARCHAR(64) NOT NULL,
    target_type  VARCHAR(32) NOT NULL,
    target_id    BIGINT UNSIGNED NULL,
    before_state MEDIUMTEXT NULL,
    after_state  MEDIUMTEXT NULL,
    ip_address   VARCHAR(45) NOT NULL DEFAULT '',
    request_id   VARCHAR(100) NOT NULL DEFAULT '',
    created_at   DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    KEY audit_logs_actor_index (actor_id, id),
    KEY audit_logs_target_index (target_type, target_id, id),
    KEY audit_logs_action_index (action, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS audit_logs;
