#!/usr/bin/env bash
# ensure-poppler.sh: make sure poppler's pdftotext, pdftoppm and pdfsig are
# installed, for the invoice PDF tests (adapters/invoicepdf reads the text
# back out of the rendered PDF; pdfsig checks its digital signature;
# pdftoppm draws a page for a person to look at). Installs the poppler-utils
# package when any is missing. Quiet when they are there; exits non-zero
# when they cannot be installed. Needs root for the install. Idempotent.
set -euo pipefail

if command -v pdftotext >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 && command -v pdfsig >/dev/null 2>&1; then
	exit 0
fi
echo "ensure-poppler: installing poppler-utils (Debian package)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq poppler-utils >&2
if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1 || ! command -v pdfsig >/dev/null 2>&1; then
	echo "ensure-poppler: the poppler-utils package did not install pdftotext, pdftoppm and pdfsig" >&2
	exit 1
fi
