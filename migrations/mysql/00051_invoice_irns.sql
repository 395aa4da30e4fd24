-- E-invoicing (docs/decisions.md, "Tax invoices, credit notes and
-- statements"): the invoice registration portal's answer for a B2B
-- document, recorded once by its issuer (PUT /api/v1/panel/invoices/{id}/irn).
-- A table of its own, not columns on invoices: an issued document's row
-- never changes. The primary key makes the answer once per document; an
-- IRN names one document only.

-- +goose Up
CREATE TABLE IF NOT EXISTS invoice_irns (
    invoice_id  BIGINT UNSIGNED NOT NULL,
    irn         CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    ack_no      VARCHAR(20) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    ack_date    DATETIME(6) NOT NULL,
    signed_qr   TEXT CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    recorded_by BIGINT UNSIGNED NOT NULL,
    created_at  DATETIME(6) NOT NULL,
    PRIMARY KEY (invoice_id),
    UNIQUE KEY invoice_irns_irn_unique (irn)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- +goose Down
DROP TABLE IF EXISTS invoice_irns;
