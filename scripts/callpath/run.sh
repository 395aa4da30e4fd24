#!/usr/bin/env bash
# Traces request paths with Delve and prints, for each, the functions and
# files it runs through in order, the returns to a file already left and
# the calls back up to a file visited earlier. Two paths, each run by an
# adapters/httpapi test on SQLite:
#   metered  one metered call (TestMeteredCallSuccessEnvelopeLedgerAndHitLog,
#            a per-call Starter caller): the route, core/metering and the
#            store, from the route's entry to its return;
#   payment  one payment create (the first request of
#            TestGatewayPaymentCreateAndCheckout): the route, core/gateway,
#            core/metering and the store, from the route's entry to the
#            payment row's write (the store's Payments.Create returning).
# Usage: scripts/callpath/run.sh [repo dir] [metered|payment|both]
# (default: . both). Inlining is off so that every call and return is seen.
# The route's functions are matched by METERED_ROUTE and PAYMENT_ROUTE
# (regular expressions over Go function names; defaults below).
set -euo pipefail
repo=$(cd "${1:-.}" && pwd)
which=${2:-both}
here=$(cd "$(dirname "$0")" && pwd)
metered_route=${METERED_ROUTE:-'paygate/adapters/httpapi[./].*\.[cC]allService$'}
payment_route=${PAYMENT_ROUTE:-'paygate/adapters/httpapi[./].*\.[cC]reatePayment$'}
store='paygate/adapters/[a-z]*store[./]'
command -v dlv >/dev/null || GOFLAGS= go install github.com/go-delve/delve/cmd/dlv@v1.27.2
dlv=$(command -v dlv || echo "$(go env GOPATH)/bin/dlv")
bin=$(mktemp -d)/httpapi.test
(cd "$repo" && go test -c -gcflags='all=-N -l' -o "$bin" ./adapters/httpapi/)

# trace NAME TEST FUNCS ROUTE END SCOPES: dlv trace of FUNCS in TEST, then analyze.py.
trace() {
  local out=${TRACE_OUT:-$(mktemp)}.$1
  (cd "$repo/adapters/httpapi" && TESTDB_ONLY=sqlite "$dlv" trace --exec "$bin" "$3" \
    -- -test.run "$2" -test.count=1 >"$out" 2>&1) || true
  echo "== $1"
  python3 "$here/analyze.py" "$repo" "$out" "$4" "$5" "$6"
}
if [[ $which == metered || $which == both ]]; then
  trace metered 'TestMeteredCallSuccessEnvelopeLedgerAndHitLog$' \
    "paygate/core/metering\.|$store|${metered_route%\$}" "$metered_route" '' core/metering
fi
if [[ $which == payment || $which == both ]]; then
  trace payment 'TestGatewayPaymentCreateAndCheckout$' \
    "paygate/core/gateway\.|paygate/core/metering\.|$store|${payment_route%\$}" "$payment_route" \
    'adapters/.*[Pp]ayment[A-Za-z]*\)\.Create$' core/gateway,core/metering
fi
