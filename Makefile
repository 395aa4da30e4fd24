# Paygate: every routine action is a target. `make help` lists them.
# Needs go, git, bash and Node.js (>= 20.19, with npm) for the web panel;
# scripts/ install the rest (MariaDB, Chromium and promtool for tests).

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

GO ?= go
export GOFLAGS ?= -buildvcs=false

# Staticcheck 2026.2.2: analyses Go 1.26 code (and 1.27), builds with Go 1.26.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# Packages tested with the race detector. Their tests on MySQL run under it
# and their tests on SQLite without it (TESTDB_ONLY, internal/testdb): the
# detector would instrument the transpiled SQLite engine itself, which took
# 60% of adapters/httpapi's 9-minute race run (Nov 2026, 2 cores). Every
# database test still runs once on each database. cmd/ and internal/ run
# without it; internal/faulttest alone (FAULT_PKGS), its three server
# processes needing the machine's cores to themselves.
# Override: make test RACE_PKGS=./core/...
RACE_PKGS ?= ./core/... ./adapters/...
FAULT_PKGS ?= ./internal/faulttest

# Per-package limit of make test's go test runs (go test's default is 10m):
# a hang still ends the run.
TEST_TIMEOUT ?= 25m

# test-mysql: packages whose tests use a database (internal/testdb or the
# store adapter itself), run with -run MYSQL_RUN: testdb.Each names its
# subtests "sqlite" and "mysql" (MYSQL_RUN= runs both).
MYSQL_RUN ?= /mysql

# make fuzz: each fuzz target runs FUZZTIME (CI: part of make test). Their
# seed corpora (f.Add and testdata/fuzz) also run in every plain go test.
# A count, not a duration: Go 1.26's fuzz coordinator can fail a duration
# run with a bare "context deadline exceeded" at the deadline on a loaded
# machine (golang/go#75804, fixed in 1.27); a count has no deadline.
# 100000 runs take about 1-5 s per target here.
FUZZTIME ?= 100000x
FUZZ_TARGETS := ./core/catalog:FuzzValidateParams ./core/accounts/apikey:FuzzAllowList ./core/platform/inr:FuzzParse \
	./core/metering:FuzzParseParams ./adapters/httpapi:FuzzBind ./core/billing/gst:FuzzGSTINProblem

# Extra flags for cmd/bench (e.g. BENCH_FLAGS='-duration 30s') and
# cmd/reportbench (e.g. REPORTBENCH_FLAGS='-rows 200000 -runs 5').
BENCH_FLAGS ?=
REPORTBENCH_FLAGS ?=

# In CI the MariaDB-backed tests must run: a missing database is a failure,
# never a skip.
ifeq ($(CI),true)
export REQUIRE_MYSQL := 1
endif

.PHONY: help build run test test-ha test-ha-suite test-faults fuzz test-mysql mariadb zbar poppler lint contract-lint promtool mocks mocks-check bench e2e lighthouse frontend frontend-dist frontend-deps frontend-test chromium clean

help: ## List the targets
	@echo "usage: make <target>"
	@awk 'BEGIN {FS = ":[^#]*## "} /^[a-zA-Z0-9_-]+:[^#]*## / {printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# GO_BUILD_FLAGS and GO_LDFLAGS: extra go build flags; the Dockerfile builds
# with -trimpath and -s -w through this same target.
GO_BUILD_FLAGS ?=
GO_LDFLAGS ?=
build: frontend-dist ## Build bin/server (API + embedded panel assets)
	$(GO) build $(GO_BUILD_FLAGS) -ldflags '$(GO_LDFLAGS)' -o bin/server ./cmd/server

DEMO_DATA ?= true
run: build ## Build, then serve API + panel at http://localhost:8080 (or HTTP_ADDR) on embedded SQLite with demo data
	@mkdir -p data
	@addr="$${HTTP_ADDR:-:8080}"; host="$${addr%:*}"; port="$${addr##*:}"; \
	case "$$host" in ""|0.0.0.0|"[::]") host=localhost;; esac; \
	echo "make run: serving http://$$host:$$port (DATABASE_URL=$${DATABASE_URL:-sqlite://./data/app.db}, DEMO_DATA=$(DEMO_DATA)); Ctrl-C stops."
	@echo "make run: on the first start the admin login is printed once (\"admin login:\"); mail links as \"mail to …\""
	@echo "          (admin@localhost and a generated password, printed once; set ADMIN_PASSWORD before the first start to choose it)."
	DEMO_DATA=$(DEMO_DATA) ./bin/server

