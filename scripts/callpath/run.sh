#!/usr/bin/env bash
# Traces one metered call (adapters/httpapi's
# TestMeteredCallSuccessEnvelopeLedgerAndHitLog, SQLite, a per-call
# Starter caller) with Delve and prints the functions and files it runs
# through in core/metering, adapters/mysqlstore and the route, in order,
# with the returns to a file already left and the calls back up to a file
# visited earlier. Usage: scripts/callpath/run.sh [repo dir] (default: .)
# Inlining is off so that every call and return is seen.
set -euo pipefail
repo=$(cd "${1:-.}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
command -v dlv >/dev/null || GOFLAGS= go install github.com/go-delve/delve/cmd/dlv@v1.27.2
dlv=$(command -v dlv || echo "$(go env GOPATH)/bin/dlv")
bin=$(mktemp -d)/httpapi.test
(cd "$repo" && go test -c -gcflags='all=-N -l' -o "$bin" ./adapters/httpapi/)
trace=${TRACE_OUT:-$(mktemp)}
(cd "$repo/adapters/httpapi" && TESTDB_ONLY=sqlite "$dlv" trace --exec "$bin" \
  'paygate/core/metering\.|paygate/adapters/mysqlstore\.|paygate/adapters/httpapi/metering\.\(\*Handler\)\.CallService' \
  -- -test.run 'TestMeteredCallSuccessEnvelopeLedgerAndHitLog$' -test.count=1 >"$trace" 2>&1)
python3 "$here/analyze.py" "$repo" "$trace"
