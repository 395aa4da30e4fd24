#!/usr/bin/env bash
# ensure-promtool.sh: make sure promtool (Debian package prometheus) is on
# the PATH, for the test that runs `promtool check metrics` on /metrics
# (adapters/httpapi TestMetricsPassPromtool). Installs the package when it is
# missing, without its recommends and without starting the Prometheus server.
# Quiet when it is there; exits non-zero when it cannot be installed. Needs
# root for the install. Idempotent.
set -euo pipefail

if command -v promtool >/dev/null; then
	exit 0
fi
echo "ensure-promtool: installing prometheus (Debian package, for promtool)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# policy-rc.d 101: the package's postinst must not start a Prometheus server.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
	trap 'rm -f "$policy"' EXIT
fi
apt-get install -y -qq --no-install-recommends prometheus >&2
if ! command -v promtool >/dev/null; then
	echo "ensure-promtool: the prometheus package did not install promtool" >&2
	exit 1
fi
promtool --version 2>&1 | head -1 >&2 || true
