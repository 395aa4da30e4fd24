-- Webhook outbox (docs/decisions.md, "Webhooks"). SQLite
-- has one writer at a time (transactions begin IMMEDIATE), so claiming due
-- deliveries needs no SKIP LOCKED; the lease columns work as on MySQL.

-- +goose Up
CREATE TABLE webhook_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id  VARCHAR(40) NOT NULL,
    user_id    INTEGER NOT NULL,
    type       VARCHAR(40) NOT NULL,
    payload    TEXT NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE UNIQUE INDEX webhook_events_public_id_unique ON webhook_events (public_id);

CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id         INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    event_type       VARCHAR(40) NOT NULL,
    destination      VARCHAR(10) NOT NULL CHECK (destination IN ('webhook', 'callback')),
    url              VARCHAR(500) NOT NULL,
    status           VARCHAR(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    failures         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  DATETIME NOT NULL,
    claimed_until    DATETIME NULL,
    claim_token      VARCHAR(40) NULL,
    last_status_code INTEGER NULL,
    last_error       VARCHAR(255) NULL,
    delivered_at     DATETIME NULL,
    created_at       DATETIME NOT NULL,
    updated_at       DATETIME NOT NULL
);
CREATE INDEX webhook_deliveries_due_index ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_user_index ON webhook_deliveries (user_id, id);
CREATE INDEX webhook_deliveries_event_index ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id      INTEGER NOT NULL,
    status_code      INTEGER NULL,
    latency_ms       INTEGER NOT NULL,
    error            VARCHAR(255) NULL,
    response_snippet TEXT NULL,
    created_at       DATETIME NOT NULL
);
CREATE INDEX webhook_attempts_delivery_index ON webhook_attempts (delivery_id, id);

-- +goose Down
DROP TABLE IF EXISTS webhook_attempts;
DROP TABLE IF EXISTS webhook_deliveries;
DROP TABLE IF EXISTS webhook_events;
