-- Hit payload retention (see the MySQL migration of the same number).

-- +goose Up
CREATE TABLE hit_payload_retention (
    id              INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    cleared_through INTEGER NOT NULL DEFAULT 0
);
INSERT INTO hit_payload_retention (id, cleared_through) VALUES (1, 0);

-- +goose Down
DROP TABLE hit_payload_retention;
