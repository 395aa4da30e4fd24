-- Tax invoices and credit notes (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE invoices (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL,
    kind            VARCHAR(12) NOT NULL,
    number          VARCHAR(16) NOT NULL,
    series          VARCHAR(16) NOT NULL,
    seq             INTEGER NOT NULL,
    month           CHAR(7) NOT NULL,
    corrects_id     INTEGER NULL,
    corrects_key    INTEGER NOT NULL DEFAULT 0,
    corrects_number VARCHAR(16) NULL,
    corrects_issued_at DATETIME NULL,
    rate            TEXT NOT NULL,
    place_of_supply CHAR(2) NOT NULL,
    supplier        TEXT NOT NULL CHECK (json_valid(supplier)),
    recipient       TEXT NOT NULL CHECK (json_valid(recipient)),
    payee           TEXT NOT NULL CHECK (json_valid(payee)),
    lines           TEXT NOT NULL CHECK (json_valid(lines)),
    gross           TEXT NOT NULL,
    taxable         TEXT NOT NULL,
    cgst            TEXT NOT NULL,
    sgst            TEXT NOT NULL,
    igst            TEXT NOT NULL,
    issued_at       DATETIME NOT NULL,
    created_at      DATETIME NULL
);
CREATE UNIQUE INDEX invoices_number_unique ON invoices (number);
CREATE UNIQUE INDEX invoices_series_seq_unique ON invoices (series, seq);
CREATE UNIQUE INDEX invoices_user_month_kind_unique ON invoices (user_id, month, kind, corrects_key);
CREATE INDEX invoices_month_index ON invoices (month, id);
CREATE INDEX invoices_user_index ON invoices (user_id, id);

CREATE TABLE invoice_series (
    series   VARCHAR(16) NOT NULL PRIMARY KEY,
    last_seq INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE invoice_months (
    month       CHAR(7) NOT NULL PRIMARY KEY,
    finished_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE IF EXISTS invoice_months;
DROP TABLE IF EXISTS invoice_series;
DROP TABLE IF EXISTS invoices;
