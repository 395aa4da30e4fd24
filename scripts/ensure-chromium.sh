#!/usr/bin/env bash
# ensure-chromium.sh: make sure Debian's Chromium is at /usr/bin/chromium,
# for the panel's browser tests (frontend/e2e, driven by playwright-core;
# no browser is downloaded by npm). Installs the chromium package when it is
# missing. Quiet when it is there; exits non-zero when it cannot be
# installed. Needs root for the install. Idempotent.
set -euo pipefail

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}

if [ -x "$CHROMIUM" ]; then
	exit 0
fi
if [ -n "${CHROMIUM_PATH:-}" ]; then
	echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM is not an executable" >&2
	exit 1
fi
echo "ensure-chromium: installing chromium (Debian package)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq chromium >&2
if ! [ -x "$CHROMIUM" ]; then
	echo "ensure-chromium: the chromium package did not install $CHROMIUM" >&2
	exit 1
fi
"$CHROMIUM" --version >&2 || true
