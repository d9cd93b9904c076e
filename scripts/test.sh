#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need
# (a PostgreSQL server for package store/postgres, through
# scripts/postgres.sh), then the format and vet checks, the tests, and the
# race detector on the packages with concurrency. `make test` calls it; so
# does CI.
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

# The tests need PostgreSQL (package store/postgres), Chromium and npm
# (package web: npm fetches axe-core, the accessibility rules its browser
# tests run; package rating: npm fetches openskill, the reference its
# ratings are compared with, which node runs). Install whatever is missing
# in one go: apt-get update once, then one apt-get install.
step "system packages"
missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || [ -n "${CHROMIUM_PATH:-}" ] || missing+=(chromium fonts-dejavu-core)
command -v npm >/dev/null 2>&1 || { [ -n "${CHATURAJI_AXE:-}" ] && [ -n "${CHATURAJI_OPENSKILL:-}" ] && command -v node >/dev/null 2>&1; } || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
		echo "test.sh: the tests need ${missing[*]}: install them (as root, with apt-get) and run again" >&2
		exit 1
	fi
	echo "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
	echo "PostgreSQL, Chromium and npm are installed"
fi
bash scripts/chromium.sh

# axe-core, pinned, from the npm registry into a cache outside the
# repository (scripts/axe.sh); the tests fail without it.
step "axe-core"
if [ -z "${CHATURAJI_AXE:-}" ] && ! command -v npm >/dev/null 2>&1; then
	echo "test.sh: npm is missing: the browser tests need axe-core from the npm registry; install Node.js and npm and run again" >&2
	exit 1
fi
bash scripts/axe.sh
echo "axe-core is installed"

# openskill, pinned, from the npm registry into a cache outside the
# repository (scripts/openskill.sh); package rating's reference test runs
# it under node and fails without it.
step "openskill"
if [ -z "${CHATURAJI_OPENSKILL:-}" ] && ! command -v npm >/dev/null 2>&1; then
	echo "test.sh: npm is missing: the rating tests need openskill from the npm registry; install Node.js and npm and run again" >&2
	exit 1
fi
bash scripts/openskill.sh
echo "openskill is installed"

# The PostgreSQL tests fail without a server: start one unless we are given
# one (a postgres:// URL of a database where tests may create schemas).
step "PostgreSQL"
if [ -n "${CHATURAJI_TEST_POSTGRES:-}" ]; then
	echo "using the server in CHATURAJI_TEST_POSTGRES"
else
	CHATURAJI_TEST_POSTGRES=$(bash scripts/postgres.sh)
	export CHATURAJI_TEST_POSTGRES
	echo "CHATURAJI_TEST_POSTGRES=$CHATURAJI_TEST_POSTGRES"
fi

# The packages with concurrency: the server and its store, the match runner,
# the searches, the engine protocol, the web client, accounts (their bounded
# hashing) and the lobby (rounds on several nodes), and the command (serve,
# loadtest and match run goroutines). Their tests run once, under the race
# detector (package web's browser tests aside: see below); the other
# packages' tests run without it.
# CHATURAJI_RACE=0 runs every package's tests without the race detector,
# for a quicker run by hand.
race_pkgs=$(go list ./... | grep -E '/(server|store|match|ai|engine|learn|web|account|lobby|cmd/chaturaji)($|/)' || true)
if [ "${CHATURAJI_RACE:-1}" = 0 ] || [ -z "$race_pkgs" ]; then
	step "go test (the race detector left out: CHATURAJI_RACE=0)"
	go test -count=1 -timeout 20m ./...
else
	# Package web's browser tests spend their time in Chromium, two thirds
	# of it: they run here, without the race detector, which would make
	# their in-process server several times slower (410 more CPU-seconds,
	# a fifth of the suite's CPU) and find nothing that the
	# server's own tests under it do not. The package's other tests run
	# again below, under the race detector (CHATURAJI_NO_BROWSER=1 leaves
	# the browser tests out of that run).
	web_pkg=$(go list ./web)
	step "go test, without the race detector, of the packages without concurrency and of package web's browser tests"
	# -timeout: the browser tests, as many at once as there are cores,
	# take minutes on a loaded machine; a hung test fails the run at 30
	# minutes instead of holding it. Package web first, the longest, so
	# that the others run beside it.
	# shellcheck disable=SC2046
	go test -count=1 -timeout 30m "$web_pkg" $(go list ./... | grep -v -x -F "$race_pkgs")
	step "go test -race, of the packages with concurrency; the command's scripts without it, beside them"
	# The command's scripts (TestScripts: each command's output, errors
	# and exit status, run as a user runs them) run without the race
	# detector, at the same time as the race run, whose waits on leases
	# and timeouts leave a core idle half the time: under the detector
	# they take five times the wall time and three times the CPU, and the
	# command's concurrent paths (serve, clusters, loadtest) are tested
	# under it by the package's other tests. The server and the command
	# go first: their tests, run one after another, are the longest.
	scripts_log=$(mktemp)
	go test -count=1 -timeout 30m -run '^TestScripts$' ./cmd/chaturaji >"$scripts_log" 2>&1 &
	scripts_pid=$!
	first=$(echo "$race_pkgs" | grep -E '/(server|cmd/chaturaji)$' || true)
	rest=$(echo "$race_pkgs" | grep -v -x -F "$first" || true)
	race_status=0
	# shellcheck disable=SC2086
	CHATURAJI_NO_BROWSER=1 go test -count=1 -race -timeout 30m -skip '^TestScripts$' $first $rest || race_status=$?
	scripts_status=0
	wait "$scripts_pid" || scripts_status=$?
	echo "the command's scripts, without the race detector:"
	cat "$scripts_log"
	rm -f "$scripts_log"
	if [ "$race_status" != 0 ] || [ "$scripts_status" != 0 ]; then
		exit 1
	fi
fi
