-- Webhook outbox (docs/decisions.md, "Webhooks"): events
-- written in the transaction of the change that caused them, one delivery
-- per destination (the user's webhook_url, a payment's callback_url), and
-- every attempt of a delivery. Workers claim due deliveries with SELECT …
-- FOR UPDATE SKIP LOCKED and a lease (claimed_until, claim_token): a
-- crashed worker's claim simply expires.

-- +goose Up
CREATE TABLE IF NOT EXISTS webhook_events (
    id         BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    public_id  VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    user_id    BIGINT UNSIGNED NOT NULL,
    type       VARCHAR(40) NOT NULL,
    payload    TEXT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY webhook_events_public_id_unique (public_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id               BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    event_id         BIGINT UNSIGNED NOT NULL,
    user_id          BIGINT UNSIGNED NOT NULL,
    event_type       VARCHAR(40) NOT NULL,
    destination      ENUM('webhook', 'callback') NOT NULL,
    url              VARCHAR(500) NOT NULL,
    status           ENUM('pending', 'delivered', 'failed') NOT NULL DEFAULT 'pending',
    attempts         INT UNSIGNED NOT NULL DEFAULT 0,
    failures         INT UNSIGNED NOT NULL DEFAULT 0,
    next_attempt_at  DATETIME(6) NOT NULL,
    claimed_until    DATETIME(6) NULL,
    claim_token      VARCHAR(40) CHARACTER SET ascii COLLATE ascii_bin NULL,
    last_status_code SMALLINT UNSIGNED NULL,
    last_error       VARCHAR(255) NULL,
    delivered_at     DATETIME(6) NULL,
    created_at       DATETIME(6) NOT NULL,
    updated_at       DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    KEY webhook_deliveries_due_index (status, next_attempt_at),
    KEY webhook_deliveries_user_index (user_id, id),
    KEY webhook_deliveries_event_index (event_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS webhook_attempts (
    id               BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    delivery_id      BIGINT UNSIGNED NOT NULL,
    status_code      SMALLINT UNSIGNED NULL,
    latency_ms       INT UNSIGNED NOT NULL,
    error            VARCHAR(255) NULL,
    response_snippet TEXT NULL,
    created_at       DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    KEY webhook_attempts_delivery_index (delivery_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS webhook_attempts;
DROP TABLE IF EXISTS webhook_deliveries;
DROP TABLE IF EXISTS webhook_events;
