-- A brand domain answers only once its reseller proved control of it
-- (decisions "Resellers run customers of their own", brand). Several
-- resellers may claim one host while pending: the key becomes (host,
-- reseller_id). token is what the reseller publishes in DNS
-- (_paygate-verify.<host> TXT) and what the platform answers on the host
-- itself; verified_host is the host once the claim is verified, else NULL,
-- and its unique key keeps one verified claim per host (MariaDB has no
-- partial index). checked_at and check_problem show the last check.
-- Domains saved before this are pending, each with a fresh token: none was
-- ever proven.

-- +goose Up
ALTER TABLE reseller_domains
    ADD COLUMN token         VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',
    ADD COLUMN verified_host VARCHAR(253) CHARACTER SET ascii COLLATE ascii_general_ci NULL,
    ADD COLUMN verified_at   DATETIME(6) NULL,
    ADD COLUMN checked_at    DATETIME(6) NULL,
    ADD COLUMN check_problem VARCHAR(255) NOT NULL DEFAULT '',
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (host, reseller_id),
    ADD UNIQUE KEY reseller_domains_verified (verified_host);
-- UUID() makes each token distinct (all a token needs: it is published in DNS).
UPDATE reseller_domains SET token = CONCAT('pgv_', LEFT(SHA2(CONCAT(UUID(), RAND(), host, reseller_id), 256), 32)) WHERE token = '';

-- +goose Down
DELETE d FROM reseller_domains d
    WHERE d.verified_host IS NULL
      AND EXISTS (SELECT 1 FROM (SELECT host, reseller_id, verified_host FROM reseller_domains) o
                  WHERE o.host = d.host AND (o.verified_host IS NOT NULL OR o.reseller_id < d.reseller_id));
ALTER TABLE reseller_domains
    DROP KEY reseller_domains_verified,
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (host),
    DROP COLUMN check_problem,
    DROP COLUMN checked_at,
    DROP COLUMN verified_at,
    DROP COLUMN verified_host,
    DROP COLUMN token;
