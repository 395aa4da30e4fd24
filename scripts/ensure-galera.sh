#!/usr/bin/env bash
# ensure-galera.sh: make sure what scripts/galera.sh needs beside mariadbd
# (scripts/ensure-mariadb.sh) is installed, for the HA tests (make test-ha):
# Galera's provider (galera-4: /usr/lib/galera/libgalera_smm.so), rsync (the
# state transfer) and HAProxy (in front of the three nodes, TCP mode, each
# node health-checked for wsrep_local_state). Installs the Debian packages
# that are missing. Quiet when everything is there; exits non-zero when
# something cannot be installed. Needs root for the install. Idempotent.
set -euo pipefail

missing=()
[ -f /usr/lib/galera/libgalera_smm.so ] || missing+=(galera-4)
command -v rsync >/dev/null 2>&1 || missing+=(rsync)
command -v haproxy >/dev/null 2>&1 || missing+=(haproxy)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "ensure-galera: installing ${missing[*]} (Debian packages)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq "${missing[@]}" >&2
if [ ! -f /usr/lib/galera/libgalera_smm.so ] || ! command -v rsync >/dev/null 2>&1 || ! command -v haproxy >/dev/null 2>&1; then
	echo "ensure-galera: ${missing[*]} did not install galera-4's provider, rsync and haproxy" >&2
	exit 1
fi
