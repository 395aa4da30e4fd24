-- A brand domain answers only once its reseller proved control of it (see
-- the MySQL migration of the same number). SQLite cannot change a primary
-- key in place: the table is rebuilt, its rows kept, pending with a fresh
-- token each.

-- +goose Up
CREATE TABLE reseller_domains_proof (
    host          VARCHAR(253) NOT NULL COLLATE NOCASE,
    reseller_id   INTEGER NOT NULL REFERENCES users (id),
    created_at    DATETIME NOT NULL,
    token         VARCHAR(64) NOT NULL DEFAULT '',
    verified_host VARCHAR(253) NULL COLLATE NOCASE,
    verified_at   DATETIME NULL,
    checked_at    DATETIME NULL,
    check_problem VARCHAR(255) NOT NULL DEFAULT '',
    PRIMARY KEY (host, reseller_id)
);
INSERT INTO reseller_domains_proof (host, reseller_id, created_at, token)
    SELECT host, reseller_id, created_at, 'pgv_' || lower(hex(randomblob(16))) FROM reseller_domains;
DROP TABLE reseller_domains;
ALTER TABLE reseller_domains_proof RENAME TO reseller_domains;
CREATE INDEX reseller_domains_reseller ON reseller_domains (reseller_id);
CREATE UNIQUE INDEX reseller_domains_verified ON reseller_domains (verified_host);

-- +goose Down
CREATE TABLE reseller_domains_old (
    host        VARCHAR(253) NOT NULL PRIMARY KEY COLLATE NOCASE,
    reseller_id INTEGER NOT NULL REFERENCES users (id),
    created_at  DATETIME NOT NULL
);
INSERT INTO reseller_domains_old (host, reseller_id, created_at)
    SELECT host, reseller_id, created_at FROM reseller_domains d
    WHERE d.verified_host IS NOT NULL
       OR NOT EXISTS (SELECT 1 FROM reseller_domains o WHERE o.host = d.host
                      AND (o.verified_host IS NOT NULL OR o.reseller_id < d.reseller_id));
DROP TABLE reseller_domains;
ALTER TABLE reseller_domains_old RENAME TO reseller_domains;
CREATE INDEX reseller_domains_reseller ON reseller_domains (reseller_id);
