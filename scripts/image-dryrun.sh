#!/usr/bin/env bash
# Runs the Dockerfile's build stage without Docker: the build context (the
# tracked files less .dockerignore) is copied to a scratch folder and built
# there with the stage's commands (make frontend-deps, then make build with
# CGO off, -trimpath, -s -w); the binary then serves the panel from a fresh
# SQLite database. For machines where Docker cannot pull the base images.
#   scripts/image-dryrun.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ctx=$(mktemp -d)
trap 'kill "${pid:-0}" 2>/dev/null || true; rm -rf "$ctx"' EXIT

# The build context: tracked files not matched by .dockerignore (patterns
# matched on the path and each parent, as Docker does for these forms).
mapfile -t patterns < <(grep -v '^\s*\(#\|$\)' .dockerignore | sed 's#^/##; s#/$##')
git ls-files -z | while IFS= read -r -d '' f; do
	skip=false
	prefix=
	IFS=/ read -ra parts <<<"$f"
	for part in "${parts[@]}"; do
		prefix=${prefix:+$prefix/}$part
		for p in "${patterns[@]}"; do
			# shellcheck disable=SC2053 # glob match on purpose
			[[ $prefix == $p ]] && skip=true
		done
	done
	$skip || { mkdir -p "$ctx/$(dirname "$f")"; cp -p "$f" "$ctx/$f"; }
done

echo "image-dryrun: building in $ctx"
(cd "$ctx" && make frontend-deps && CGO_ENABLED=0 make build GO_BUILD_FLAGS=-trimpath GO_LDFLAGS="-s -w")
bin=$ctx/bin/server
if command -v ldd >/dev/null && ldd "$bin" 2>&1 | grep -qv 'not a dynamic executable'; then
	echo "image-dryrun: $bin is dynamically linked; distroless/static needs a static binary" >&2
	exit 1
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$ctx/run"
(cd "$ctx/run" && HTTP_ADDR=127.0.0.1:$port STORAGE_DIR=uploads "$bin" >server.log 2>&1) &
pid=$!
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
page=$(curl -fsS "http://127.0.0.1:$port/")
asset=$(grep -o '/assets/[^"]*\.js' <<<"$page" | head -1)
if [[ -z $asset ]] || ! curl -fsS "http://127.0.0.1:$port$asset" >/dev/null; then
	echo "image-dryrun: the binary does not serve the panel (index.html without its script, or the script missing)" >&2
	exit 1
fi
echo "image-dryrun: ok: static binary, panel served ($asset)"
