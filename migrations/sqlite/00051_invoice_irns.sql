-- E-invoicing: the portal's answer for a B2B document, recorded once (see
-- the MySQL migration of the same number).

-- +goose Up
CREATE TABLE invoice_irns (
    invoice_id  INTEGER NOT NULL PRIMARY KEY,
    irn         CHAR(64) NOT NULL,
    ack_no      VARCHAR(20) NOT NULL,
    ack_date    DATETIME NOT NULL,
    signed_qr   TEXT NOT NULL,
    recorded_by INTEGER NOT NULL,
    created_at  DATETIME NOT NULL
);
CREATE UNIQUE INDEX invoice_irns_irn_unique ON invoice_irns (irn);

-- +goose Down
DROP TABLE IF EXISTS invoice_irns;