test: mocks-check lint contract-lint mariadb zbar poppler promtool ## Run every test (MariaDB installed/started, or set TEST_MYSQL_URL; zbar, poppler and promtool installed): plain packages, RACE_PKGS on SQLite then on MySQL under -race, FAULT_PKGS alone, fuzz seeds, the panel's vitest and browser tests
	@plain=$$(LC_ALL=C comm -23 <($(GO) list -e ./... | LC_ALL=C sort) <($(GO) list -e $(RACE_PKGS) $(FAULT_PKGS) | LC_ALL=C sort)); \
	echo "go test -count=1 -p 2 <every package but RACE_PKGS=$(RACE_PKGS) and FAULT_PKGS=$(FAULT_PKGS)>"; \
	$(GO) test -count=1 -p 2 -timeout $(TEST_TIMEOUT) $$plain
	TESTDB_ONLY=sqlite $(GO) test -count=1 -p 2 -timeout $(TEST_TIMEOUT) $(RACE_PKGS)
	TESTDB_ONLY=mysql $(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) $(RACE_PKGS)
	$(GO) test -count=1 -p 1 -timeout $(TEST_TIMEOUT) $(FAULT_PKGS)
	@$(MAKE) fuzz
	@$(MAKE) frontend-test e2e

fuzz: ## Run each go test -fuzz target for FUZZTIME (default 100000x runs); a crasher lands in the package's testdata/fuzz
	@for t in $(FUZZ_TARGETS); do \
	  echo "go test $${t%%:*} -run '^$$' -fuzz '^$${t##*:}$$' -fuzztime $(FUZZTIME)"; \
	  $(GO) test $${t%%:*} -run '^$$' -fuzz "^$${t##*:}\$$" -fuzztime $(FUZZTIME) || exit 1; \
	done

test-faults: mariadb ## Run only the process-level reliability tests (crash, database loss, 3 instances, SIGTERM)
	$(GO) test -count=1 -v ./internal/faulttest

# test-ha: scripts/galera.sh starts a three-node MariaDB Galera cluster and
# HAProxy on loopback (ports 3310-3313, GALERA_DIR), the Galera tests of
# internal/faulttest run against it (build tag galera: without the tag they
# are not built; with it a missing cluster fails), and the cluster is
# destroyed whatever the outcome (GALERA_KEEP=1 keeps it running).
test-ha: mariadb ## Run the HA tests on a three-node MariaDB Galera cluster behind HAProxy (scripts/galera.sh), 2.5-3.5 min
	@bash scripts/ensure-galera.sh
	@bash scripts/galera.sh destroy >/dev/null 2>&1 || true
	@status=0; bash scripts/galera.sh start && \
	  eval "$$(bash scripts/galera.sh env)" && export GALERA_DSNS GALERA_PROXY_DSN GALERA_DIR && \
	  { TEST_MYSQL_URL="$${GALERA_DSNS%%,*}?wsrep_sync_wait=1" $(GO) test -tags galera -count=1 -p 1 -v -timeout 15m -run 'Galera' ./internal/faulttest || status=$$?; } || status=$$?; \
	if [ "$${GALERA_KEEP:-}" != 1 ]; then bash scripts/galera.sh destroy; fi; exit $$status

# test-ha-suite: the MySQL half of the database-backed packages (sqlstore,
# httpapi, cmd/server, faulttest) against node 1 of the same cluster, with
# wsrep_sync_wait=1 (issue 37, point 2). Not in .ci/run, which it would take
# past 20 minutes (about 9 more on two cores: the cluster's start and the
# suite); run it when the store or the metering changes.
test-ha-suite: mariadb ## Run the MySQL half of the database-backed tests against a node of the Galera cluster, ~9 min
	@bash scripts/ensure-galera.sh
	@bash scripts/galera.sh destroy >/dev/null 2>&1 || true
	@status=0; bash scripts/galera.sh start && \
	  eval "$$(bash scripts/galera.sh env)" && \
	  { TEST_MYSQL_URL="$${GALERA_DSNS%%,*}?wsrep_sync_wait=1" TESTDB_ONLY=mysql REQUIRE_MYSQL=1 $(GO) test -count=1 -timeout 60m \
	    ./adapters/sqlstore/... ./adapters/httpapi ./cmd/server ./internal/faulttest || status=$$?; } || status=$$?; \
	if [ "$${GALERA_KEEP:-}" != 1 ]; then bash scripts/galera.sh destroy; fi; exit $$status

