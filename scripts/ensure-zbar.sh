#!/usr/bin/env bash
# ensure-zbar.sh: make sure zbar's zbarimg is installed, for the checkout's
# QR tests (adapters/httpapi reads the PNG back as a payer's phone would).
# Installs the zbar-tools package when it is missing. Quiet when it is
# there; exits non-zero when it cannot be installed. Needs root for the
# install. Idempotent.
set -euo pipefail

if command -v zbarimg >/dev/null 2>&1; then
	exit 0
fi
echo "ensure-zbar: installing zbar-tools (Debian package)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq zbar-tools >&2
if ! command -v zbarimg >/dev/null 2>&1; then
	echo "ensure-zbar: the zbar-tools package did not install zbarimg" >&2
	exit 1
fi
