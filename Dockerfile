# syntax=docker/dockerfile:1
# Paygate server image: the binary with the web panel embedded, built by
# `make build` exactly as on a developer's machine (internal/deploycheck
# fails `make test` when this recipe and the make target drift apart), on
# distroless. The SQLite driver is pure Go, so CGO stays off and the
# binary needs no libc.

FROM node:22-bookworm-slim AS node

FROM golang:1.26-bookworm AS build
# The panel is built with npm (Node.js >= 20.19), as `make build` expects.
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
WORKDIR /src
# Dependencies first, so a source change reuses these layers.
COPY go.mod go.sum ./
RUN go mod download
COPY Makefile ./
COPY frontend/package.json frontend/package-lock.json frontend/
RUN make frontend-deps
COPY . .
ENV CGO_ENABLED=0
RUN make build GO_BUILD_FLAGS=-trimpath GO_LDFLAGS="-s -w" \
 && mkdir -p /out/data/uploads

FROM gcr.io/distroless/static-debian12:nonroot
WORKDIR /app
COPY --from=build /src/bin/server /app/server
# data/ holds the default SQLite file and uploads; writable by the nonroot user.
COPY --from=build --chown=65532:65532 /out/data /app/data
ENV HTTP_ADDR=:8080 \
    STORAGE_DIR=/app/data/uploads
EXPOSE 8080
USER nonroot:nonroot
# `docker compose run --rm app migrate` (or `ledger check`, `backup FILE`)
# runs an operator command.
ENTRYPOINT ["/app/server"]
