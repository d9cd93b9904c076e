#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need,
# then the format and vet checks, the tests, and the race detector on the
# packages with concurrency. `make test` calls it; so does CI.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

if ! command -v go >/dev/null 2>&1; then
	echo "test.sh: Go is not installed (need Go 1.26 or newer)" >&2
	exit 1
fi

step "gofmt"
unformatted=$(gofmt -l . | grep -v '^vendor/' || true)
if [ -n "$unformatted" ]; then
	echo "gofmt would change these files:" >&2
	echo "$unformatted" >&2
	exit 1
fi

step "go vet"
go vet ./...

step "go test"
go test -count=1 ./...

race_pkgs=$(go list ./... | grep -E '/(server|store|match|ai)($|/)' || true)
if [ -n "$race_pkgs" ]; then
	step "go test -race"
	# shellcheck disable=SC2086
	go test -count=1 -race $race_pkgs
fi
