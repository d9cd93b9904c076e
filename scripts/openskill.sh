#!/usr/bin/env bash
# Installs openskill, the reference implementation of the Weng-Lin ratings
# that package rating's reference test compares against, when it is
# missing: the npm registry's package openskill at the pinned version
# below, installed with npm into a cache directory outside the repository
# (the test runs it under node with rating/testdata/openskill.cjs). The test
# looks at $CHATURAJI_OPENSKILL if set (a directory holding
# node_modules/openskill), else at
# ${XDG_CACHE_HOME:-$HOME/.cache}/chaturaji/openskill@VERSION, where this
# script puts it. `scripts/test.sh` calls it; messages go to stderr.
set -euo pipefail

version=5.0.1 # keep in step with openskillVersion in rating/reference_test.go

log() { printf 'openskill.sh: %s\n' "$*" >&2; }

if [ -n "${CHATURAJI_OPENSKILL:-}" ]; then
	if [ -f "$CHATURAJI_OPENSKILL/node_modules/openskill/package.json" ]; then
		exit 0
	fi
	log "CHATURAJI_OPENSKILL is $CHATURAJI_OPENSKILL, which holds no node_modules/openskill"
	exit 1
fi
exec bash "$(dirname "$0")/npmcache.sh" openskill "$version" package.json "the rating tests"