test-mysql: mariadb ## Run only the database-backed test packages, with REQUIRE_MYSQL=1 (no skipping)
	@pkgs=$$( { $(GO) list -e ./adapters/sqlstore/... 2>/dev/null; \
	  $(GO) list -e -f '{{.ImportPath}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}' ./... \
	  | awk '/ paygate\/internal\/testdb( |$$)/ {print $$1}'; } | LC_ALL=C sort -u); \
	if [ -z "$$pkgs" ]; then echo "test-mysql: no database-backed test package found" >&2; exit 1; fi; \
	echo "REQUIRE_MYSQL=1 go test -count=1 -p 1 $(if $(MYSQL_RUN),-run '$(MYSQL_RUN)') "$$pkgs; \
	REQUIRE_MYSQL=1 $(GO) test -count=1 -p 1 $(if $(MYSQL_RUN),-run '$(MYSQL_RUN)') $$pkgs

mariadb: ## Make sure the MariaDB binaries are installed and the tests' MariaDB runs (scripts/ensure-mariadb.sh); skipped when TEST_MYSQL_URL is set
	@if [ -n "$${TEST_MYSQL_URL:-}" ]; then \
	  echo "mariadb: using TEST_MYSQL_URL=$$(sed -E 's#(://[^:/@]*:)[^@]*@#\1***@#' <<<"$$TEST_MYSQL_URL") (scripts/ensure-mariadb.sh not run)"; \
	elif bash scripts/ensure-mariadb.sh; then echo "mariadb: ready"; \
	elif [ "$${CI:-}" = true ]; then \
	  echo "mariadb: scripts/ensure-mariadb.sh failed; in CI (CI=true) the MariaDB tests may not be skipped." >&2; exit 1; \
	else \
	  echo "mariadb: scripts/ensure-mariadb.sh could not install or start MariaDB; the MariaDB tests will be skipped." >&2; \
	  echo "         To run them against your own MySQL/MariaDB, point TEST_MYSQL_URL at a user that may create databases:" >&2; \
	  echo "           TEST_MYSQL_URL=mysql://user:pass@host:3306/ make test" >&2; \
	fi

zbar: ## Make sure zbar's zbarimg is installed (scripts/ensure-zbar.sh), for the checkout QR tests
	@if bash scripts/ensure-zbar.sh; then :; \
	elif [ "$${CI:-}" = true ]; then \
	  echo "zbar: scripts/ensure-zbar.sh failed; in CI (CI=true) the QR tests may not be skipped." >&2; exit 1; \
	else \
	  echo "zbar: scripts/ensure-zbar.sh could not install zbar-tools; the QR tests will be skipped." >&2; \
	fi

poppler: ## Make sure poppler's pdftotext, pdftoppm and pdfsig are installed (scripts/ensure-poppler.sh), for the invoice PDF tests
	@if bash scripts/ensure-poppler.sh; then :; \
	elif [ "$${CI:-}" = true ]; then \
	  echo "poppler: scripts/ensure-poppler.sh failed; in CI (CI=true) the invoice PDF tests may not be skipped." >&2; exit 1; \
	else \
	  echo "poppler: scripts/ensure-poppler.sh could not install poppler-utils; the invoice PDF tests will be skipped." >&2; \
	fi

promtool: ## Make sure promtool is installed (scripts/ensure-promtool.sh), for the test running `promtool check metrics` on /metrics
	@if bash scripts/ensure-promtool.sh; then echo "promtool: ready"; \
	elif [ "$${CI:-}" = true ]; then \
	  echo "promtool: scripts/ensure-promtool.sh failed; in CI (CI=true) the metrics check may not be skipped." >&2; exit 1; \
	else echo "promtool: could not be installed; the promtool check of /metrics will be skipped." >&2; fi

lint: ## gofmt -l, go vet and staticcheck (pinned version)
	@files=$$(find . \( -path ./.git -o -path ./frontend/node_modules -o -path ./.cache -o -path ./data -o -path ./bin \) -prune \
	  -o -name '*.go' -type f -print | xargs gofmt -l); \
	if [ -n "$$files" ]; then echo "gofmt: these files are not formatted (run: gofmt -w <file>):" >&2; echo "$$files" >&2; exit 1; fi; \
	echo "gofmt: ok"
	$(GO) vet ./...
	$(STATICCHECK) ./...

# contract-lint: @redocly/cli (pinned in api/lint/package-lock.json, npm ci
# like the panel's deps) lints api/openapi.yaml with the recommended rules;
# api/lint/redocly.yaml and its ignore file hold the waived warnings, each
# with its reason. About 4 s; telemetry and the update check are off.
CONTRACT_LINT_DEPS := api/lint/node_modules/.package-lock.json

