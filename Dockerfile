# syntax=docker/dockerfile:1
# Paygate server image: a static Go binary on distroless.
# The SQLite driver is pure Go, so CGO stays off and the binary needs no libc.
# The panel's assets are embedded from frontend/dist (a committed placeholder
# until the SPA lands; then a node stage builds it here first).

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath -ldflags="-s -w" -o /out/server ./cmd/server \
 && mkdir -p /out/data/uploads

FROM gcr.io/distroless/static-debian12:nonroot
WORKDIR /app
COPY --from=build /out/server /app/server
# data/ holds the default SQLite file and uploads; writable by the nonroot user.
COPY --from=build --chown=65532:65532 /out/data /app/data
ENV HTTP_ADDR=:8080 \
    STORAGE_DIR=/app/data/uploads
EXPOSE 8080
USER nonroot:nonroot
# `docker run IMAGE migrate` or `... ledger check` runs an operator command.
ENTRYPOINT ["/app/server"]
