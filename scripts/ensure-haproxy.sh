#!/usr/bin/env bash
# ensure-haproxy.sh: make sure HAProxy is installed, for the Galera HA tests
# (scripts/galera.sh puts it in front of the three nodes, TCP mode, each node
# health-checked for wsrep_local_state = 4, Synced). Installs Debian's haproxy
# package when it is missing. Quiet when it is there; exits non-zero when it
# cannot be installed. Needs root for the install. Idempotent.
set -euo pipefail

if command -v haproxy >/dev/null 2>&1; then
	exit 0
fi
echo "ensure-haproxy: installing haproxy (Debian package)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq haproxy >&2
if ! command -v haproxy >/dev/null 2>&1; then
	echo "ensure-haproxy: the haproxy package did not install haproxy" >&2
	exit 1
fi