$(CONTRACT_LINT_DEPS): api/lint/package-lock.json api/lint/package.json
	@command -v $(NPM) >/dev/null || { echo "contract-lint: npm not found; install Node.js >= 20.19" >&2; exit 1; }
	cd api/lint && $(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

contract-lint: $(CONTRACT_LINT_DEPS) ## Lint api/openapi.yaml with @redocly/cli's recommended rules (pinned; no errors, waived warnings in api/lint/)
	cd api/lint && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
	  ./node_modules/.bin/redocly lint ../openapi.yaml --config redocly.yaml --format=stylish

mocks: ## Regenerate the mockery mocks of the core's ports (.mockery.yaml → core/<pkg>/mocks)
	@bash scripts/mocks.sh

mocks-check: ## Regenerate the mocks and fail if they were stale (CI: also if they differ from the commit)
	@bash scripts/mocks.sh --check

# bench: cmd/bench and cmd/reportbench run on a mariadbd of their own
# (-mysql private: a temporary folder, stated settings, stopped at the end),
# which needs only the binaries that `mariadb` installs; an explicit
# TEST_MYSQL_URL wins.
bench: build mariadb ## Load-test bin/server (cmd/bench) on a private MariaDB (or TEST_MYSQL_URL) and SQLite; time reports on 1M hit logs (cmd/reportbench)
	$(GO) run ./cmd/bench -server ./bin/server $(if $(TEST_MYSQL_URL),-mysql '$(TEST_MYSQL_URL)') $(BENCH_FLAGS)
	$(GO) run ./cmd/bench -server ./bin/server -db sqlite $(BENCH_FLAGS)
	$(GO) run ./cmd/reportbench $(if $(TEST_MYSQL_URL),-mysql '$(TEST_MYSQL_URL)') $(REPORTBENCH_FLAGS)

# The web panel (frontend/): npm ci when package-lock.json is newer than the
# installed node_modules, then npm run build (OpenAPI types, tsc, vite, the
# login route's bundle budget) when a source is newer than the last build.
# frontend/dist/.gitkeep is committed so go build works before any of it.
NPM ?= npm
FRONTEND_SRC := $(shell find frontend/src frontend/scripts -type f ! -name '*.gen.ts' ! -name '*.test.ts' ! -name '*.test.tsx' 2>/dev/null) \
	frontend/index.html frontend/vite.config.ts frontend/tsconfig.json frontend/package.json api/openapi.yaml
FRONTEND_DEPS := frontend/node_modules/.package-lock.json

$(FRONTEND_DEPS): frontend/package-lock.json frontend/package.json
	@command -v $(NPM) >/dev/null || { echo "frontend: npm not found; install Node.js >= 20.19 (the panel is built with npm)" >&2; exit 1; }
	cd frontend && $(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

frontend/dist/index.html: $(FRONTEND_DEPS) $(FRONTEND_SRC)
	cd frontend && $(NPM) run build --silent

frontend-dist: frontend/dist/index.html

frontend-deps: $(FRONTEND_DEPS)

frontend: frontend-dist ## Build the web panel into frontend/dist (embedded by the next go build)

frontend-test: $(FRONTEND_DEPS) ## Run the panel's component tests (vitest)
	cd frontend && $(NPM) test --silent

chromium: ## Make sure Debian's Chromium is installed (scripts/ensure-chromium.sh), for make e2e
	@bash scripts/ensure-chromium.sh

# Every step is written, so a stub (NotImplemented) fails the run (--strict).
# E2E_FLAGS: e.g. E2E_FLAGS='--headed' or E2E_FLAGS='--keep' (keeps the server's folder).
E2E_FLAGS ?=
e2e: build chromium ## Browser end-to-end tests: bin/server on a fresh SQLite database, driven in Chromium (screenshots in frontend/e2e/screenshots)
	cd frontend && SERVER_BIN=../bin/server node e2e/run.mjs --strict $(E2E_FLAGS)

# lighthouse: Lighthouse 13 (pinned in scripts/lighthouse/package-lock.json,
# installed with npm ci like api/lint) on bin/server alone with a fresh
# SQLite database, mobile defaults, in Debian's Chromium. Not in make test:
# about a minute, and its performance score follows the machine's load
# (RUNS=3 takes the median). Figures in docs/benchmarks.md.
LIGHTHOUSE_DEPS := scripts/lighthouse/node_modules/.package-lock.json

$(LIGHTHOUSE_DEPS): scripts/lighthouse/package-lock.json scripts/lighthouse/package.json
	cd scripts/lighthouse && $(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

lighthouse: build chromium $(LIGHTHOUSE_DEPS) ## Lighthouse on /login (performance >= 90, accessibility 100) and /hit-logs signed in (performance >= 80), bin/server on SQLite
	cd scripts/lighthouse && CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} node run.mjs

clean: ## Remove bin/ and Go's test cache (keeps data/, your local database)
	rm -rf bin .cache
	$(GO) clean -testcache
